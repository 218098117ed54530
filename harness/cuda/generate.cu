#include "harness/cuda/generate.cuh"

#include "harness/cuda/cuda_check.hpp"
#include "harness/cuda/launch_shape.cuh"

namespace judge_harness {
namespace {

__global__ void judge_generate_kernel(judge_data::distribution dist, judge_data::element_type type, std::uint64_t seed,
                                      std::uint32_t buffer_index, std::uint32_t* out, std::size_t count) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    out[i] = judge_data::generate_word(dist, type, seed, buffer_index, i, count);
}

__global__ void judge_fill_words_kernel(std::uint32_t* out, std::uint32_t bits, std::size_t count) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    out[i] = bits;
}

} // namespace

void generate_on_device(const judge_data::distribution& dist, judge_data::element_type type, std::uint64_t seed,
                        std::uint32_t buffer_index, std::uint32_t* out, std::size_t count, cudaStream_t stream) {
  if (count == 0) return;
  judge_generate_kernel<<<detail::grid_blocks(count), detail::block_threads, 0, stream>>>(dist, type, seed,
                                                                                          buffer_index, out, count);
  JUDGE_CUDA_CHECK(cudaGetLastError());
}

void fill_words_on_device(std::uint32_t* out, std::uint32_t bits, std::size_t count, cudaStream_t stream) {
  if (count == 0) return;
  judge_fill_words_kernel<<<detail::grid_blocks(count), detail::block_threads, 0, stream>>>(out, bits, count);
  JUDGE_CUDA_CHECK(cudaGetLastError());
}

} // namespace judge_harness
