#include "judge/report/source_fingerprint.hpp"

#include "catch.hpp"

#include <string>
#include <vector>

using namespace judge;

namespace {

const std::string tiled = R"(// alice's tiled matmul
#include <cuda_runtime.h>
#define TILE 16
__global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < (N + TILE - 1) / TILE; ++t) {
    As[threadIdx.y][threadIdx.x] = (row < M && t * TILE + threadIdx.x < N) ? A[row * N + t * TILE + threadIdx.x] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (col < K && t * TILE + threadIdx.y < N) ? B[(t * TILE + threadIdx.y) * K + col] : 0.0f;
    __syncthreads();
    for (int i = 0; i < TILE; ++i) sum += As[threadIdx.y][i] * Bs[i][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < K) C[row * K + col] = sum;
}
extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  dim3 block(TILE, TILE), grid((K + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  matmul_tiled<<<grid, block>>>(A, B, C, M, N, K);
}
)";

// The same, every name changed, comments rewritten, laid out differently.
const std::string renamed = R"(/* bob wrote this */
#define T 16
__global__ void mm(const float* X, const float* Y, float* Z, int rows, int inner, int cols)
{
    __shared__ float xs[T][T]; __shared__ float ys[T][T];
    int r = blockIdx.y * T + threadIdx.y, c = blockIdx.x * T + threadIdx.x;
    float acc = 0.0f;  // accumulator
    for (int step = 0; step < (inner + T - 1) / T; ++step)
    {
        xs[threadIdx.y][threadIdx.x] = (r < rows && step * T + threadIdx.x < inner) ? X[r * inner + step * T + threadIdx.x] : 0.0f;
        ys[threadIdx.y][threadIdx.x] = (c < cols && step * T + threadIdx.y < inner) ? Y[(step * T + threadIdx.y) * cols + c] : 0.0f;
        __syncthreads();
        for (int j = 0; j < T; ++j) acc += xs[threadIdx.y][j] * ys[j][threadIdx.x];
        __syncthreads();
    }
    if (r < rows && c < cols) Z[r * cols + c] = acc;
}
extern "C" void solve(const float* X, const float* Y, float* Z, int rows, int inner, int cols)
{
    dim3 b(T, T), g((cols + T - 1) / T, (rows + T - 1) / T);
    mm<<<g, b>>>(X, Y, Z, rows, inner, cols);
}
)";

// Another algorithm: one thread per output, no shared memory.
const std::string naive = R"(
__global__ void naive(const float* A, const float* B, float* C, int M, int N, int K) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= M * K) return;
  int i = idx / K, j = idx % K;
  double s = 0;
  for (int k = 0; k < N; k++) s += (double)A[i * N + k] * B[k * K + j];
  C[idx] = (float)s;
}
extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  int threads = 256;
  naive<<<(M * K + threads - 1) / threads, threads>>>(A, B, C, M, N, K);
}
)";

} // namespace

TEST_CASE("comments, whitespace and preprocessor lines are dropped and names become one token", "[similarity]") {
  const std::vector<std::string> tokens = normalised_tokens("#include <x>\nint total = 3; // note\n/* block */ f(\"s\");");
  CHECK(tokens == std::vector<std::string>{"int", "V", "=", "N", ";", "V", "(", "S", ")", ";"});
  CHECK(normalised_tokens("a += 1.5e-3f;") == normalised_tokens("b += 2;"));
  CHECK(normalised_tokens("threadIdx.x") == std::vector<std::string>{"threadIdx", ".", "x"});
  CHECK(normalised_tokens("p->w + x") == std::vector<std::string>{"V", "-", ">", "w", "+", "V"});
  CHECK(normalised_tokens("i > n") == std::vector<std::string>{"V", ">", "V"});
}

TEST_CASE("renamed identifiers and reformatting are seen through", "[similarity]") {
  CHECK(overlap(fingerprints(tiled), fingerprints(renamed)) > 0.9);
  CHECK(overlap(fingerprints(tiled), fingerprints(tiled)) == 1.0);
}

TEST_CASE("reordered functions keep most fingerprints", "[similarity]") {
  const auto split = tiled.find("extern \"C\"");
  const std::string reordered = tiled.substr(split) + tiled.substr(0, split);
  CHECK(overlap(fingerprints(tiled), fingerprints(reordered)) > 0.7);
}

TEST_CASE("a different algorithm overlaps little", "[similarity]") {
  CHECK(overlap(fingerprints(tiled), fingerprints(naive)) < 0.3);
}

TEST_CASE("fingerprints every submission shares with the starter are left out", "[similarity]") {
  const std::string starter = "extern \"C\" void solve(const float* A, const float* B, float* C, int M, int N, int K) {\n}\n";
  const auto a = fingerprints(starter + "int unrelated_one() { return 1 + 2 * 3 - 4; }\n");
  const auto b = fingerprints(starter + "float other(float v) { while (v > 0) v = v / 2; return v; }\n");
  CHECK(overlap(a, b, fingerprints(starter)) < overlap(a, b));
  CHECK(overlap(fingerprints(starter), fingerprints(starter), fingerprints(starter)) == 0);
}

TEST_CASE("a text too short for one run of tokens has no fingerprints", "[similarity]") {
  CHECK(fingerprints("int x;").empty());
  CHECK(overlap(fingerprints(""), fingerprints("")) == 0);
}
