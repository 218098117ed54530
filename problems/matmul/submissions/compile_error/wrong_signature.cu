// Broken: solve() takes doubles. The judge declares the problem's solve() before this file, so the compiler
// reports the conflict and the judge prints the expected signature.
#include <cuda_runtime.h>

extern "C" void solve(const double* A, const double* B, double* C, int M, int N, int K) {
  (void)A; (void)B; (void)C; (void)M; (void)N; (void)K;
}
