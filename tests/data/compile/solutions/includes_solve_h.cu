// LeetGPU's older starter: the declaration comes from "solve.h", which the judge provides.
#include "solve.h"

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  (void)A, (void)B, (void)C, (void)M, (void)N, (void)K;
}
