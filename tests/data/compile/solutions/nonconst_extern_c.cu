// Every pointer writable, as some LeetGPU solutions write it: the same ABI as the declaration.
extern "C" void solve(float* A, float* B, float* C, int M, int N, const int K) {
  (void)A, (void)B, (void)C, (void)M, (void)N, (void)K;
}
