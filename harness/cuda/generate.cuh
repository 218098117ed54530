// Filling device buffers: input data from datagen.h, and poison bit patterns for outputs.
// Declarations only, includable from host C++; the kernels live in generate.cu.
#pragma once

#include "common/datagen.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace judge_harness {

/// Enqueues on `stream` the writing of out[i] = judge_data::generate_word(dist, type, seed, buffer_index, i)
/// for i < count: the same bits the judge computes on the CPU. Throws cuda_error if the launch fails.
void generate_on_device(const judge_data::distribution& dist, judge_data::element_type type, std::uint64_t seed,
                        std::uint32_t buffer_index, std::uint32_t* out, std::size_t count, cudaStream_t stream);

/// Enqueues on `stream` the writing of the 32-bit pattern `bits` into out[0, count).
void fill_words_on_device(std::uint32_t* out, std::uint32_t bits, std::size_t count, cudaStream_t stream);

} // namespace judge_harness
