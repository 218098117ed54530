// GPU reference of transpose, run inside the runner to check the outputs of timed calls, so its speed is paid
// on every sample. Trusted code that must be obviously right for every shape the judge can send (any rows,
// cols ≥ 1 whose product fits the buffers): the textbook tiled transpose. A block moves 32 × 32 tiles through
// shared memory, reading input rows and writing output rows (both coalesced), every load and store guarded,
// all index math in 64 bits, and its tiles in a grid-stride loop over both dimensions so that no shape needs
// more blocks than a grid holds. On an H100 it takes 0.133 ms a call on 8191 × 4097 and 0.142 ms on 7000 ×
// 6000, where one thread per element (writing a row apart, the kernel it replaced) took 0.275 and 0.341 ms; a
// class of 30 transpose students graded in 69.8 s instead of 79.1 s. On a single row or column of tens of
// millions of elements it is the slower of the two (a tile's row holds one element), but only timed cases run
// it, and they are all large matrices. Its outputs equalled the old kernel's and the host's in every element
// of nineteen shapes from 1 × 1 to 70,000,000 × 1, nothing written past the output. Its kernel's name starts
// with judge_reference_ (and is not mangled) so that it can be told apart from the solution's kernels.
#include <cuda_runtime.h>

#include <cstdint>

namespace {
constexpr int tile = 32;     // a tile's rows and columns; a warp moves one row of it
constexpr int row_steps = 8; // rows of threads in a block: each thread moves tile / row_steps elements
constexpr unsigned max_grid = 65535;
} // namespace

extern "C" __global__ void __launch_bounds__(tile* row_steps)
    judge_reference_transpose(const float* __restrict__ input, float* __restrict__ output, int rows, int cols) {
  // The padding column puts a tile's column in 32 different banks for the transposed reads.
  __shared__ float staged[tile][tile + 1];
  const std::int64_t tiles_down = (static_cast<std::int64_t>(rows) + tile - 1) / tile;
  const std::int64_t tiles_across = (static_cast<std::int64_t>(cols) + tile - 1) / tile;
  // The loop bounds are the same for every thread of the block, so each barrier is reached by all.
  for (std::int64_t down = blockIdx.y; down < tiles_down; down += gridDim.y) {
    for (std::int64_t across = blockIdx.x; across < tiles_across; across += gridDim.x) {
      const std::int64_t i0 = down * tile;   // the tile's first input row
      const std::int64_t j0 = across * tile; // and first input column
      // Input element (i, j) is staged at [i - i0][j - j0].
      for (int r = threadIdx.y; r < tile; r += row_steps) {
        const std::int64_t i = i0 + r;
        const std::int64_t j = j0 + threadIdx.x;
        if (i < rows && j < cols) staged[r][threadIdx.x] = input[i * cols + j];
      }
      __syncthreads();
      // Output element (j, i) of the cols × rows output is input element (i, j).
      for (int r = threadIdx.y; r < tile; r += row_steps) {
        const std::int64_t j = j0 + r;
        const std::int64_t i = i0 + threadIdx.x;
        if (j < cols && i < rows) output[j * rows + i] = staged[threadIdx.x][r];
      }
      __syncthreads(); // the tile is read before the next one is staged
    }
  }
}

/// The harness's entry point: buffers in signature order (input, output), sizes in signature order
/// (rows, cols). Launches on the legacy default stream and returns; the harness synchronises.
extern "C" void judge_reference_solve(void* const* buffers, const int* sizes, const float* /*scalars*/) {
  const int rows = sizes[0];
  const int cols = sizes[1];
  const std::int64_t tiles_down = (static_cast<std::int64_t>(rows) + tile - 1) / tile;
  const std::int64_t tiles_across = (static_cast<std::int64_t>(cols) + tile - 1) / tile;
  const dim3 grid(static_cast<unsigned>(tiles_across < max_grid ? tiles_across : max_grid),
                  static_cast<unsigned>(tiles_down < max_grid ? tiles_down : max_grid));
  const dim3 block(tile, row_steps);
  judge_reference_transpose<<<grid, block, 0, cudaStreamLegacy>>>(static_cast<const float*>(buffers[0]),
                                                                  static_cast<float*>(buffers[1]), rows, cols);
}
