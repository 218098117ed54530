// GPU reference of transpose, run inside the runner to check the outputs of timed calls. Trusted code
// that must be obviously right for every shape the judge can send (any rows, cols ≥ 1 whose product
// fits the buffers), so it is the plainest kernel: one thread per output element in a grid-stride loop,
// all index math in 64 bits. Its kernel's name starts with judge_reference_ (and is not mangled) so that
// it can be told apart from the solution's kernels.
#include <cuda_runtime.h>

#include <cstdint>

extern "C" __global__ void judge_reference_transpose(const float* __restrict__ input, float* __restrict__ output,
                                                     int rows, int cols) {
  const std::int64_t count = static_cast<std::int64_t>(rows) * cols;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < count; k += stride) {
    // Output element k is (j, i) of the cols×rows output, i.e. (i, j) of the input.
    const std::int64_t j = k / rows;
    const std::int64_t i = k % rows;
    output[k] = input[i * cols + j];
  }
}

/// The harness's entry point: buffers in signature order (input, output), sizes in signature order
/// (rows, cols). Launches on the legacy default stream and returns; the harness synchronises.
extern "C" void judge_reference_solve(void* const* buffers, const int* sizes, const float* /*scalars*/) {
  const int rows = sizes[0];
  const int cols = sizes[1];
  const std::int64_t count = static_cast<std::int64_t>(rows) * cols;
  const int threads = 256;
  // Enough blocks for one element per thread, capped (the grid-stride loop covers the rest) so that
  // the block count always fits the grid's x limit.
  const std::int64_t max_blocks = std::int64_t{1} << 20;
  const std::int64_t needed = (count + threads - 1) / threads;
  const auto blocks = static_cast<unsigned>(needed < max_blocks ? needed : max_blocks);
  judge_reference_transpose<<<blocks, threads, 0, cudaStreamLegacy>>>(static_cast<const float*>(buffers[0]),
                                                                      static_cast<float*>(buffers[1]), rows, cols);
}
