// Ladder step 1: scan each block of 256 in shared memory, scan the block totals the same way, add.
//
// What it teaches: a scan needs every earlier value, so it is done in levels. Within a block, the
// Hillis-Steele scan adds to each element the one 1, 2, 4, ... 128 places before it (8 steps, each
// behind a __syncthreads(), double-buffered so that no thread reads a value another thread is
// overwriting). Each block's last element is its total; the totals are scanned by the same kernel (a
// second level, a third for N > 2^16), and each block then adds the scanned total of the blocks before
// it. This is correct for any N and shows the structure every faster scan keeps.
//
// Why it is slow: Hillis-Steele does log2(256) = 8 additions per element instead of 1, every element
// goes through shared memory and 16 barriers, and the output is read and written a second time to add
// the offsets.
//
// Verdict: accepted.
#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

namespace {

constexpr int threads = 256;

/// Inclusive scan of each block of `in` into `out`; the block's total into totals[block].
__global__ void scan_blocks(const float* in, float* out, float* totals, std::size_t n) {
  __shared__ float buffer[2][threads];
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  int from = 0;
  buffer[from][threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int offset = 1; offset < threads; offset *= 2) {
    const float v = buffer[from][threadIdx.x];
    buffer[1 - from][threadIdx.x] = threadIdx.x >= offset ? v + buffer[from][threadIdx.x - offset] : v;
    from = 1 - from;
    __syncthreads();
  }
  if (i < n) out[i] = buffer[from][threadIdx.x];
  if (threadIdx.x == threads - 1) totals[blockIdx.x] = buffer[from][threadIdx.x];
}

/// Adds to every element of block b > 0 the scanned total of blocks 0 .. b-1.
__global__ void add_offsets(float* out, const float* scanned_totals, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  if (blockIdx.x > 0 && i < n) out[i] += scanned_totals[blockIdx.x - 1];
}

std::size_t blocks_for(std::size_t n) { return (n + threads - 1) / threads; }

/// Scratch for the totals of each level, kept between calls.
std::vector<float*>& level_buffers(std::size_t n) {
  static std::vector<float*> buffers;
  static std::size_t for_n = 0;
  if (n > for_n) {
    for (float* b : buffers) cudaFree(b);
    buffers.clear();
    // Level k holds the totals of level k-1's blocks, and their scan.
    for (std::size_t count = blocks_for(n);; count = blocks_for(count)) {
      float* b = nullptr;
      cudaMalloc(&b, 2 * count * sizeof(float));
      buffers.push_back(b);
      if (count == 1) break;
    }
    for_n = n;
  }
  return buffers;
}

void scan(const float* in, float* out, std::size_t n, std::size_t level) {
  const std::size_t blocks = blocks_for(n);
  float* totals = level_buffers(0)[level];
  scan_blocks<<<static_cast<unsigned>(blocks), threads>>>(in, out, totals, n);
  if (blocks == 1) return;
  float* scanned = totals + blocks;
  scan(totals, scanned, blocks, level + 1);
  add_offsets<<<static_cast<unsigned>(blocks), threads>>>(out, scanned, n);
}

} // namespace

extern "C" void solve(const float* input, float* output, int N) {
  level_buffers(static_cast<std::size_t>(N));
  scan(input, output, static_cast<std::size_t>(N), 0);
  cudaDeviceSynchronize();
}
