#include "test_kernels.cuh"

#include "harness/cuda/cuda_check.hpp"

#include "harness/cuda/device_memory.hpp"

namespace {

__device__ std::uint64_t global_timer_ns() {
  std::uint64_t now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
}

__global__ void spin_for_ns(std::uint64_t ns) {
  const std::uint64_t start = global_timer_ns();
  while (global_timer_ns() - start < ns) {
  }
}

__global__ void chase(const std::uint32_t* next, std::uint32_t steps, std::uint32_t* end, long long* cycles) {
  std::uint32_t i = 0;
  const long long begin = clock64();
  for (std::uint32_t s = 0; s < steps; ++s) i = __ldcg(next + i);
  const long long finish = clock64();
  *end = i; // keeps the chain's loads
  *cycles = finish - begin;
}

__global__ void write_at(float* base, std::int64_t index, float value) { base[index] = value; }

__global__ void add_vectors(gpu_test::vector_add_kind kind, float* a, const float* b, float* c, int n, float* seen,
                            unsigned* calls, unsigned slots) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) {
    const unsigned slot = atomicAdd(calls, 1u);
    if (slot < slots)
      for (int k = 0; k < 4 && k < n; ++k) seen[4 * static_cast<std::size_t>(slot) + k] = a[k];
  }
  if (i >= n) return;
  const float sum = a[i] + b[i];
  c[i] = kind == gpu_test::vector_add_kind::off_by_one ? sum + 1.0f : sum;
  if (kind == gpu_test::vector_add_kind::writes_input && i == 0) a[0] = 0.0f;
}

__global__ void reference_add_vectors(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = static_cast<float>(static_cast<double>(a[i]) + static_cast<double>(b[i]));
}

int blocks_for(int n) { return (n + 255) / 256; }

} // namespace

namespace gpu_test {

void launch_spin(std::uint64_t ns, cudaStream_t stream) {
  spin_for_ns<<<1, 32, 0, stream>>>(ns);
  JUDGE_CUDA_CHECK(cudaGetLastError());
}

double chase_cycles(const std::uint32_t* next, std::uint32_t steps, cudaStream_t stream) {
  judge_harness::device_memory end(sizeof(std::uint32_t)), cycles(sizeof(long long));
  chase<<<1, 1, 0, stream>>>(next, steps, end.as<std::uint32_t>(), cycles.as<long long>());
  JUDGE_CUDA_CHECK(cudaGetLastError());
  JUDGE_CUDA_CHECK(cudaStreamSynchronize(stream));
  long long taken = 0;
  JUDGE_CUDA_CHECK(cudaMemcpy(&taken, cycles.data(), sizeof taken, cudaMemcpyDeviceToHost));
  return static_cast<double>(taken);
}

void write_one(float* base, std::int64_t index, float value) {
  write_at<<<1, 1>>>(base, index, value);
  JUDGE_CUDA_CHECK(cudaGetLastError());
  JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
}

void launch_vector_add(vector_add_kind kind, float* a, const float* b, float* c, int n, float* seen, unsigned* calls,
                       unsigned slots) {
  add_vectors<<<blocks_for(n), 256>>>(kind, a, b, c, n, seen, calls, slots);
  JUDGE_CUDA_CHECK(cudaGetLastError());
}

void launch_reference_add(const float* a, const float* b, float* c, int n) {
  reference_add_vectors<<<blocks_for(n), 256>>>(a, b, c, n);
  JUDGE_CUDA_CHECK(cudaGetLastError());
}

} // namespace gpu_test
