// Fixture source: an FP32 kernel named like a tensor-core one (cuobjdump -sass of its .so is
// tests/data/sass/fp32_small.txt): only the instructions count, not the names.
__global__ void hmma_mma_wgmma_lookalike(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] * b[i] + c[i];
}
extern "C" void solve(const float* a, const float* b, float* c, int n) { hmma_mma_wgmma_lookalike<<<(n + 255) / 256, 256>>>(a, b, c, n); }
