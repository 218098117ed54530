// GPU reference of matmul, run inside the runner to check the outputs of timed calls: C = A·B with
// double accumulation, rounded to float once at the end. It runs on the FP64 tensor cores (DMMA,
// mma.m8n8k4 with .f64 operands): a float widened to double makes every product exact, and DMMA adds in
// FP64, so the result equals an FP64 reference up to the order of summation. It runs after every timed
// sample, so its cost is the judge's: in a class of 30 matmul students on an H100 the GPU reference's
// share of the grading went from 4.20 s (FP64 FMAs on the CUDA cores, the kernel this one replaced) to
// 2.99 s. Its outputs agreed with that kernel's, and with a CPU double loop where one was run, within one
// float ulp in every element of twelve shapes from 1 × 1 × 1 to 256 × 6144 × 4096, built for sm_90 and
// as compute_75 PTX (the fallback below), with nothing written past C.
// Trusted code: it sees every shape the judge can send, so every load and store is guarded. Its kernel's
// name starts with judge_reference_ (and is not mangled) so that it can be told apart from the solution's
// kernels.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

// A 64×64 tile of C per block of 4 warps, each warp a 32×32 quarter of it: 4×4 fragments of 8×8.
// The instruction's m, n and k are this problem's M, K and N (N is the inner dimension here).
constexpr int tile_rows = 64;  // along M
constexpr int tile_cols = 64;  // along K
constexpr int tile_inner = 16; // along N, per shared-memory stage
constexpr int warps_along_cols = 2;
constexpr int warps = 4;
constexpr int threads = warps * 32;
constexpr int warp_rows = tile_rows / (warps / warps_along_cols); // 32
constexpr int warp_cols = tile_cols / warps_along_cols;           // 32
constexpr int frag = 8;       // rows and columns of one fragment of C
constexpr int frag_inner = 4; // inner extent of one instruction
constexpr int frags_down = warp_rows / frag;
constexpr int frags_across = warp_cols / frag;

// Row strides of the shared tiles, in doubles. A warp's 64-bit accesses are served half a warp at a time;
// a stride of 4 mod 16 doubles puts the 4×4 (row, inner) pairs a half-warp reads for a fragment of A, and
// the 4×4 (inner, column) pairs it reads for one of B, in 16 different bank pairs.
constexpr int a_stride = tile_inner + 4;
constexpr int b_stride = tile_cols + 4;

// Staging: each thread keeps one inner index of A (rows a step apart) and one column of B (inner indices a
// step apart), so that consecutive threads read consecutive addresses of both matrices.
constexpr int a_loads = tile_rows * tile_inner / threads;
constexpr int b_loads = tile_inner * tile_cols / threads;
constexpr int a_row_step = threads / tile_inner;
constexpr int b_inner_step = threads / tile_cols;

static_assert(warp_rows % frag == 0 && warp_cols % frag == 0 && tile_inner % frag_inner == 0);
static_assert(threads % tile_inner == 0 && threads % tile_cols == 0);
static_assert(a_stride % 16 == 4 && b_stride % 16 == 4);

/// d += a·b for one 8×8 fragment, in the lane layout of mma.m8n8k4.row.col.f64: lane l holds A[l/4][l%4],
/// B[l%4][l/4], and D[l/4][2·(l%4)] and D[l/4][2·(l%4) + 1].
__device__ __forceinline__ void mma_8x8x4(double (&d)[2], double a, double b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  // No FP64 tensor cores before sm_80: the same fragment from FP64 FMAs, gathering each lane's row of A
  // and two columns of B from the lanes that hold them, so that builds for older GPUs stay correct.
  const int lane = threadIdx.x % 32;
  for (int p = 0; p < frag_inner; ++p) {
    const double ap = __shfl_sync(0xffffffffu, a, (lane & ~3) | p);
    const double b0 = __shfl_sync(0xffffffffu, b, (lane % 4) * 8 + p);
    const double b1 = __shfl_sync(0xffffffffu, b, (lane % 4) * 8 + 4 + p);
    d[0] = fma(ap, b0, d[0]);
    d[1] = fma(ap, b1, d[1]);
  }
#else
  asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
      : "+d"(d[0]), "+d"(d[1])
      : "d"(a), "d"(b));
#endif
}

} // namespace

extern "C" __global__ void __launch_bounds__(threads)
    judge_reference_matmul(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M,
                           int N, int K) {
  // Stored as double: converting once on the way in is cheaper than converting on every use. Two stages,
  // so that the next stage's global loads are in flight while the tensor cores work on this one, with one
  // barrier per stage.
  __shared__ double a_tile[2][tile_rows][a_stride];
  __shared__ double b_tile[2][tile_inner][b_stride];

  const int thread = threadIdx.x;
  const int lane = thread % 32;
  const int warp = thread / 32;
  const int col0 = blockIdx.x * tile_cols;

  const int a_inner = thread % tile_inner;
  const int a_row = thread / tile_inner;
  const int b_col = thread % tile_cols;
  const int b_inner = thread / tile_cols;

  // The grid's y dimension holds at most 65,535 blocks: a block goes on down C's rows in steps of the grid
  // (M past 4,194,240 rows). Each pass ends at a barrier, so the next one's first stores find the tiles free.
  for (long long first_row = blockIdx.y * tile_rows; first_row < M; first_row += gridDim.y * tile_rows) {
    const int row0 = static_cast<int>(first_row);
    // Loaded as float into registers, widened to double (exactly) when stored to shared memory; whatever
    // lies outside the matrices is zero, so the tail stage and the edge tiles add nothing.
    float a_next[a_loads];
    float b_next[b_loads];
    const auto load = [&](int p0) {
      const int q = p0 + a_inner;
      for (int l = 0; l < a_loads; ++l) {
        const int i = row0 + a_row + l * a_row_step;
        a_next[l] = (i < M && q < N) ? A[static_cast<std::size_t>(i) * N + q] : 0.0f;
      }
      const int j = col0 + b_col;
      for (int l = 0; l < b_loads; ++l) {
        const int p = p0 + b_inner + l * b_inner_step;
        b_next[l] = (p < N && j < K) ? B[static_cast<std::size_t>(p) * K + j] : 0.0f;
      }
    };
    const auto store = [&](int stage) {
      for (int l = 0; l < a_loads; ++l) a_tile[stage][a_row + l * a_row_step][a_inner] = a_next[l];
      for (int l = 0; l < b_loads; ++l) b_tile[stage][b_inner + l * b_inner_step][b_col] = b_next[l];
    };

    // This warp's quarter of the tile, and the fragment coordinates of this lane within it.
    const int warp_row0 = (warp / warps_along_cols) * warp_rows;
    const int warp_col0 = (warp % warps_along_cols) * warp_cols;
    const int group = lane / 4;
    const int in_group = lane % 4;

    double acc[frags_down][frags_across][2] = {};
    const int stages = (N + tile_inner - 1) / tile_inner;
    load(0);
    store(0);
    __syncthreads();
    for (int s = 0; s < stages; ++s) {
      const int stage = s % 2;
      const bool more = s + 1 < stages;
      if (more) load((s + 1) * tile_inner);
      for (int p = 0; p < tile_inner; p += frag_inner) {
        double a[frags_down];
        double b[frags_across];
        for (int f = 0; f < frags_down; ++f) a[f] = a_tile[stage][warp_row0 + f * frag + group][p + in_group];
        for (int f = 0; f < frags_across; ++f) b[f] = b_tile[stage][p + in_group][warp_col0 + f * frag + group];
        for (int r = 0; r < frags_down; ++r)
          for (int c = 0; c < frags_across; ++c) mma_8x8x4(acc[r][c], a[r], b[c]);
      }
      // The other stage was last read before the previous barrier, so it can be refilled now; the barrier
      // below both publishes it and keeps this stage from being overwritten while a warp still reads it.
      if (more) store(1 - stage);
      __syncthreads();
    }

    for (int r = 0; r < frags_down; ++r) {
      const int i = row0 + warp_row0 + r * frag + group;
      if (i >= M) break;
      for (int c = 0; c < frags_across; ++c) {
        const int j = col0 + warp_col0 + c * frag + 2 * in_group;
        float* const out = C + static_cast<std::size_t>(i) * K;
        if (j < K) out[j] = static_cast<float>(acc[r][c][0]);
        if (j + 1 < K) out[j + 1] = static_cast<float>(acc[r][c][1]);
      }
    }
  }
}

/// The harness's entry point: buffers in signature order (A, B, C), sizes in signature order (M, N, K).
/// Launches on the legacy default stream and returns; the harness synchronises.
extern "C" void judge_reference_solve(void* const* buffers, const int* sizes, const float* /*scalars*/) {
  const auto* a = static_cast<const float*>(buffers[0]);
  const auto* b = static_cast<const float*>(buffers[1]);
  auto* c = static_cast<float*>(buffers[2]);
  const int m = sizes[0];
  const int n = sizes[1];
  const int k = sizes[2];
  const int row_tiles = (m + tile_rows - 1) / tile_rows;
  const dim3 grid((k + tile_cols - 1) / tile_cols, row_tiles < 65535 ? row_tiles : 65535);
  judge_reference_matmul<<<grid, threads, 0, cudaStreamLegacy>>>(a, b, c, m, n, k);
}
