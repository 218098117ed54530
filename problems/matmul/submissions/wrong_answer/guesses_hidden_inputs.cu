// Hostile, a reversible secret: with the judge secret recovered (the old mixing of
// secret and case seed was invertible), every hidden input is known in advance, and a solution can
// return answers computed offline without looking at its inputs. This one plays that attacker with the
// best guess left to it: it takes the seeds printed in testcases/matmul/cases.yaml for the hidden cases,
// derives each checked call's seed the way common/datagen.h does, regenerates A and B from them on the
// GPU (default distribution: uniform in [-1, 1)) and multiplies those instead of its inputs. Sample
// cases, whose data is public anyway, it computes honestly.
//
// Verdict: wrong answer, on the first hidden case. A hidden case's seed is an HMAC-SHA-256 of the judge
// secret and the case (judge/problem/secret.cpp): nothing a runner receives, and nothing in cases.yaml,
// lets anyone compute it, so the guessed inputs are not the real ones.
#include <cuda_runtime.h>
#include <cstdint>

__global__ void matmul_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= K) return;
  float sum = 0.0f;
  for (int p = 0; p < N; ++p) sum += A[row * N + p] * B[p * K + col];
  C[row * K + col] = sum;
}

// common/datagen.h's counter-based generator, written out (a solution's compile sees only its own files).
__host__ __device__ std::uint64_t mix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
std::uint64_t derive_check_seed(std::uint64_t case_seed, std::uint64_t check) {
  return mix64(mix64(case_seed ^ (1ull * 0xD1B54A32D192ED03ull)) + check);
}
__global__ void guess_uniform(float* out, std::uint64_t count, std::uint64_t seed, std::uint32_t buffer) {
  const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  const std::uint64_t bits = mix64(mix64(mix64(seed) ^ (static_cast<std::uint64_t>(buffer) << 32)) + i);
  out[i] = static_cast<float>(__fma_rn(2.0, static_cast<double>(bits >> 40) * (1.0 / 16777216.0), -1.0));
}

namespace {
struct hidden_case {
  int M, N, K;
  std::uint64_t seed; // as printed in cases.yaml
  int calls;          // how many checked calls of this shape were seen: the check index
};
hidden_case g_hidden[] = {{1024, 512, 1024, 1201, 0}, {1001, 513, 777, 1202, 0}, {1, 1, 1, 1203, 0},
                          {7, 5, 3, 1204, 0},         {127, 131, 137, 1205, 0},  {4099, 64, 3, 1206, 0},
                          {3, 64, 4099, 1207, 0},     {300, 1, 200, 1208, 0}};

void launch(const float* A, const float* B, float* C, int M, int N, int K) {
  const dim3 block(32, 8);
  const dim3 grid((K + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_coalesced<<<grid, block>>>(A, B, C, M, N, K);
}
} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  for (hidden_case& h : g_hidden) {
    if (h.M != M || h.N != N || h.K != K) continue;
    const std::uint64_t seed = derive_check_seed(h.seed, static_cast<std::uint64_t>(h.calls++ % 2));
    const std::uint64_t a_count = static_cast<std::uint64_t>(M) * N, b_count = static_cast<std::uint64_t>(N) * K;
    float *a = nullptr, *b = nullptr;
    cudaMalloc(&a, a_count * sizeof(float));
    cudaMalloc(&b, b_count * sizeof(float));
    guess_uniform<<<static_cast<unsigned>((a_count + 255) / 256), 256>>>(a, a_count, seed, 0);
    guess_uniform<<<static_cast<unsigned>((b_count + 255) / 256), 256>>>(b, b_count, seed, 1);
    launch(a, b, C, M, N, K); // the guessed inputs, not A and B
    cudaDeviceSynchronize();
    cudaFree(a);
    cudaFree(b);
    return;
  }
  launch(A, B, C, M, N, K); // a sample case: its data is public
  cudaDeviceSynchronize();
}
