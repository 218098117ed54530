// Wrong answer: the naive kernel of accepted/01_naive.cu with the output's row length taken from the
// input: output[j * cols + i] instead of output[j * rows + i].
//
// What it teaches: a transpose swaps the shape, so the two matrices have different row lengths (the
// input's rows are cols long, the output's rows are rows long). On a square matrix the two are equal and
// the bug is invisible, which is why it survives testing on square examples.
//
// A guard on the flat output index keeps the wrong stores inside the output buffer. (Without it, any
// matrix with fewer rows than columns makes the kernel write far past the end of the output: a crash,
// not a wrong answer. A guard that stops a crash does not make the index right.)
//
// Verdict: wrong answer, on both samples and on every hidden case except the square ones (one_1x1,
// square_1024, square_4096) and column_1000x1: with cols = 1 both indices are i (j is 0), since a column
// vector and its transpose share one memory layout. Elsewhere some output elements are never written
// (they keep the judge's poison) and the rest hold the wrong values.
#include <cuda_runtime.h>

__global__ void transpose_square_only(const float* input, float* output, int rows, int cols) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= rows || j >= cols) return;
  const long long out = static_cast<long long>(j) * cols + i; // BUG: the output's rows are `rows` long
  if (out < static_cast<long long>(rows) * cols) output[out] = input[i * cols + j];
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
  const dim3 block(32, 8);
  const dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
  transpose_square_only<<<grid, block>>>(input, output, rows, cols);
  cudaDeviceSynchronize();
}
