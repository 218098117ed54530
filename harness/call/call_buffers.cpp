#include "harness/call/call_buffers.hpp"

#include "harness/cuda/generate.cuh"

namespace judge_harness {

using judge_wire::poison_bits;

call_buffers::call_buffers(const std::vector<buffer_spec>& specs, bool reference_outputs, buffer_layout layout)
    : m_specs(specs) {
  m_buffers.reserve(specs.size());
  m_shadows.reserve(specs.size());
  for (const buffer_spec& spec : specs) {
    m_buffers.emplace_back(spec.count, layout);
    // An inout buffer's shadow is its pristine copy, which the GPU reference then overwrites in place.
    const bool shadowed = spec.is_generated() || reference_outputs;
    m_shadows.emplace_back(shadowed ? spec.count * sizeof(float) : 0);
    m_solve_arguments.push_back(m_buffers.back().data());
    m_reference_arguments.push_back(m_shadows.back().data());
  }
}

void call_buffers::abandon() noexcept {
  for (guarded_buffer& buffer : m_buffers) buffer.abandon();
  for (device_memory& shadow : m_shadows) shadow.abandon();
}

void call_buffers::prepare(std::uint64_t seed, poison_kind poison) {
  prepare_inputs(seed, poison);
  regenerate_pristine(seed);
}

void call_buffers::prepare_inputs(std::uint64_t seed, poison_kind poison) {
  for (std::size_t i = 0; i < m_specs.size(); ++i) {
    const buffer_spec& spec = m_specs[i];
    guarded_buffer& buffer = m_buffers[i];
    buffer.arm_guards();
    if (spec.is_generated()) {
      if (spec.data) {
        const std::size_t bytes = spec.count * sizeof(float);
        JUDGE_CUDA_CHECK(cudaMemcpy(buffer.data(), spec.data->data(), bytes, cudaMemcpyHostToDevice));
      } else {
        // The codec guarantees every input a distribution.
        generate_on_device(spec.dist.value(), spec.type, seed, static_cast<std::uint32_t>(i),
                           reinterpret_cast<std::uint32_t*>(buffer.data()), spec.count, nullptr);
      }
    } else if (spec.start == judge_wire::output_start::zero) {
      // The problem promises zeros (a histogram to count into).
      fill_words_on_device(reinterpret_cast<std::uint32_t*>(buffer.data()), 0u, spec.count, nullptr);
    } else {
      fill_words_on_device(reinterpret_cast<std::uint32_t*>(buffer.data()), poison_bits(poison), spec.count, nullptr);
    }
  }
}

void call_buffers::regenerate_pristine(std::uint64_t seed) {
  for (std::size_t i = 0; i < m_specs.size(); ++i) {
    const buffer_spec& spec = m_specs[i];
    float* shadow = m_shadows[i].as<float>();
    if (shadow == nullptr) continue;
    if (spec.is_generated()) {
      if (spec.data) {
        JUDGE_CUDA_CHECK(
            cudaMemcpy(shadow, spec.data->data(), spec.count * sizeof(float), cudaMemcpyHostToDevice));
      } else {
        // Generated again rather than copied: the pristine copy owes nothing to the buffer solve() gets.
        generate_on_device(spec.dist.value(), spec.type, seed, static_cast<std::uint32_t>(i),
                           reinterpret_cast<std::uint32_t*>(shadow), spec.count, nullptr);
      }
    } else if (spec.start == judge_wire::output_start::zero) {
      // The reference starts from the zeros the problem promises, as solve() did.
      fill_words_on_device(reinterpret_cast<std::uint32_t*>(shadow), 0u, spec.count, nullptr);
    } else {
      // NaN never passes a comparison, so a reference that failed to write shows up as a mismatch.
      fill_words_on_device(reinterpret_cast<std::uint32_t*>(shadow), poison_bits(poison_kind::nan), spec.count,
                           nullptr);
    }
  }
}

} // namespace judge_harness
