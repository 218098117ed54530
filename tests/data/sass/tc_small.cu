// Fixture source: the smallest kernel with a TF32 tensor-core instruction (cuobjdump -sass of its .so is
// tests/data/sass/tc_small.txt).
#include <cstdint>
__global__ void one_mma(const float* a, float* d) {
  std::uint32_t x;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(x) : "f"(a[threadIdx.x]));
  float c[4] = {0, 0, 0, 0};
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%4,%4,%4}, {%4,%4}, {%0,%1,%2,%3};"
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]) : "r"(x));
  d[threadIdx.x] = c[0] + c[1] + c[2] + c[3];
}
extern "C" void solve(const float* a, float* d) { one_mma<<<1, 32>>>(a, d); }
