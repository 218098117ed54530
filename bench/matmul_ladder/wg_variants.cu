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
// FlushEvery (with Hoisted): the split of the next step beside this step's wgmmas, two TF32 sets, the sums
// added to the total every 2, 4 or 8 steps.
W(o_128x128_k2_s2_f4, 2, 128, 2, 2, true, 4)
W(o_128x128_k2_s2_f2, 2, 128, 2, 2, true, 2)
W(o_128x128_k2_s2_f8, 2, 128, 2, 2, true, 8)
W(o_128x112_k2_s3_f4, 2, 112, 2, 3, true, 4)
W(o_128x112_k2_s2_f4, 2, 112, 2, 2, true, 4)
W(o_128x64_k1_s3_f4, 2, 64, 1, 3, true, 4)
W(o_128x64_k2_s3_f4, 2, 64, 2, 3, true, 4)
