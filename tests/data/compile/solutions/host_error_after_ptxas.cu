// Its device code compiles (ptxas runs and reports the kernel's resources), then the host compile fails
// in the assembler, the last step: the compile error a learner sees must hold the error and none of
// ptxas's -v lines.
__global__ void scale_kernel(float* C, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) C[i] *= 2.0f;
}

void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  asm("not_an_x86_instruction_after_ptxas");
  scale_kernel<<<(M * N + 255) / 256, 256>>>(C, M * N);
}
