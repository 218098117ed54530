// step9_wgmma.cu's kernel in other shapes: warpgroups (64 rows each), tile width, split-K, pipeline stages.
#define solve solve_09w
#include "step9_wgmma.cu"
#undef solve
#define W(name, ...)                                                                                                   \
  extern "C" void name(const float* A, const float* B, float* C, int M, int N, int K) {                                \
    launch<__VA_ARGS__>(A, B, C, M, N, K);                                                                             \
  }
W(z_128x128_k2_s4, 2, 128, 2, 4)
W(z_128x128_k1_s3, 2, 128, 1, 3)
W(z_128x112_k2_s3, 2, 112, 2, 3)
W(z_128x64_k1_s3, 2, 64, 1, 3)
W(z_128x64_k2_s4, 2, 64, 2, 4)
W(z_64x128_k2_s3, 1, 128, 2, 3)
W(z_64x64_k2_s4, 1, 64, 2, 4)
// Hoisted: the rows' offsets once per block, bounds only at the edges (not measured yet).
W(y_128x128_k2_s3, 2, 128, 2, 3, true)
W(y_128x128_k2_s4, 2, 128, 2, 4, true)
W(y_128x112_k2_s3, 2, 112, 2, 3, true)
