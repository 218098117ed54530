// Ladder step 6: double buffering, so that the next tile's loads overlap this tile's arithmetic.
//
// What it teaches: hiding memory latency inside a block. Step 5 loads a tile, waits at a barrier,
// computes, waits again, and only then starts the next loads: while a tile travels from memory every
// warp of the block sits idle, and with 64×64 tiles there are only 1–2 blocks per SM to cover for it.
// Here each thread first issues its loads of the NEXT tile into registers, then does the 16 × 16
// multiply-adds of the current tile from shared memory while those loads are in flight, and only then
// writes them into the second copy of the tiles. Two copies of each tile mean one barrier per step
// instead of two: a thread writing copy b^1 knows every thread is done reading it, because they all
// passed this step's barrier after reading it in the previous step. The same tile shape, thread shape
// and aligned/scalar split as step 5; 16 KB of shared memory instead of 8 KB.
//
// Measured on the H200 (bench: cudaEvent around the kernel, L2 flushed by a 256 MB read before each of
// 200 samples, median; cuBLAS strict FP32 in the same run: 32.3 µs and 34.5 µs):
//   1024×512×1024:  step 5 59.3 µs (54.5% of cuBLAS)  ->  this step 42.8 µs (75.5%)
//   1001×513×777:   step 5 59.8 µs (57.7%)            ->  this step 49.5 µs (69.6%)
// The ragged shape gains less (not profiled; likely its scalar loads, 4 instructions per group of 4
// values, which still sit between two barriers). The next steps change the arithmetic itself (tensor cores, step 7).
//
// Verdict: accepted.
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int tile_rows = 64;
constexpr int tile_cols = 64;
constexpr int tile_inner = 16;
constexpr int thread_rows = 4;
constexpr int thread_cols = 4;
constexpr int threads_x = tile_cols / thread_cols;
constexpr int threads = (tile_rows / thread_rows) * threads_x; // 256
constexpr int a_groups = tile_rows * tile_inner / 4 / threads; // groups of 4 of A each thread loads: 1
constexpr int b_groups = tile_inner * tile_cols / 4 / threads; // and of B: 1

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

__device__ void unpack(float4 x, float* out) {
  out[0] = x.x;
  out[1] = x.y;
  out[2] = x.z;
  out[3] = x.w;
}

} // namespace

__global__ void __launch_bounds__(threads)
    matmul_double_buffered(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M,
                           int N, int K, bool a_vec, bool b_vec, bool c_vec) {
  // Two copies of each tile: the block computes from one while the next step's values are written to the other.
  __shared__ __align__(16) float a_tile[2][tile_inner][tile_rows]; // transposed, as in step 5
  __shared__ __align__(16) float b_tile[2][tile_inner][tile_cols];

  const int t = threadIdx.x;
  const int row0 = blockIdx.y * tile_rows;
  const int col0 = blockIdx.x * tile_cols;
  const int first_row = (t / threads_x) * thread_rows;
  const int first_col = (t % threads_x) * thread_cols;

  // The values of the next step in flight, held in registers until the current step's arithmetic is issued.
  float4 a_next[a_groups];
  float4 b_next[b_groups];
  auto fetch = [&](int p0) {
    for (int u = 0; u < a_groups; ++u) {
      const int g = t + u * threads;
      const int i = row0 + g / (tile_inner / 4);
      const int q = p0 + (g % (tile_inner / 4)) * 4;
      float4 x;
      if (a_vec && i < M && q + 3 < N) {
        x = *reinterpret_cast<const float4*>(A + i * N + q);
      } else {
        x.x = (i < M && q + 0 < N) ? A[i * N + q + 0] : 0.0f;
        x.y = (i < M && q + 1 < N) ? A[i * N + q + 1] : 0.0f;
        x.z = (i < M && q + 2 < N) ? A[i * N + q + 2] : 0.0f;
        x.w = (i < M && q + 3 < N) ? A[i * N + q + 3] : 0.0f;
      }
      a_next[u] = x;
    }
    for (int u = 0; u < b_groups; ++u) {
      const int g = t + u * threads;
      const int q = p0 + g / (tile_cols / 4);
      const int j = col0 + (g % (tile_cols / 4)) * 4;
      float4 x;
      if (b_vec && q < N && j + 3 < K) {
        x = *reinterpret_cast<const float4*>(B + q * K + j);
      } else {
        x.x = (q < N && j + 0 < K) ? B[q * K + j + 0] : 0.0f;
        x.y = (q < N && j + 1 < K) ? B[q * K + j + 1] : 0.0f;
        x.z = (q < N && j + 2 < K) ? B[q * K + j + 2] : 0.0f;
        x.w = (q < N && j + 3 < K) ? B[q * K + j + 3] : 0.0f;
      }
      b_next[u] = x;
    }
  };
  auto store = [&](int buf) {
    for (int u = 0; u < a_groups; ++u) {
      const int g = t + u * threads;
      const int r = g / (tile_inner / 4);
      const int p = (g % (tile_inner / 4)) * 4;
      float v[4];
      unpack(a_next[u], v);
      for (int e = 0; e < 4; ++e) a_tile[buf][p + e][r] = v[e];
    }
    for (int u = 0; u < b_groups; ++u) {
      const int g = t + u * threads;
      const int p = g / (tile_cols / 4);
      const int c = (g % (tile_cols / 4)) * 4;
      *reinterpret_cast<float4*>(&b_tile[buf][p][c]) = b_next[u];
    }
  };

  float acc[thread_rows][thread_cols] = {};
  fetch(0);
  store(0);
  int buf = 0;
  for (int p0 = 0; p0 < N; p0 += tile_inner) {
    __syncthreads(); // tile `buf` is complete, and every thread is done reading the other one
    const bool more = p0 + tile_inner < N;
    if (more) fetch(p0 + tile_inner); // loads issued now, used only after the arithmetic below

    for (int p = 0; p < tile_inner; ++p) {
      float a[thread_rows];
      float b[thread_cols];
      unpack(*reinterpret_cast<const float4*>(&a_tile[buf][p][first_row]), a);
      unpack(*reinterpret_cast<const float4*>(&b_tile[buf][p][first_col]), b);
      for (int m = 0; m < thread_rows; ++m)
        for (int n = 0; n < thread_cols; ++n) acc[m][n] += a[m] * b[n];
    }
    if (more) store(buf ^ 1);
    buf ^= 1;
  }

  for (int m = 0; m < thread_rows; ++m) {
    const int i = row0 + first_row + m;
    if (i >= M) break;
    const int j = col0 + first_col;
    if (c_vec && j + 3 < K) {
      *reinterpret_cast<float4*>(C + i * K + j) = make_float4(acc[m][0], acc[m][1], acc[m][2], acc[m][3]);
    } else {
      for (int e = 0; e < 4; ++e)
        if (j + e < K) C[i * K + j + e] = acc[m][e];
    }
  }
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  const bool a_vec = N % 4 == 0 && aligned16(A);
  const bool b_vec = K % 4 == 0 && aligned16(B);
  const bool c_vec = K % 4 == 0 && aligned16(C);
  const dim3 grid((K + tile_cols - 1) / tile_cols, (M + tile_rows - 1) / tile_rows);
  matmul_double_buffered<<<grid, threads>>>(A, B, C, M, N, K, a_vec, b_vec, c_vec);
  cudaDeviceSynchronize();
}
