// Wrong answer: on large inputs the last N % 4 outputs count one element twice.
//
// What it teaches: a scan's tolerance grows with N, so at large N a mistake of one element hides inside
// it on random data; only data whose prefix sums are exact can show it. Inputs below 2^20 elements go
// through a plain recursive block scan, which is right. From 2^20 on, each thread scans a float4 of its
// own, the blocks' totals are scanned recursively and added back, and the N % 4 elements left over are
// scanned by one thread that starts from the last output of the float4 part. That output is already
// inclusive, but the thread adds input[groups * 4 - 1] to it again, as if it were exclusive (BUG): each
// of the last N % 4 outputs is off by that element. On the cases with random floats that reach this
// path (N = 4,194,305 ones and 2^24 + 1, with tolerances of about 64 and 90 on their last outputs) one
// extra value of 1 or less passes; so it did on every case before the exact ones. alternating_16777215
// (+1, -1, +1, ..., whose prefix sums alternate 1, 0, 1, ...) is compared exactly: its doubled element
// is -1.
//
// Verdict: wrong answer, on alternating_16777215 (and, unless the doubled element happens to be 0, on
// integers_2097149).
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 256;

// Inclusive scan of one value per thread across the block (Hillis-Steele, double-buffered).
__device__ float block_inclusive_scan(float v) {
  __shared__ float buffer[2][threads];
  const int t = threadIdx.x;
  buffer[0][t] = v;
  __syncthreads();
  int from = 0;
  for (int offset = 1; offset < threads; offset *= 2) {
    float w = buffer[from][t];
    if (t >= offset) w += buffer[from][t - offset];
    buffer[1 - from][t] = w;
    __syncthreads();
    from = 1 - from;
  }
  return buffer[from][t];
}

__global__ void scan_scalars(const float* input, float* output, float* totals, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  const float scanned = block_inclusive_scan(i < n ? input[i] : 0.0f);
  if (i < n) output[i] = scanned;
  if (totals != nullptr && threadIdx.x == threads - 1) totals[blockIdx.x] = scanned;
}

__global__ void scan_float4s(const float* input, float* output, float* totals, std::size_t groups) {
  const std::size_t g = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  float4 v = g < groups ? reinterpret_cast<const float4*>(input)[g] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  v.y += v.x;
  v.z += v.y;
  v.w += v.z;
  const float inclusive = block_inclusive_scan(v.w);
  const float before = inclusive - v.w;
  if (g < groups)
    reinterpret_cast<float4*>(output)[g] = make_float4(before + v.x, before + v.y, before + v.z, before + v.w);
  if (threadIdx.x == threads - 1) totals[blockIdx.x] = inclusive;
}

__global__ void add_offsets(float* output, const float* scanned_totals, std::size_t n, std::size_t per_block) {
  const std::size_t block = blockIdx.x / (per_block / threads);
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  if (block > 0 && i < n) output[i] += scanned_totals[block - 1];
}

__global__ void scan_leftovers(const float* input, float* output, std::size_t groups, std::size_t n) {
  const std::size_t first = groups * 4;
  float running = output[first - 1] + input[first - 1]; // BUG: output[first - 1] already includes it
  for (std::size_t i = first; i < n; ++i) {
    running += input[i];
    output[i] = running;
  }
}

std::size_t blocks_for(std::size_t n) { return (n + threads - 1) / threads; }

// Inclusive scan of n floats, one per thread; scratch holds the totals of every level above.
void scan_scalar_levels(const float* input, float* output, std::size_t n, float* scratch) {
  const std::size_t blocks = blocks_for(n);
  if (blocks == 1) {
    scan_scalars<<<1, threads>>>(input, output, nullptr, n);
    return;
  }
  scan_scalars<<<static_cast<unsigned>(blocks), threads>>>(input, output, scratch, n);
  scan_scalar_levels(scratch, scratch + blocks, blocks, scratch + 2 * blocks);
  add_offsets<<<static_cast<unsigned>(blocks), threads>>>(output, scratch + blocks, n, threads);
}

} // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static float* scratch = nullptr;
  static std::size_t capacity = 0;
  const std::size_t n = static_cast<std::size_t>(N);
  std::size_t needed = 64;
  for (std::size_t m = n; m > 1; m = blocks_for(m)) needed += 2 * blocks_for(m);
  if (needed > capacity) {
    cudaFree(scratch);
    cudaMalloc(&scratch, needed * sizeof(float));
    capacity = needed;
  }
  if (n < (std::size_t{1} << 20)) {
    scan_scalar_levels(input, output, n, scratch);
  } else {
    // Blocks of 256 threads × 4 values; the block totals are scanned with the scalar levels.
    const std::size_t groups = n / 4;
    const std::size_t blocks = blocks_for(groups);
    scan_float4s<<<static_cast<unsigned>(blocks), threads>>>(input, output, scratch, groups);
    scan_scalar_levels(scratch, scratch + blocks, blocks, scratch + 2 * blocks);
    add_offsets<<<static_cast<unsigned>(blocks * 4), threads>>>(output, scratch + blocks, groups * 4, 4 * threads);
    if (n % 4 != 0) scan_leftovers<<<1, 1>>>(input, output, groups, n);
  }
  cudaDeviceSynchronize();
}
