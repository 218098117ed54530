// Run-time error: an odd-even transposition sort in one block of N threads.
//
// What it teaches: a block has at most 1024 threads. The sort is right (N rounds of compare-exchanges
// between neighbours, a barrier after each), but above N = 1024 the launch is refused with
// cudaErrorInvalidConfiguration and the kernel never runs. The judge sees the error after solve() and
// reports a run-time error; a program of one's own would see it from cudaGetLastError().
//
// Verdict: run-time error, on every case with N > 1024.
#include <cuda_runtime.h>

__global__ void odd_even_sort(float* data, int n) {
  const int i = threadIdx.x;
  for (int round = 0; round < n; ++round) {
    // Pairs (0,1), (2,3), ... in even rounds, (1,2), (3,4), ... in odd rounds; thread i owns the pair
    // that starts at i when i has the round's parity.
    if (i % 2 == round % 2 && i + 1 < n && data[i] > data[i + 1]) {
      const float t = data[i];
      data[i] = data[i + 1];
      data[i + 1] = t;
    }
    __syncthreads();
  }
}

extern "C" void solve(float* data, int N) {
  odd_even_sort<<<1, N>>>(data, N); // BUG: N threads in one block; above 1024 the launch is refused
  cudaDeviceSynchronize();
}
