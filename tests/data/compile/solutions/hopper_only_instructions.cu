// A solution written for LeetGPU's H100 and H200, which compile for sm_90a: Hopper's register
// reallocation (setmaxnreg) and the fence of its warpgroup MMA (wgmma) exist on sm_90a alone, and ptxas
// refuses both for plain sm_90.
#include <cuda_runtime.h>

__global__ void __launch_bounds__(128) producer_gives_registers_back(float* C) {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  C[threadIdx.x] = 0.0f;
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  (void)A, (void)B, (void)N;
  if (M * K >= 128) producer_gives_registers_back<<<1, 128>>>(C);
}
