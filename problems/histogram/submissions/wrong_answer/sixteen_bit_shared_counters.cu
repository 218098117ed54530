// Wrong answer: 16-bit counters in shared memory overflow past 65,535 counts per block.
//
// What it teaches: privatised counters must hold a block's whole share of the data. This solution
// privatises the histogram per block as step 2 does, but packs two 16-bit counters into each 32-bit
// word of shared memory (half the shared memory, BUG: a counter holds at most 65,535). A block of a
// fixed grid of 1,024 blocks counts its values into the packed words, then adds each bin's count into
// the global histogram. A bin that receives more than 65,535 values within one block carries into its
// neighbour (or, for the high half, out of the word): both counts are wrong. With 1,024 blocks, a
// block's share of a bin stays below 65,536 unless the bin holds more than about 67,000,000 values;
// every case before the largest one-bin one held at most 2^24 in a bin (16,384 per block), so it passed
// them all. one_bin_100000000 gives each block about 97,656 values of one bin.
//
// Verdict: wrong answer, on one_bin_100000000 (one_bin_20000000, about 19,531 per block, passes).
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 256, blocks = 1024;

__global__ void count_packed(const int* input, std::size_t n, int* histogram, int bins) {
  __shared__ unsigned int packed[512]; // two 16-bit counters per word, bins up to 1024
  for (int w = threadIdx.x; w < 512; w += threads) packed[w] = 0;
  __syncthreads();
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * threads) {
    const int b = input[i];
    atomicAdd(&packed[b / 2], 1u << (16 * (b % 2))); // BUG: the low half carries into the high half
  }
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += threads) {
    const unsigned int c = (packed[b / 2] >> (16 * (b % 2))) & 0xffffu;
    if (c != 0) atomicAdd(&histogram[b], static_cast<int>(c));
  }
}

} // namespace

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  count_packed<<<blocks, threads>>>(input, static_cast<std::size_t>(N), histogram, num_bins);
  cudaDeviceSynchronize();
}
