// Code before main(), the harmless kind: a static constructor that does only what
// a solution may do anywhere: reads an environment variable, allocates host memory, fills a table with a
// random engine, prints a line to stderr. Real solutions do this (a lookup table, a debug switch).
//
// Verdict: accepted. Static constructors of the learner's object run when the runner loads it, after the
// harness has initialised CUDA, CUPTI and its channels, under the syscall filter and in the sandbox
// (harness/runner/runner_main.cpp); every symbol it uses is on the list a solution may use
// (judge/compile/object_inspection.cpp).
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <random>

__global__ void matmul_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= K) return;
  float sum = 0.0f;
  for (int p = 0; p < N; ++p) sum += A[row * N + p] * B[p * K + col];
  C[row * K + col] = sum;
}

namespace {
struct startup {
  float* jitter = nullptr; // a table nobody needs, made the way real tables are made
  bool verbose = false;
  startup() {
    verbose = std::getenv("MATMUL_VERBOSE") != nullptr;
    jitter = static_cast<float*>(std::malloc(256 * sizeof(float)));
    std::mt19937 engine(42);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    for (int i = 0; i < 256; ++i) jitter[i] = u(engine);
    std::fprintf(stderr, "constructor ran: table of %d values, first %.3f\n", 256, jitter[0]);
  }
  ~startup() { std::free(jitter); }
} g_startup;
} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  if (g_startup.verbose) std::printf("solve %dx%dx%d\n", M, N, K);
  const dim3 block(32, 8);
  const dim3 grid((K + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_coalesced<<<grid, block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
