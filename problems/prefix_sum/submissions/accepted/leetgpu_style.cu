// Accepted: a prefix sum as public LeetGPU solutions write it.
//
// What it shows: the textbook three-step scan with one element per thread, `int` indices and grids of
// (n + 255) / 256 blocks of 256 threads: each block scans its 256 elements in shared memory
// (Hillis-Steele, double-buffered so that no thread reads a value another is overwriting) and writes its
// total; the totals are scanned the same way, recursively, until one block holds them all; each block
// then adds the scanned total of the blocks before it. cudaDeviceSynchronize() at the end. The scratch
// for the totals of every level is allocated once, for the largest N seen.
//
// Verdict: accepted. Within LeetGPU's limits (N <= 100,000,000: four levels of totals) every index fits
// an int. Every partial sum it forms is the sum of a contiguous run of inputs, so on whole-number inputs
// whose runs stay below 2^24 it is exact, as `compare: exact` cases require.
// Robustness: an int index would wrap for N above 2^31 - 256; prefix_sum has no case beyond the limits,
// so the judge never runs it there.
#include <cuda_runtime.h>

__global__ void scan_blocks(const float* input, float* output, float* totals, int n) {
  __shared__ float buffer[2][256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  buffer[0][t] = i < n ? input[i] : 0.0f;
  __syncthreads();
  int from = 0;
  for (int offset = 1; offset < 256; offset *= 2) {
    float v = buffer[from][t];
    if (t >= offset) v += buffer[from][t - offset];
    buffer[1 - from][t] = v;
    __syncthreads();
    from = 1 - from;
  }
  if (i < n) output[i] = buffer[from][t];
  if (totals != nullptr && t == 255) totals[blockIdx.x] = buffer[from][255];
}

__global__ void add_block_offsets(float* output, const float* scanned_totals, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x > 0 && i < n) output[i] += scanned_totals[blockIdx.x - 1];
}

// Scans n values from input into output; scratch holds the totals of this level and every level above.
void scan(const float* input, float* output, int n, float* scratch) {
  int blocks = (n + 255) / 256;
  if (blocks == 1) {
    scan_blocks<<<1, 256>>>(input, output, nullptr, n);
    return;
  }
  float* totals = scratch;
  float* scanned_totals = scratch + blocks;
  scan_blocks<<<blocks, 256>>>(input, output, totals, n);
  scan(totals, scanned_totals, blocks, scratch + 2 * blocks);
  add_block_offsets<<<blocks, 256>>>(output, scanned_totals, n);
}

extern "C" void solve(const float* input, float* output, int N) {
  static float* scratch = nullptr;
  static int capacity = 0;
  // Two arrays of totals per level above the first: blocks(N) + blocks(blocks(N)) + ... floats each.
  int needed = 0;
  for (int n = N; n > 256; n = (n + 255) / 256) needed += 2 * ((n + 255) / 256);
  if (needed > capacity) {
    cudaFree(scratch);
    cudaMalloc(&scratch, needed * sizeof(float));
    capacity = needed;
  }
  scan(input, output, N, scratch);
  cudaDeviceSynchronize();
}
