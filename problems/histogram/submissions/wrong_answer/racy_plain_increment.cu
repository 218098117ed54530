// Wrong answer: histogram[input[i]]++ without an atomic.
//
// What it teaches: ++ on memory is a load, an add and a store. Two threads (of one warp, or of two
// blocks) that hit the same bin at once both load the old count and both store count + 1: one
// increment is lost. With 256 bins and millions of values nearly every bin loses counts; with a single
// element it happens to be right.
//
// Verdict: wrong answer, on every case with many values per bin.
#include <cuda_runtime.h>

#include <cstddef>

__global__ void histogram_racy(const int* __restrict__ input, int* histogram, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) histogram[input[i]]++; // BUG: not atomic
}

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  const std::size_t blocks = (static_cast<std::size_t>(N) + 255) / 256;
  histogram_racy<<<static_cast<unsigned>(blocks), 256>>>(input, histogram, static_cast<std::size_t>(N));
  (void)num_bins;
  cudaDeviceSynchronize();
}
