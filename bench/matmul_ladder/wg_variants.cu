// step9_wgmma.cu's kernel in other shapes (w_: warpgroups of 64 rows, tile width, split-K, blocks per SM),
// and the same wgmmas fed by cp.async (ws_).
#define solve solve_09w
#include "step9_wgmma.cu"
#undef solve
#define W(name, ...)                                                                                                   \
  extern "C" void name(const float* A, const float* B, float* C, int M, int N, int K) {                                \
    launch<__VA_ARGS__>(A, B, C, M, N, K);                                                                             \
  }
W(w_128x128_k1, 2, 128, 1, 1)
W(w_128x128_k2, 2, 128, 2, 1)
W(w_128x64_k1, 2, 64, 1, 1)
W(w_128x64_k2_b2, 2, 64, 2, 2)
W(w_64x128_k2_b2, 1, 128, 2, 2)
W(w_64x64_k2_b2, 1, 64, 2, 2)
W(w_64x112_k2_b2, 1, 112, 2, 2)
W(w_128x112_k2, 2, 112, 2, 1)

// The same wgmmas fed differently: raw FP32 tiles arrive by cp.async, Stages - 1 steps ahead (no
// registers held across the wgmmas), and each step first splits its raw tile into the big and small
// K-major tiles (shared memory to shared memory), then runs its wgmmas. Vec: 16-byte copies (rows a
// multiple of 4 floats), else 4-byte ones.
namespace {
__device__ __forceinline__ void cp_async(void* dst, const float* src, bool valid, int bytes) {
  const auto d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  if (bytes == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(d), "l"(src), "r"(valid ? 16 : 0));
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(d), "l"(src), "r"(valid ? 4 : 0));
}
__device__ __forceinline__ void cp_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int N> __device__ __forceinline__ void cp_wait() { asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory"); }

template <int WarpGroups, int TileN, int SplitK, int Stages, bool Vec>
__global__ void __cluster_dims__(1, 1, SplitK) __launch_bounds__(128 * WarpGroups, 1)
    matmul_staged(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N,
                  int K, bool c_vec) {
  constexpr int threads = 128 * WarpGroups, TileM = 64 * WarpGroups;
  constexpr int a_stride = tile_inner + 4, b_stride = TileN + 8; // raw rows, padded against bank conflicts
  constexpr int a_raw = TileM * a_stride, b_raw = tile_inner * b_stride, raw_words = a_raw + b_raw;
  constexpr int a_words = TileM * tile_inner, b_words = TileN * tile_inner;
  extern __shared__ __align__(128) std::uint32_t smem[];
  std::uint32_t* split = smem + Stages * raw_words; // big A, small A, big B, small B
  float* raw = reinterpret_cast<float*>(smem);

  const int t = threadIdx.x, lane = t % 32, warp = t / 32;
  const int row0 = blockIdx.y * TileM, col0 = blockIdx.x * TileN;
  const int steps_all = (N + tile_inner - 1) / tile_inner;
  const int steps_each = (steps_all + SplitK - 1) / SplitK;
  const int step_first = static_cast<int>(blockIdx.z) * steps_each;
  const int steps = max(0, min(steps_all, step_first + steps_each) - step_first);
  constexpr int w = Vec ? 4 : 1; // floats per copy

  const auto issue = [&](int step) {
    float* ra = raw + (step % Stages) * raw_words;
    float* rb = ra + a_raw;
    const int p0 = (step_first + step) * tile_inner;
#pragma unroll
    for (int e = t; e < TileM * tile_inner / w; e += threads) {
      const int r = e / (tile_inner / w), c = e % (tile_inner / w) * w;
      const int gr = row0 + r, gc = p0 + c;
      const bool ok = gr < M && gc < N;
      cp_async(ra + r * a_stride + c, ok ? A + static_cast<std::size_t>(gr) * N + gc : A, ok, 4 * w);
    }
#pragma unroll
    for (int e = t; e < tile_inner * TileN / w; e += threads) {
      const int p = e / (TileN / w), n = e % (TileN / w) * w;
      const int gp = p0 + p, gn = col0 + n;
      const bool ok = gp < N && gn < K;
      cp_async(rb + p * b_stride + n, ok ? B + static_cast<std::size_t>(gp) * K + gn : B, ok, 4 * w);
    }
  };

  float acc[TileN / 2], part[TileN / 2];
#pragma unroll
  for (int v = 0; v < TileN / 2; ++v) acc[v] = 0.0f;
#pragma unroll
  for (int s = 0; s < Stages - 1; ++s) {
    if (s < steps) issue(s);
    cp_commit();
  }
  const int group = t / 128;
  for (int s = 0; s < steps; ++s) {
    cp_wait<Stages - 2>();
    __syncthreads(); // raw tile s is in for every thread; the wgmmas of step s - 1 are done
    const float* ra = raw + (s % Stages) * raw_words;
    const float* rb = ra + a_raw;
    // Each lane writes one element of a core matrix: 8 rows × 4 inner values, 32 lanes.
#pragma unroll
    for (int i = 0; i < a_words / threads; ++i) {
      const int core = warp + i * (threads / 32); // core matrices: TileM/8 row groups × 8 along inner
      const int r = core / 8 * 8 + lane / 4, c = core % 8 * 4 + lane % 4;
      const int wd = tile_word(r, c);
      split_tf32(ra[r * a_stride + c], split[wd], split[a_words + wd]);
    }
#pragma unroll
    for (int i = 0; i < b_words / threads; ++i) {
      const int core = warp + i * (threads / 32);
      const int n = core / 8 * 8 + lane / 4, p = core % 8 * 4 + lane % 4;
      const int wd = tile_word(n, p);
      split_tf32(rb[p * b_stride + n], split[2 * a_words + wd], split[2 * a_words + b_words + wd]);
    }
    stores_to_tensor_cores();
    __syncthreads();
    if (s + Stages - 1 < steps) issue(s + Stages - 1);
    cp_commit();
    const std::uint64_t a_big = descriptor(split + group * 64 / 8 * (row_group_bytes / 4));
    const std::uint64_t a_small = descriptor(split + a_words + group * 64 / 8 * (row_group_bytes / 4));
    const std::uint64_t b_big = descriptor(split + 2 * a_words);
    const std::uint64_t b_small = descriptor(split + 2 * a_words + b_words);
#pragma unroll
    for (int v = 0; v < TileN / 2; ++v) part[v] = 0.0f;
    wgmma_fence();
#pragma unroll
    for (int k = 0; k < tile_inner / 8; ++k) {
      const std::uint64_t at = static_cast<std::uint64_t>(k) * (2 * core_bytes >> 4);
      wgmma<TileN>(part, a_small + at, b_big + at);
      wgmma<TileN>(part, a_big + at, b_small + at);
      wgmma<TileN>(part, a_big + at, b_big + at);
    }
    wgmma_commit();
    wgmma_wait_all();
#pragma unroll
    for (int v = 0; v < TileN / 2; ++v) acc[v] += part[v];
  }
  cp_wait<0>();
  __syncthreads();

  if constexpr (SplitK > 1) {
    cg::cluster_group cluster = cg::this_cluster();
    float* swap = reinterpret_cast<float*>(smem);
    if (cluster.block_rank() != 0) {
#pragma unroll
      for (int v = 0; v < TileN / 2; ++v) swap[v * threads + t] = acc[v];
    }
    cluster.sync();
    if (cluster.block_rank() == 0) {
      const float* theirs = cluster.map_shared_rank(swap, 1);
#pragma unroll
      for (int v = 0; v < TileN / 2; ++v) acc[v] += theirs[v * threads + t];
    }
    cluster.sync();
    if (cluster.block_rank() != 0) return;
  }
  const int row_base = row0 + group * 64 + (warp % 4) * 16 + lane / 4;
  const int col_base = col0 + 2 * (lane % 4);
#pragma unroll
  for (int n8 = 0; n8 < TileN / 8; ++n8)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int i = row_base + 8 * h, j = col_base + 8 * n8;
      if (i >= M) continue;
      const float x = acc[4 * n8 + 2 * h], y = acc[4 * n8 + 2 * h + 1];
      float* out = C + static_cast<std::size_t>(i) * K + j;
      if (c_vec && j + 1 < K) {
        *reinterpret_cast<float2*>(out) = make_float2(x, y);
      } else {
        if (j < K) out[0] = x;
        if (j + 1 < K) out[1] = y;
      }
    }
}

template <int WarpGroups, int TileN, int SplitK, int Stages>
void launch_staged(const float* A, const float* B, float* C, int M, int N, int K) {
  constexpr int TileM = 64 * WarpGroups;
  constexpr int raw_words = TileM * (tile_inner + 4) + tile_inner * (TileN + 8);
  constexpr int smem_bytes = 4 * (Stages * raw_words + 2 * (TileM + TileN) * tile_inner);
  static_assert(smem_bytes <= 227 * 1024);
  const bool vec = N % 4 == 0 && K % 4 == 0 && reinterpret_cast<std::uintptr_t>(A) % 16 == 0 &&
                   reinterpret_cast<std::uintptr_t>(B) % 16 == 0;
  const bool c_vec = K % 2 == 0 && reinterpret_cast<std::uintptr_t>(C) % 8 == 0;
  const dim3 grid((K + TileN - 1) / TileN, (M + TileM - 1) / TileM, SplitK);
  if (vec) {
    auto kernel = matmul_staged<WarpGroups, TileN, SplitK, Stages, true>;
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes);
    kernel<<<grid, 128 * WarpGroups, smem_bytes>>>(A, B, C, M, N, K, c_vec);
  } else {
    auto kernel = matmul_staged<WarpGroups, TileN, SplitK, Stages, false>;
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes);
    kernel<<<grid, 128 * WarpGroups, smem_bytes>>>(A, B, C, M, N, K, c_vec);
  }
}
} // namespace
#define S(name, ...)                                                                                                   \
  extern "C" void name(const float* A, const float* B, float* C, int M, int N, int K) {                                \
    launch_staged<__VA_ARGS__>(A, B, C, M, N, K);                                                                      \
  }
S(ws_128x128_k2_s3, 2, 128, 2, 3)
S(ws_128x64_k2_s4, 2, 64, 2, 4)
S(ws_128x64_k1_s4, 2, 64, 1, 4)
S(ws_64x128_k2_s4, 1, 128, 2, 4)
S(ws_128x112_k2_s3, 2, 112, 2, 3)
