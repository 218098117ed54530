// Not hostile: the host code an honest solution writes, to keep the judge's list of symbols a solution may
// use (judge/compile/object_inspection.cpp) from refusing it. Containers and strings, iostream and printf,
// exceptions, <cmath> and <chrono>, device properties and occupancy, a stream and events, a kernel
// attribute, printf inside a kernel, and checked CUDA calls that report errors and abort.
//
// Verdict: accepted.
#include <cuda_runtime.h>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#define CHECK(call)                                                                                           \
  do {                                                                                                        \
    const cudaError_t e = (call);                                                                             \
    if (e != cudaSuccess) {                                                                                   \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e));               \
      std::abort();                                                                                           \
    }                                                                                                         \
  } while (0)

constexpr int tile = 16;

__global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float a_tile[tile][tile];
  __shared__ float b_tile[tile][tile];
  const int row = blockIdx.y * tile + threadIdx.y;
  const int col = blockIdx.x * tile + threadIdx.x;
  float sum = 0.0f;
  for (int p0 = 0; p0 < N; p0 += tile) {
    a_tile[threadIdx.y][threadIdx.x] = (row < M && p0 + threadIdx.x < N) ? A[row * N + p0 + threadIdx.x] : 0.0f;
    b_tile[threadIdx.y][threadIdx.x] = (p0 + threadIdx.y < N && col < K) ? B[(p0 + threadIdx.y) * K + col] : 0.0f;
    __syncthreads();
    for (int p = 0; p < tile; ++p) sum += a_tile[threadIdx.y][p] * b_tile[p][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < K) C[row * K + col] = sum;
  if (row == 0 && col == 0 && M < 0) printf("never printed: %f\n", sum); // device printf links
}

namespace {
struct launch_plan {
  dim3 grid, block;
  std::string describe() const {
    return std::to_string(grid.x) + "x" + std::to_string(grid.y) + " blocks of " + std::to_string(block.x) + "x" +
           std::to_string(block.y);
  }
};

launch_plan plan_for(int M, int K) {
  if (M <= 0 || K <= 0) throw std::invalid_argument("empty matrix");
  return {dim3((K + tile - 1) / tile, (M + tile - 1) / tile), dim3(tile, tile)};
}

struct device_setup {
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  std::vector<std::string> notes;
  device_setup() {
    cudaDeviceProp props{};
    CHECK(cudaGetDeviceProperties(&props, 0));
    int blocks_per_sm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, matmul_tiled, tile * tile, 0));
    CHECK(cudaFuncSetAttribute(matmul_tiled, cudaFuncAttributePreferredSharedMemoryCarveout, 50));
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    notes.push_back(std::string(props.name) + ": " + std::to_string(blocks_per_sm) + " blocks per SM");
  }
};
} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  static device_setup setup;
  static int calls = 0;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    const launch_plan plan = plan_for(M, K);
    CHECK(cudaEventRecord(setup.start, setup.stream));
    matmul_tiled<<<plan.grid, plan.block, 0, setup.stream>>>(A, B, C, M, N, K);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(setup.stop, setup.stream));
    CHECK(cudaStreamSynchronize(setup.stream));
    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, setup.start, setup.stop));
    const double host_us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    if (calls++ == 0)
      std::cout << setup.notes.front() << "; " << plan.describe() << "; kernel " << ms << " ms, host "
                << std::round(host_us) << " us, sqrt(N) " << std::sqrt(static_cast<float>(N)) << std::endl;
  } catch (const std::exception& e) {
    std::cerr << "solve: " << e.what() << '\n';
  }
}
