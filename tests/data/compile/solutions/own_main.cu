// A test driver left in the file: its main() would replace the runner's.
#include <cstdio>

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  (void)A, (void)B, (void)C, (void)M, (void)N, (void)K;
}

int main() {
  std::printf("testing\n");
  return 0;
}
