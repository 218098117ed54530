// The histogram baseline: CUB's DeviceHistogram::HistogramEven with num_bins + 1 even levels over
// [0, num_bins), so value v falls in bin v. CUB writes every bin (it does not rely on the zeros). Its
// scratch space is sized once; a timed call is CUB's work alone. The sample count goes in as 64 bits:
// with an int, CUB computes the row stride in bytes (4 N) in an int, which wraps for N above 2^29, and on the H200 its counts for
// N = 2^31 - 1 disagreed with the CPU reference.
#include <cub/device/device_histogram.cuh>
#include <cuda_runtime.h>

#include <cstddef>

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  static void* scratch = nullptr;
  static std::size_t scratch_bytes = 0;
  const long long samples = N;
  std::size_t needed = 0;
  cub::DeviceHistogram::HistogramEven(nullptr, needed, input, histogram, num_bins + 1, 0, num_bins, samples);
  if (needed > scratch_bytes) {
    cudaFree(scratch);
    cudaMalloc(&scratch, needed);
    scratch_bytes = needed;
  }
  cub::DeviceHistogram::HistogramEven(scratch, scratch_bytes, input, histogram, num_bins + 1, 0, num_bins, samples);
  cudaDeviceSynchronize();
}
