// Broken: a missing semicolon. Compile errors are reported with the compiler's message and never stop the
// other solutions.
#include <cuda_runtime.h>

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  int unused = 0
  (void)A; (void)B; (void)C; (void)M; (void)N; (void)K; (void)unused;
}
