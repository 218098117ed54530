// A problem author's check of every case without a GPU: each case's inputs generated as a runner would
// (with the sample seed of its first checked call, since a hidden case's real seeds need the judge's
// secret), the CPU reference run on them, timed, and its outputs checked to be finite.
#pragma once

#include "judge/problem/problem.hpp"
#include "judge/problem/cases.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace judge {

/// What running the CPU reference on one case showed.
struct reference_dry_run {
  enum class outcome {
    ok,
    non_finite, ///< an output element is NaN or infinite
    failed,     ///< the reference threw, or the inputs could not be made
    too_large,  ///< not run: its buffers would take more than the memory allowed
  };
  outcome what = outcome::ok;
  double seconds = 0;      ///< [s] generating the inputs and running the reference
  std::int64_t bytes = 0;  ///< [B] of the case's buffers (inputs, and outputs as doubles)
  std::string buffer;      ///< non_finite: the output buffer
  std::int64_t index = -1; ///< non_finite: the first such element (row-major)
  double value = 0;        ///< non_finite: its value
  std::string error;       ///< failed: why
};

/// [B] the memory the case's buffers take in the judge: every input as 32-bit elements and every
/// output as doubles (what the CPU reference writes).
std::int64_t reference_bytes(const problem_spec& spec, const test_case& c);

/// Generates `c`'s inputs and runs the CPU reference on them with `threads` threads, unless the buffers
/// would take more than `max_bytes`. Never throws for the case's sake: a failure is an outcome.
reference_dry_run dry_run_reference(const problem_spec& spec, const test_case& c, unsigned threads,
                                    std::int64_t max_bytes);

} // namespace judge
