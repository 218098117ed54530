// Hostile, the timing window's landmarks: the harness opened the timed window when
// its marker kernel, recognised by name, ended. This solution adds the vectors first and then launches a
// kernel of its own with the marker's name (`judge_timing_marker`, extern "C", unmangled like the
// harness's), so the window opened after the work: a correct answer at a time of a few microseconds.
//
// Verdict: accepted, with an honest time. The harness recognises its marker by the correlation id of its
// own launch, never by name (harness/timing/cupti_timer.cpp); and the learner's object is a shared object
// loaded with RTLD_LOCAL, so the name collides with nothing.
#include <cuda_runtime.h>

__global__ void vector_add_simple(const float* A, const float* B, float* C, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

extern "C" __global__ void judge_timing_marker() {}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  const int threads = 256;
  vector_add_simple<<<(N + threads - 1) / threads, threads>>>(A, B, C, N);
  judge_timing_marker<<<1, 1>>>(); // after the work: "the window opens here"
  cudaDeviceSynchronize();
}
