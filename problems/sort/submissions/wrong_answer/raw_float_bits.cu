// Wrong answer: step 3's radix sort on the floats' raw bits, without turning them into ordered keys.
//
// What it teaches: an integer radix sort orders bit patterns, and a float's bit pattern orders like the
// float only for positive values. A negative float has its sign bit set, so as an unsigned integer it
// is larger than every positive one, and among negatives a larger magnitude is a larger integer: the
// result lists the positives ascending, then the negatives from -0 down to the most negative. Inputs
// of one sign come out right.
//
// Verdict: wrong answer, on every case with negative values (the default [-1000, 1000) data).
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int digits = 256;

__global__ void count_digits(const unsigned* in, std::size_t n, int shift, unsigned* counts) {
  __shared__ unsigned local[digits];
  local[threadIdx.x] = 0;
  __syncthreads();
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(&local[(in[i] >> shift) & 0xffu], 1u); // BUG: raw float bits used as the key
  __syncthreads();
  atomicAdd(&counts[threadIdx.x], local[threadIdx.x]);
}

// One block, one thread per digit, each walking the whole input in order: stable, slow, and not the bug.
__global__ void scatter(const unsigned* in, unsigned* out, std::size_t n, int shift, const unsigned* counts) {
  __shared__ unsigned start[digits];
  start[threadIdx.x] = counts[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned running = 0;
    for (int d = 0; d < digits; ++d) {
      const unsigned c = start[d];
      start[d] = running;
      running += c;
    }
  }
  __syncthreads();
  unsigned at = start[threadIdx.x];
  for (std::size_t i = 0; i < n; ++i)
    if (((in[i] >> shift) & 0xffu) == threadIdx.x) out[at++] = in[i];
}

} // namespace

extern "C" void solve(float* data, int N) {
  static unsigned* scratch = nullptr;
  static std::size_t capacity = 0;
  const std::size_t n = static_cast<std::size_t>(N);
  if (n + digits > capacity) {
    cudaFree(scratch);
    cudaMalloc(&scratch, (n + digits) * sizeof(unsigned));
    capacity = n + digits;
  }
  unsigned* keys = reinterpret_cast<unsigned*>(data);
  unsigned* other = scratch;
  unsigned* counts = scratch + n;
  for (int shift = 0; shift < 32; shift += 8) {
    cudaMemset(counts, 0, digits * sizeof(unsigned));
    count_digits<<<264, digits>>>(keys, n, shift, counts);
    scatter<<<1, digits>>>(keys, other, n, shift, counts);
    unsigned* t = keys;
    keys = other;
    other = t;
  }
  // Four passes: the result is back in data.
  cudaDeviceSynchronize();
}
