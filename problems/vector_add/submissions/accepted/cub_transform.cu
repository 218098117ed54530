// The toolkit's header libraries: CUB's device-wide transform does the whole vector addition.
//
// What it shows: solutions may include CUB, Thrust, libcu++ and cooperative groups wherever the problem
// bans no library they stand for. These headers are templates compiled into the solution itself; what
// they bring along is host code that queries the device and launches kernels through the CUDA runtime,
// which the inspection allows. Their one import a learner could abuse, NVTX's loading of a profiling
// tool by name (dlopen, dlsym), is compiled out for every solution (the judge defines NVTX_DISABLE): the
// ranges CUB marks are then no-ops and loading libraries stays refused.
//
// Verdict: accepted.
#include <cub/cub.cuh>
#include <cuda/std/tuple>

#include <cuda_runtime.h>

struct add {
  __device__ float operator()(float a, float b) const { return a + b; }
};

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  cub::DeviceTransform::Transform(cuda::std::make_tuple(A, B), C, N, add{});
  cudaDeviceSynchronize();
}
