// Run-time error: one block that copies the whole vector into shared memory.
//
// What it teaches: shared memory is small (48 KB per block by default, 227 KB at most on an H200) and
// per block. Asking for N floats of dynamic shared memory works up to N = 12,288 and then the launch
// is refused (cudaErrorInvalidValue): the kernel never runs. The judge sees the error after solve()
// and reports a run-time error; a real program would see it from cudaGetLastError().
//
// Verdict: run-time error, on every case with N > 12,288.
#include <cuda_runtime.h>

#include <cfloat>

__global__ void softmax_in_shared(const float* in, float* out, int n) {
  extern __shared__ float values[];
  __shared__ float reduce[256];
  for (int i = threadIdx.x; i < n; i += blockDim.x) values[i] = in[i];
  __syncthreads();
  float m = -FLT_MAX;
  for (int i = threadIdx.x; i < n; i += blockDim.x) m = fmaxf(m, values[i]);
  reduce[threadIdx.x] = m;
  __syncthreads();
  for (int s = 128; s > 0; s /= 2) {
    if (threadIdx.x < s) reduce[threadIdx.x] = fmaxf(reduce[threadIdx.x], reduce[threadIdx.x + s]);
    __syncthreads();
  }
  m = reduce[0];
  __syncthreads();
  float sum = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) sum += expf(values[i] - m);
  reduce[threadIdx.x] = sum;
  __syncthreads();
  for (int s = 128; s > 0; s /= 2) {
    if (threadIdx.x < s) reduce[threadIdx.x] += reduce[threadIdx.x + s];
    __syncthreads();
  }
  sum = reduce[0];
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = expf(values[i] - m) / sum;
}

extern "C" void solve(const float* input, float* output, int N) {
  // BUG: N floats of shared memory; above 48 KB (minus the 1 KB above) the launch fails.
  softmax_in_shared<<<1, 256, N * sizeof(float)>>>(input, output, N);
  cudaDeviceSynchronize();
}
