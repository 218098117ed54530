// Wrong answer: every thread atomicAdds its element straight into output[0].
//
// What it teaches: two things at once. It is slow, because N atomic additions on one address are
// serialised by the memory system. And it is wrong on large inputs of one sign: the N additions happen
// one after another on a single float, which is a sequential float sum. Once the running sum is large,
// each small value added to it loses most of its bits (at a sum near 8·10^9 a float's spacing is 1024,
// so adding 500 rounds to 0 or 1024), and the error grows with N far beyond what any tree or per-block
// order produces. With N = 2^25 ones, the sum stops at 2^24: 1 + 2^24 rounds back to 2^24.
//
// Verdict: wrong answer, on n_2pow24_positive (uniform in [0, 1000)) and ones_2pow25, outside the
// tolerance of a float sum (statement.md, "Correctness"); small and mixed-sign cases pass.
#include <cuda_runtime.h>

#include <cstddef>

__global__ void reduce_atomic_each(const float* input, float* output, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(output, input[i]);
}

extern "C" void solve(const float* input, float* output, int N) {
  const int threads = 256;
  const unsigned blocks = static_cast<unsigned>((static_cast<std::size_t>(N) + threads - 1) / threads);
  cudaMemset(output, 0, sizeof(float));
  reduce_atomic_each<<<blocks, threads>>>(input, output, static_cast<std::size_t>(N));
  cudaDeviceSynchronize();
}
