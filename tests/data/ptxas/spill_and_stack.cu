// A kernel that spills under a low register cap, a local array indexed at run time (stack frame),
// and a device function that is not inlined (its own "Function properties" block).
__device__ __noinline__ float helper(const float* p, int i) { return p[i] * 2.0f + p[i + 1]; }

__global__ void __launch_bounds__(1024, 2) many_accumulators(const float* a, float* c, int n) {
  float acc[64];
#pragma unroll
  for (int j = 0; j < 64; ++j) acc[j] = a[j * n + threadIdx.x];
  for (int k = 0; k < n; ++k) {
#pragma unroll
    for (int j = 0; j < 64; ++j) acc[j] = acc[j] * a[k] + acc[(j + 1) % 64];
  }
  float s = 0;
#pragma unroll
  for (int j = 0; j < 64; ++j) s += acc[j];
  c[threadIdx.x] = s + helper(a, threadIdx.x);
}

__global__ void local_array(const int* idx, float* c) {
  float table[32];
  for (int j = 0; j < 32; ++j) table[j] = j * 0.5f;
  c[threadIdx.x] = table[idx[threadIdx.x] & 31];
}
