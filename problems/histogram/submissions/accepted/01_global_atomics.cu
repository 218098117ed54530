// Ladder step 1: one thread per element, one atomicAdd into the global histogram.
//
// What it teaches: why atomics exist. Many threads increment the same bin at once; a plain
// `histogram[v]++` is a load, an add and a store, and two threads that load the same count both store
// count + 1 (wrong_answer/racy_plain_increment.cu). atomicAdd makes the read-modify-write one
// indivisible operation in L2. The histogram arrives zeroed, so counting straight into it is enough.
//
// Why it is slow: every element is an atomic on one of num_bins addresses in L2, and threads that hit
// the same bin are serialised; with every value in one bin (the one_hot cases) all N atomics queue on a
// single address.
//
// Verdict: accepted.
#include <cuda_runtime.h>

#include <cstddef>

__global__ void histogram_global_atomics(const int* __restrict__ input, int* histogram, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&histogram[input[i]], 1);
}

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  const int threads = 256;
  const std::size_t blocks = (static_cast<std::size_t>(N) + threads - 1) / threads;
  histogram_global_atomics<<<static_cast<unsigned>(blocks), threads>>>(input, histogram, static_cast<std::size_t>(N));
  (void)num_bins;
  cudaDeviceSynchronize();
}
