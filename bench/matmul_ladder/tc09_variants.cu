// The step-9 candidates of step9_candidates.cu (one kernel template): tile, warp tile, stages, split-K,
// blocks per SM, inner step, A row padding, trimmed tail step.
#define solve solve_09
#include "step9_candidates.cu"
#undef solve
#define V(name, ...)                                                                                                   \
  extern "C" void name(const float* A, const float* B, float* C, int M, int N, int K) {                                \
    launch<__VA_ARGS__>(A, B, C, M, N, K);                                                                             \
  }
V(v9_08same, 64, 128, 32, 32, 3, true, 2, 2, 32, 8, false, false)
V(v9_trim, 64, 128, 32, 32, 3, true, 2, 2, 32, 8, true, false)
V(v9_pad4, 64, 128, 32, 32, 3, true, 2, 2, 32, 4, false, false)
V(v9_pad4_trim, 64, 128, 32, 32, 3, true, 2, 2, 32, 4, true, false)
V(v9_pad4_trim_s4, 64, 128, 32, 32, 4, true, 2, 2, 32, 4, true, false)
V(v9_i16_pad4_trim_s4, 64, 128, 32, 32, 4, true, 2, 2, 16, 4, true, false)
V(v9_i16_pad4_trim_s6, 64, 128, 32, 32, 6, true, 2, 2, 16, 4, true, false)
V(v9_i64_pad4_trim_s2, 64, 128, 32, 32, 2, true, 2, 2, 64, 4, true, false)
V(v9_128x64_pad4_trim, 128, 64, 32, 32, 3, true, 2, 2, 32, 4, true, false)
V(v9_128x64_trim, 128, 64, 32, 32, 3, true, 2, 2, 32, 8, true, false)
V(v9_64x64_s2_b4_pad4_trim, 64, 64, 32, 32, 2, true, 2, 4, 32, 4, true, false)
V(v9_64x128_k3_trim, 64, 128, 32, 32, 3, true, 3, 2, 32, 4, true, false)
V(v9_i16_pad4_s4, 64, 128, 32, 32, 4, true, 2, 2, 16, 4, false, false)
V(v9_i16_pad4_trim_s3, 64, 128, 32, 32, 3, true, 2, 2, 16, 4, true, false)
V(v9_i16_pad4_trim_s5, 64, 128, 32, 32, 5, true, 2, 2, 16, 4, true, false)
V(v9_128x64_i16_pad4_trim_s4, 128, 64, 32, 32, 4, true, 2, 2, 16, 4, true, false)
V(v9_64x64_i16_pad4_trim_s4_b4, 64, 64, 32, 32, 4, true, 2, 4, 16, 4, true, false)
V(v9_pre_s2, 64, 128, 32, 32, 2, true, 2, 2, 32, 8, false, true)
V(v9_pre_s3_b1, 64, 128, 32, 32, 3, true, 2, 1, 32, 8, false, true)
V(v9_pre_128x64_s2, 128, 64, 32, 32, 2, true, 2, 2, 32, 8, false, true)
V(v9_pre_64x64_s2_b3, 64, 64, 32, 32, 2, true, 2, 3, 32, 8, false, true)
V(v9_pre_64x64_s3_b2, 64, 64, 32, 32, 3, true, 2, 2, 32, 8, false, true)
V(v9_pre_64x128_k1_s3, 64, 128, 32, 32, 3, true, 1, 1, 32, 8, false, true)
// Measured later (results_call5.txt, results_call6.txt): tile shapes that fit 1001×777.
V(v9_64x112_w64x16, 64, 112, 64, 16, 3, true, 2, 2, 32, 8, false, false)
V(v9_96x64_b2, 96, 64, 32, 32, 3, true, 2, 2, 32, 8, false, false)
V(v9_96x64_b3, 96, 64, 32, 32, 3, true, 2, 3, 32, 8, false, false)
// Tile widths fitted to the ragged output (777 columns: 7 tiles of 112 leave 7 columns of padding where
// 7 tiles of 128 leave 119), with the knobs that helped the ragged shape before.
V(v9_64x112_i16_pad4_s4, 64, 112, 64, 16, 4, true, 2, 2, 16, 4, false, false)
V(v9_64x112_pad4, 64, 112, 64, 16, 3, true, 2, 2, 32, 4, false, false)
V(v9_64x112_pad4_trim, 64, 112, 64, 16, 3, true, 2, 2, 32, 4, true, false)
V(v9_64x112_w32x16, 64, 112, 32, 16, 3, true, 2, 2, 32, 8, false, false)
V(v9_112x64_w16x64, 112, 64, 16, 64, 3, true, 2, 2, 32, 8, false, false)
V(v9_64x128_w64x16, 64, 128, 64, 16, 3, true, 2, 2, 32, 8, false, false)
V(v9_64x112_pad4_trim_s4, 64, 112, 64, 16, 4, true, 2, 2, 32, 4, true, false)
V(v9_64x112_pad4_trim_s2, 64, 112, 64, 16, 2, true, 2, 2, 32, 4, true, false)
V(v9_64x112_i16_pad4_trim_s4, 64, 112, 64, 16, 4, true, 2, 2, 16, 4, true, false)
V(v9_64x112_trim, 64, 112, 64, 16, 3, true, 2, 2, 32, 8, true, false)
