// Ladder step 4: 16-byte loads and stores on any shape, each block's share of a row placed on the
// memory's 16-byte grid rather than on the matrix's columns.
//
// What it changes from 03_tiled_rows_per_thread.cu, and why. Step 3 is as fast as cuBLAS on 4096 × 4096
// and 7000 × 6000, whose rows start on 32-byte boundaries, and far slower on 8191 × 4097, whose rows
// start anywhere (4097 and 8191 floats are odd). There a warp's 32 floats of a row straddle two
// 128-byte lines and five 32-byte sectors instead of four, for every load and every store: a quarter
// more requests to L2, and every store a partial sector that L2 must merge with its neighbour's. Wider
// accesses cannot be had by widening the tile: a row that starts at an odd float cannot be read with
// float4s counted from its first column.
//
// So this step counts from memory instead. In every input row, a block reads the aligned float4s that
// cover its 64 columns (17 of them when the row is misaligned: the first and last are shared with the
// neighbouring blocks and come from L2); the shift of row i, t_i = (address of element (i, c0) / 4) mod 4,
// is where the block's first column sits inside its first float4, and the row goes to shared memory
// shifted by it. On the output side the share of output row j is moved instead: the block owns, of
// output row j, the 64 elements that start s_j = (address of element (j, r0) / 4) mod 4 before its
// first row r0, so that they are 16 aligned float4s and the blocks above and below own the float4s on
// either side; the input rows r0 − 3 .. r0 − 1 that this needs are loaded as a halo (4 rows, from L2:
// the block above read them as its last). Every global load and store is then a whole aligned float4,
// a warp instruction moves 512 bytes of whole sectors, and a thread has four 16-byte loads in flight
// (64 bytes, four times step 3's). Only the first and last float4 of the whole buffer and of each
// output row can be partial; those are moved one float at a time.
//
// When a row length is a multiple of 4 (4096, 7000, 6000), every shift is 0 and the halo and the 17th
// float4 are skipped: the same kernel is then a plain 64 × 64 tile with float4 accesses.
//
// Shared memory: 68 rows of 69 floats (odd, so that the column reads of the store phase spread over
// the banks; they and the row writes meet at most two lanes per bank); 18.8 KB, eight blocks per SM.
//
// Measured on an H100 80GB HBM3 (2026-12-05, `bin/judge transpose` of steps 03 and 04, cuBLAS geam timed
// in the same run): ragged_8191x4097 112.0 us against step 3's 140.3 (99.8% of geam against 79.7%),
// square_4096 43.0 us (105.5%), leetgpu_7000x6000 118.2 us (101.8%, step 3 101.7%).
//
// Verdict: accepted.
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int tile = 64;                   // input rows and columns per block
constexpr int halo = 4;                    // input rows above the tile, for the output's shifted shares
constexpr int groups = tile / 4;           // float4s per tile row
constexpr int threads = 256;
constexpr int row_step = threads / groups; // 16 rows per pass: 16 lanes per row, two rows per warp
constexpr int pitch = tile + 5;            // 69: holds 17 float4s (68 floats) and is odd

// (address / 4) mod 4 of a float pointer: where it sits inside its 16-byte word.
__device__ __forceinline__ unsigned phase_of(const float* p) {
  return static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(p) >> 2) & 3u;
}

// Loads the aligned float4 that starts at linear index `at` (possibly before 0 or running past `total`:
// then only the elements inside the buffer, one by one) into shared memory at `dst`.
__device__ __forceinline__ void load_group(const float* __restrict__ input, int at, int total,
                                           float* dst) {
  if (at >= 0 && at + 4 <= total) {
    const float4 v = __ldg(reinterpret_cast<const float4*>(input + at));
    dst[0] = v.x;
    dst[1] = v.y;
    dst[2] = v.z;
    dst[3] = v.w;
  } else {
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (at + k >= 0 && at + k < total) dst[k] = input[at + k];
  }
}

__global__ void __launch_bounds__(threads, 8)
    transpose_float4_memory_grid(const float* __restrict__ input, float* __restrict__ output, int rows, int cols,
                                 bool shifted_rows, bool shifted_cols) {
  __shared__ float buffer[tile + halo][pitch];

  const int c0 = blockIdx.x * tile; // first input column = first output row of the block
  const int r0 = blockIdx.y * tile; // input row at the tile's row `halo` in shared memory
  const int g = threadIdx.x % groups;
  const int sub = threadIdx.x / groups;
  const int total = rows * cols; // at most 8192 · 8192 = 2^26 under the problem's limits
  const unsigned in_phase = phase_of(input);
  const unsigned out_phase = phase_of(output);

  // Input row i's shift: element (i, c0) is float t_i of its aligned float4.
  auto shift_of_row = [&](int i) { return (in_phase + static_cast<unsigned>(i) * cols + c0) & 3u; };

  // Tile rows: the block's 64 input rows, four float4s per thread issued before any is stored.
  float4 v[tile / row_step];
  bool whole[tile / row_step];
  int at[tile / row_step];
#pragma unroll
  for (int p = 0; p < tile / row_step; ++p) {
    const int i = r0 + sub + p * row_step;
    at[p] = i * cols + c0 - static_cast<int>(shift_of_row(i)) + 4 * g;
    whole[p] = i < rows && at[p] >= 0 && at[p] + 4 <= total;
    if (whole[p]) v[p] = __ldg(reinterpret_cast<const float4*>(input + at[p]));
  }
#pragma unroll
  for (int p = 0; p < tile / row_step; ++p) {
    const int i = r0 + sub + p * row_step;
    float* dst = &buffer[halo + sub + p * row_step][4 * g];
    if (whole[p]) {
      dst[0] = v[p].x;
      dst[1] = v[p].y;
      dst[2] = v[p].z;
      dst[3] = v[p].w;
    } else if (i < rows) {
      load_group(input, at[p], total, dst); // the buffer's first or last float4
    }
  }
  // The 17th float4 of each row, needed only where input rows are misaligned (one thread per row; the
  // halo rows only when they are used).
  if (shifted_cols && threadIdx.x < tile + halo && (shifted_rows || threadIdx.x >= halo)) {
    const int i = r0 - halo + static_cast<int>(threadIdx.x);
    if (i >= 0 && i < rows) {
      const int a = i * cols + c0 - static_cast<int>(shift_of_row(i)) + 4 * groups;
      load_group(input, a, total, &buffer[threadIdx.x][4 * groups]);
    }
  }
  // The halo rows r0 − 4 .. r0 − 1, needed only where output rows are misaligned.
  if (shifted_rows && threadIdx.x < halo * groups) {
    const int i = r0 - halo + sub;
    if (i >= 0 && i < rows) {
      const int a = i * cols + c0 - static_cast<int>(shift_of_row(i)) + 4 * g;
      load_group(input, a, total, &buffer[sub][4 * g]);
    }
  }

  __syncthreads();

  // Output rows c0 + sub + 16p; this thread's float4 covers output columns (input rows)
  // r0 − s_j + 4g .. + 3.
#pragma unroll
  for (int p = 0; p < tile / row_step; ++p) {
    const int j = c0 + sub + p * row_step;
    if (j >= cols) break;
    const int s = static_cast<int>((out_phase + static_cast<unsigned>(j) * rows) & 3u);
    const int first = r0 - s + 4 * g;
    float e[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const int i = first + k;
      // Unused when i is outside [0, rows); the index stays inside the buffer either way.
      e[k] = buffer[i - r0 + halo][j - c0 + static_cast<int>(shift_of_row(i))];
    }
    float* dst = output + j * rows + first;
    if (first >= 0 && first + 4 <= rows) {
      *reinterpret_cast<float4*>(dst) = make_float4(e[0], e[1], e[2], e[3]);
    } else {
#pragma unroll
      for (int k = 0; k < 4; ++k)
        if (first + k >= 0 && first + k < rows) dst[k] = e[k];
    }
  }
}

} // namespace

extern "C" void solve(const float* input, float* output, int rows, int cols) {
  const unsigned in_phase = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(input) >> 2) & 3u;
  const unsigned out_phase = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(output) >> 2) & 3u;
  // An input row's shift is 0 for every row when rows are whole float4s and the buffer starts on one;
  // the same for output rows.
  const bool shifted_cols = cols % 4 != 0 || in_phase != 0;
  const bool shifted_rows = rows % 4 != 0 || out_phase != 0;
  // With shifted output rows the last block must reach rows − 1 from r0 − 3: one more tile when rows is
  // within 3 of a multiple of 64 above it.
  const int row_tiles = (rows + (shifted_rows ? 3 : 0) + tile - 1) / tile;
  const dim3 grid((cols + tile - 1) / tile, row_tiles);
  transpose_float4_memory_grid<<<grid, threads>>>(input, output, rows, cols, shifted_rows, shifted_cols);
  cudaDeviceSynchronize();
}
