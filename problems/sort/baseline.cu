// The sort baseline: CUB's DeviceRadixSort::SortKeys over a double buffer (the data and one scratch
// array of N floats), copied back when the result ends in the scratch array. Scratch is sized once.
#include <cub/device/device_radix_sort.cuh>
#include <cuda_runtime.h>

#include <cstddef>

extern "C" void solve(float* data, int N) {
  static float* other = nullptr;
  static void* temp = nullptr;
  static std::size_t other_count = 0, temp_bytes = 0;
  if (static_cast<std::size_t>(N) > other_count) {
    cudaFree(other);
    cudaMalloc(&other, static_cast<std::size_t>(N) * sizeof(float));
    other_count = static_cast<std::size_t>(N);
  }
  cub::DoubleBuffer<float> keys(data, other);
  std::size_t needed = 0;
  cub::DeviceRadixSort::SortKeys(nullptr, needed, keys, N);
  if (needed > temp_bytes) {
    cudaFree(temp);
    cudaMalloc(&temp, needed);
    temp_bytes = needed;
  }
  cub::DeviceRadixSort::SortKeys(temp, temp_bytes, keys, N);
  if (keys.Current() != data)
    cudaMemcpy(data, keys.Current(), static_cast<std::size_t>(N) * sizeof(float), cudaMemcpyDeviceToDevice);
  cudaDeviceSynchronize();
}
