// The device memory of one call of solve(): a guarded buffer per pointer parameter, a pristine copy of
// each input (for the reference and to see whether solve() wrote into its inputs) and, when asked,
// reference outputs. Checked calls, warm-up calls and timed samples all prepare their data through
// this one type, so a solution cannot tell them apart.
#pragma once

#include "harness/cuda/device_memory.hpp"
#include "harness/cuda/guarded_buffer.hpp"
#include "common/wire.hpp"

#include <cstdint>
#include <vector>

namespace judge_harness {

using judge_wire::buffer_spec;
using judge_wire::poison_kind;

class call_buffers {
public:
  /// Allocates every buffer of `specs` with `layout`; with `reference_outputs`, also one reference output
  /// per output.
  call_buffers(const std::vector<buffer_spec>& specs, bool reference_outputs, buffer_layout layout);

  /// Arms the guards (blocking), then enqueues on the legacy stream: each input generated from `seed`
  /// (or copied from its explicit data), its pristine copy generated again into separate memory, each
  /// output filled with `poison`, each reference output with NaN. The caller synchronises.
  void prepare(std::uint64_t seed, poison_kind poison);
  /// prepare()'s first half: the inputs and the poisoned outputs, no pristine copies.
  void prepare_inputs(std::uint64_t seed, poison_kind poison);
  /// prepare()'s second half: each input's pristine copy generated from `seed` again, each reference
  /// output filled with NaN. Timed calls do this after the call, so that nothing the call's kernels
  /// could write to exists yet when they run (docs/security.md, "Timing by replay").
  void regenerate_pristine(std::uint64_t seed);

  /// Gives every allocation up without freeing it, once the context is lost (device_memory::abandon).
  void abandon() noexcept;

  /// Pointer parameters for solve(), in signature order.
  void* const* solve_arguments() const noexcept { return m_solve_arguments.data(); }
  /// Pointer parameters for the GPU reference: pristine inputs and reference outputs. Needs
  /// `reference_outputs`.
  void* const* reference_arguments() const noexcept { return m_reference_arguments.data(); }

  const std::vector<buffer_spec>& specs() const noexcept { return m_specs; }
  const guarded_buffer& buffer(std::size_t index) const { return m_buffers[index]; }
  /// The pristine copy of input `index`, the reference output of output `index`, or for an inout
  /// buffer its pristine copy, which the GPU reference overwrites with its result.
  const float* shadow(std::size_t index) const { return m_shadows[index].as<float>(); }

private:
  std::vector<buffer_spec> m_specs;
  std::vector<guarded_buffer> m_buffers;
  std::vector<device_memory> m_shadows; // pristine input or reference output; empty when not needed
  std::vector<void*> m_solve_arguments;
  std::vector<void*> m_reference_arguments;
};

} // namespace judge_harness
