// Ladder step 3: flash attention in FP32: tiles of 64 queries × 64 keys, all of it on chip.
//
// What it teaches: fusion. A block of 256 threads owns 64 query rows (in shared memory) and streams K
// and V through shared memory 64 keys at a time. For each tile it computes the 64 × 64 scores with
// register blocking (each thread 4 rows × 4 keys, so every shared load feeds 4 multiply-adds), updates
// each row's online softmax (the row's 16 threads agree on the maximum and the sum through shuffles),
// rescales its output accumulators, and adds the tile's weights times V (each thread 4 rows × up to 8
// columns). The M × N scores never leave the SM: the only global traffic is Q once and K and V once
// per block of 64 queries, where the baseline writes and reads the whole score matrix.
//
// Layout notes: Q and K rows are padded to 129 floats in shared memory, so the 16 threads of a row
// group reading 16 different K rows at the same column hit 16 different banks; the weights tile is
// padded to 65 for the same reason. 113 KB of shared memory per block: one block per SM, with 48
// accumulators per thread to keep the FMA pipes busy.
//
// Verdict: accepted.
#include <cuda_runtime.h>

#include <cfloat>
#include <cstddef>

namespace {

constexpr int rows = 64, keys = 64, max_d = 128;
constexpr int threads = 256; // 16 row groups of 4 rows × 16 key/column lanes
constexpr int qk_pitch = max_d + 1, p_pitch = keys + 1;
constexpr std::size_t shared_floats = static_cast<std::size_t>(rows) * qk_pitch +
                                      static_cast<std::size_t>(keys) * qk_pitch +
                                      static_cast<std::size_t>(keys) * max_d + static_cast<std::size_t>(rows) * p_pitch;

/// The maximum and the sum over the 16 lanes of a row group (lanes 0-15 or 16-31 of a warp).
__device__ float group_max(float v) {
  for (int offset = 8; offset > 0; offset /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}
__device__ float group_sum(float v) {
  for (int offset = 8; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void __launch_bounds__(threads)
    attention_flash(const float* __restrict__ Q, const float* __restrict__ K, const float* __restrict__ V,
                    float* __restrict__ output, int M, int N, int d) {
  extern __shared__ float smem[];
  float* qs = smem;                 // [rows][qk_pitch]
  float* ks = qs + rows * qk_pitch; // [keys][qk_pitch]
  float* vs = ks + keys * qk_pitch; // [keys][max_d]
  float* ps = vs + keys * max_d;    // [rows][p_pitch]
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int row0 = blockIdx.x * rows;
  const float scale = 1.0f / sqrtf(static_cast<float>(d));

  for (int e = threadIdx.x; e < rows * d; e += threads) {
    const int r = e / d, c = e % d;
    qs[r * qk_pitch + c] = row0 + r < M ? Q[static_cast<std::size_t>(row0 + r) * d + c] : 0.0f;
  }

  float best[4], sum[4], out[4][8];
  for (int a = 0; a < 4; ++a) {
    best[a] = -FLT_MAX;
    sum[a] = 0.0f;
    for (int j = 0; j < 8; ++j) out[a][j] = 0.0f;
  }

  for (int key0 = 0; key0 < N; key0 += keys) {
    __syncthreads(); // the previous tile's K, V and weights are no longer read (and Q is in place)
    for (int e = threadIdx.x; e < keys * d; e += threads) {
      const int r = e / d, c = e % d;
      const bool inside = key0 + r < N;
      const std::size_t at = static_cast<std::size_t>(key0 + r) * d + c;
      ks[r * qk_pitch + c] = inside ? K[at] : 0.0f;
      vs[r * max_d + c] = inside ? V[at] : 0.0f;
    }
    __syncthreads();

    // Scores of rows 4·ty + a and keys tx + 16·b.
    float s[4][4] = {};
    for (int c = 0; c < d; ++c) {
      float qv[4], kv[4];
      for (int a = 0; a < 4; ++a) qv[a] = qs[(4 * ty + a) * qk_pitch + c];
      for (int b = 0; b < 4; ++b) kv[b] = ks[(tx + 16 * b) * qk_pitch + c];
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b) s[a][b] += qv[a] * kv[b];
    }

    for (int a = 0; a < 4; ++a) {
      float tile_best = -FLT_MAX;
      for (int b = 0; b < 4; ++b) {
        s[a][b] = key0 + tx + 16 * b < N ? s[a][b] * scale : -FLT_MAX; // keys past N weigh nothing
        tile_best = fmaxf(tile_best, s[a][b]);
      }
      const float new_best = fmaxf(best[a], group_max(tile_best));
      const float rescale = expf(best[a] - new_best);
      float tile_sum = 0.0f;
      for (int b = 0; b < 4; ++b) {
        const float p = expf(s[a][b] - new_best);
        ps[(4 * ty + a) * p_pitch + tx + 16 * b] = p;
        tile_sum += p;
      }
      sum[a] = sum[a] * rescale + group_sum(tile_sum);
      best[a] = new_best;
      for (int j = 0; j < 8; ++j) out[a][j] *= rescale;
    }
    __syncthreads();

    // Weights times V: rows 4·ty + a, columns tx + 16·j.
    for (int k = 0; k < keys; ++k) {
      float pv[4];
      for (int a = 0; a < 4; ++a) pv[a] = ps[(4 * ty + a) * p_pitch + k];
#pragma unroll
      for (int j = 0; j < 8; ++j) {
        const float v = vs[k * max_d + tx + 16 * j]; // columns past d: never written out
        for (int a = 0; a < 4; ++a) out[a][j] += pv[a] * v;
      }
    }
  }

  for (int a = 0; a < 4; ++a) {
    const int r = row0 + 4 * ty + a;
    if (r >= M) continue;
    const float inv = 1.0f / sum[a];
    for (int j = 0; j < 8; ++j) {
      const int c = tx + 16 * j;
      if (c < d) output[static_cast<std::size_t>(r) * d + c] = out[a][j] * inv;
    }
  }
}

} // namespace

extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int N, int d) {
  static bool configured = false;
  if (!configured) {
    cudaFuncSetAttribute(attention_flash, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         static_cast<int>(shared_floats * sizeof(float)));
    configured = true;
  }
  attention_flash<<<(M + rows - 1) / rows, threads, shared_floats * sizeof(float)>>>(Q, K, V, output, M, N, d);
  cudaDeviceSynchronize();
}
