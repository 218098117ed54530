// Wrong answer: the ragged last tile of keys is weighed against the maximum of the tiles before it.
//
// What it teaches: the online softmax's maximum must see every key. A block of 64 threads owns a query
// row and walks the keys in tiles of 64: thread t scores key t of the tile, every thread finds the new
// maximum m, rescales the running sum and its two accumulators by exp(m_old - m) and adds the tile's
// exp(score - m) and exp(score - m) · V. The N % 64 keys after the last whole tile are handled after
// that loop by the same code, except that it keeps the running maximum instead of updating it (BUG; a
// row with fewer than 64 keys has no running maximum yet, so there the ragged tile sets it). Since a
// softmax is the same whatever constant is subtracted, this is harmless unless a key of the ragged tile
// scores more than 88 above every key before it, and on random data that does not happen (in
// wide_scores, whose scores reach 288, the last key's lead over the 512 before it stayed below 25 in
// 38,800 simulated rows). In
// late_key_spike_97x99999x4 the last key's last component is 400: a query whose last component is above
// 0.45 scores it above 90, with every other key below 2, so exp overflows to infinity and the output is
// inf / inf = NaN.
//
// Verdict: wrong answer, on late_key_spike_97x99999x4.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int tile = 64;

__global__ void __launch_bounds__(tile)
    attention_rows(const float* Q, const float* K, const float* V, float* output, int N, int d) {
  __shared__ float q[128];
  __shared__ float score[tile];
  const std::size_t row = blockIdx.x;
  const int t = threadIdx.x;
  for (int c = t; c < d; c += tile) q[c] = Q[row * d + c];
  __syncthreads();
  const float scale = 1.0f / sqrtf(static_cast<float>(d));

  float m = -INFINITY, l = 0.0f, acc0 = 0.0f, acc1 = 0.0f; // acc0 for column t, acc1 for column t + 64
  const int whole = N / tile, ragged = N % tile;
  for (int k0 = 0; k0 <= whole; ++k0) {
    const int count = k0 < whole ? tile : ragged;
    if (count == 0) break;
    const std::size_t first = static_cast<std::size_t>(k0) * tile;
    float s = -INFINITY;
    if (t < count) {
      const float* key = K + (first + t) * d;
      float dot = 0.0f;
      for (int c = 0; c < d; ++c) dot += q[c] * key[c];
      s = dot * scale;
    }
    score[t] = s;
    __syncthreads();
    float m_new = m;
    if (k0 < whole || whole == 0) // BUG: the ragged tile after whole ones keeps the old maximum
      for (int k = 0; k < count; ++k) m_new = fmaxf(m_new, score[k]);
    const float rescale = expf(m - m_new);
    l *= rescale;
    acc0 *= rescale;
    acc1 *= rescale;
    for (int k = 0; k < count; ++k) {
      const float w = expf(score[k] - m_new);
      const float* value = V + (first + k) * d;
      l += w;
      if (t < d) acc0 += w * value[t];
      if (t + tile < d) acc1 += w * value[t + tile];
    }
    m = m_new;
    __syncthreads();
  }
  if (t < d) output[row * d + t] = acc0 / l;
  if (t + tile < d) output[row * d + t + tile] = acc1 / l;
}

} // namespace

extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int N, int d) {
  attention_rows<<<M, tile>>>(Q, K, V, output, N, d);
  cudaDeviceSynchronize();
}
