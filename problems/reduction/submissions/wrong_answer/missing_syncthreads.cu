// Wrong answer: step 1's shared-memory tree without the __syncthreads() between its levels.
//
// What it teaches: threads of one block run as separate warps, in no fixed order. At level s, thread t
// reads element t + s, which another warp may not have written yet at the level before; without a
// barrier it adds a stale value, and the block's sum loses or repeats part of its values. Within a warp
// it can seem to work, which is why small inputs (N <= 32) often pass.
//
// Verdict: wrong answer, on the cases with more than a few warps of data (which ones can vary from
// run to run: it is a race).
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 256;

__global__ void reduce_level_racy(const float* in, float* out, std::size_t n) {
  __shared__ float values[threads];
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  values[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = threads / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) values[threadIdx.x] += values[threadIdx.x + s];
    // BUG: no __syncthreads() here; the next level may read values this level has not yet written.
  }
  if (threadIdx.x == 0) out[blockIdx.x] = values[0];
}

} // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static float* scratch[2] = {nullptr, nullptr};
  static std::size_t capacity = 0;
  const std::size_t first = (static_cast<std::size_t>(N) + threads - 1) / threads;
  if (first > capacity) {
    cudaFree(scratch[0]);
    cudaFree(scratch[1]);
    cudaMalloc(&scratch[0], first * sizeof(float));
    cudaMalloc(&scratch[1], first * sizeof(float));
    capacity = first;
  }
  const float* in = input;
  std::size_t count = static_cast<std::size_t>(N);
  int level = 0;
  while (count > 1) {
    const std::size_t blocks = (count + threads - 1) / threads;
    float* out = blocks == 1 ? output : scratch[level % 2];
    reduce_level_racy<<<static_cast<unsigned>(blocks), threads>>>(in, out, count);
    in = out;
    count = blocks;
    ++level;
  }
  if (level == 0) cudaMemcpy(output, input, sizeof(float), cudaMemcpyDeviceToDevice);
  cudaDeviceSynchronize();
}
