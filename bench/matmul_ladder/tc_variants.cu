#define solve solve_08
#include "../../problems/matmul/submissions/accepted/08_split_k_cluster.cu"
#undef solve
#define V(name, ...)                                                                                                   \
  extern "C" void name(const float* A, const float* B, float* C, int M, int N, int K) {                                \
    launch<__VA_ARGS__>(A, B, C, M, N, K);                                                                             \
  }
V(v2_64x64_s3_k1, 64, 64, 32, 32, 3, true, 1, 1, 8, false)
V(v2_64x64_s3_k1_b4, 64, 64, 32, 32, 3, true, 1, 4, 8, false)
V(v2_64x64_s2_k1_b4, 64, 64, 32, 32, 2, true, 1, 4, 8, false)
V(v2_64x64_s4_k1, 64, 64, 32, 32, 4, true, 1, 1, 8, false)
V(v2_64x64_s3_k2, 64, 64, 32, 32, 3, true, 2, 1, 8, false)
V(v2_64x64_s3_k2_b4, 64, 64, 32, 32, 3, true, 2, 4, 8, false)
V(v2_64x64_s2_k2_b4, 64, 64, 32, 32, 2, true, 2, 4, 8, false)
V(v2_64x64_s4_k2_b4, 64, 64, 32, 32, 4, true, 2, 4, 8, false)
V(v2_64x64_s3_k4_b4, 64, 64, 32, 32, 3, true, 4, 4, 8, false)
V(v2_64x64_s2_k4_b4, 64, 64, 32, 32, 2, true, 4, 4, 8, false)
V(v2_128x64_w32x32_s3_k2, 128, 64, 32, 32, 3, true, 2, 1, 8, false)
V(v2_128x64_w32x32_s3_k2_b2, 128, 64, 32, 32, 3, true, 2, 2, 8, false)
V(v2_128x128_w64x32_s3_k4, 128, 128, 64, 32, 3, true, 4, 1, 8, false)
V(v2_64x128_w32x32_s3_k2_b2, 64, 128, 32, 32, 3, true, 2, 2, 8, false)
V(v2_plain_64x64_s3_k2_b4, 64, 64, 32, 32, 3, false, 2, 4, 8, false)
V(v2_plain_64x64_s3_k1, 64, 64, 32, 32, 3, false, 1, 1, 8, false)
