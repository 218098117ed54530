// Ladder step 4: one float4 per thread, no loop; and what the H200's DRAM allows.
//
// What it teaches: at the memory system's limit, less is more. Step 3's grid-stride loop keeps 8 blocks
// per SM and walks the vector with them; here every thread does exactly one group of 4 (a grid of
// N/4 threads), so the loop's bookkeeping is gone and the hardware's block scheduler hands out the work.
// The last N % 4 elements (or all of them, were a buffer not 16-byte aligned) are one per thread of the
// first blocks.
//
// Measured on the H200 (bench: cudaEvent around the kernel, L2 flushed by a 256 MB read before each of
// 200 samples, median; the DRAM peak 4814 GB/s is 2 × memory clock × bus width, as the judge computes it;
// 12·N bytes per call):
//   2^24:        step 3 47.3 µs (4260 GB/s, 88.5% of peak)  ->  this step 46.1 µs (4363 GB/s, 90.6%)
//   25,000,000:  step 3 70.7 µs (4242 GB/s, 88.1%)          ->  this step 69.1 µs (4344 GB/s, 90.2%)
// The judge's copy baseline read 47.2 µs and 70.8 µs (88.6%, 88.0%) in the same run.
//
// Why not 95% of the peak: nothing we tried passed 91%. Same run, 2^24 / 25,000,000, % of peak:
// blocks of 128, 512, 1024 threads 90.6–91.0 / 90.2–90.4; two or four float4 per thread, loads first
// 89.6 / 89.6 and 86.1 / 87.8; streaming hints (__ldcs/__stcs, evict-first) 86.0 / 86.1, with 1024
// threads 85.4 / 85.0; read-only path (__ldg) 90.7 / 90.3; an L2 prefetch hint of 256 bytes on the
// loads 86.9 / 88.4, with the non-coherent no-allocate load 83.0 / 84.0; grid-stride with streaming
// hints, 8 or 32 blocks per SM, 83.7–84.4 / 83.5–83.9. The theoretical peak counts every clock of the
// bus as a transfer; a vector add mixes reads and writes (2:1), and the DRAM's own overheads (likely
// read/write turnarounds and refresh; not profiled) are not the kernel's to remove. About 90% is where
// the H200 stopped for this access mix, and the judge's copy baseline, which moves the same bytes, stops
// a little lower.
//
// Verdict: accepted.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

__global__ void vector_add_one_float4(const float4* __restrict__ a, const float4* __restrict__ b,
                                      float4* __restrict__ c, std::size_t groups, const float* __restrict__ A,
                                      const float* __restrict__ B, float* __restrict__ C, std::size_t n) {
  const std::size_t g = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (g < groups) {
    const float4 x = a[g];
    const float4 y = b[g];
    c[g] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
  if (g < n - groups * 4) C[groups * 4 + g] = A[groups * 4 + g] + B[groups * 4 + g];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  const std::size_t n = static_cast<std::size_t>(N);
  const bool aligned = (reinterpret_cast<std::uintptr_t>(A) | reinterpret_cast<std::uintptr_t>(B) |
                        reinterpret_cast<std::uintptr_t>(C)) %
                           16 ==
                       0;
  const std::size_t groups = aligned ? n / 4 : 0;
  const std::size_t tail = n - groups * 4;
  const std::size_t threads_needed = groups > tail ? groups : tail;
  const int threads = 256;
  const auto blocks = static_cast<unsigned>((threads_needed + threads - 1) / threads);
  if (blocks == 0) return;
  vector_add_one_float4<<<blocks, threads>>>(reinterpret_cast<const float4*>(A), reinterpret_cast<const float4*>(B),
                                             reinterpret_cast<float4*>(C), groups, A, B, C, n);
  cudaDeviceSynchronize();
}
