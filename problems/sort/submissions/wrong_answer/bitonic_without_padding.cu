// Wrong answer: step 1's bitonic network run on N elements directly, as if N were a power of two.
//
// What it teaches: a bitonic network is defined for 2^k elements. With another N, the stages skip every
// pair whose partner lies past the end, and the halves the network merges are no longer bitonic, so the
// result is not sorted. Powers of two (the common test sizes 1024 and 2^24) come out right, which is how
// this survives. Padding to a power of two with +infinity (accepted/01) is one fix.
//
// Verdict: wrong answer, on the cases whose N is not a power of two.
#include <cuda_runtime.h>

#include <cstddef>

__global__ void bitonic_stage_unpadded(float* values, std::size_t n, std::size_t k, std::size_t j) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t partner = i ^ j;
  if (i >= n || partner <= i || partner >= n) return; // BUG: pairs past the end are just skipped
  const bool ascending = (i & k) == 0;
  const float a = values[i], b = values[partner];
  if ((a > b) == ascending) {
    values[i] = b;
    values[partner] = a;
  }
}

extern "C" void solve(float* data, int N) {
  const std::size_t n = static_cast<std::size_t>(N);
  std::size_t size = 1;
  while (size < n) size *= 2;
  const unsigned blocks = static_cast<unsigned>((n + 255) / 256);
  for (std::size_t k = 2; k <= size; k *= 2)
    for (std::size_t j = k / 2; j > 0; j /= 2) bitonic_stage_unpadded<<<blocks, 256>>>(data, n, k, j);
  cudaDeviceSynchronize();
}
