// Element-wise comparisons on the device: outputs against the GPU reference (every timed sample), and
// inputs against their pristine copies (did solve() write into its inputs?).
// Declarations only, includable from host C++; the kernels live in compare.cu.
#pragma once

#include "common/datagen.h"
#include "harness/cuda/device_memory.hpp"

#include <cstddef>
#include <cstdint>

namespace judge_harness {

/// How many elements failed a comparison, and the first of them.
struct mismatch_summary {
  std::uint64_t count = 0;
  std::int64_t first_index = -1; ///< -1 when nothing failed
};

/// Runs the comparison kernels on the legacy default stream; each call blocks until its answer is on
/// the host. Owns the few bytes of device memory the kernels count into.
class device_comparator {
public:
  device_comparator();

  /// Elements i < count where !(|got[i] - ref[i]| <= atol + rtol * |ref[i]|), evaluated in double.
  /// NaN never passes; an infinity passes only against the same infinity. For int32 elements (the
  /// buffers hold their bits) the test is equality; atol and rtol do not apply.
  mismatch_summary count_mismatches(const float* got, const float* ref, std::size_t count, double atol, double rtol,
                                    judge_data::element_type type = judge_data::element_type::float32);

  /// Elements i < count whose bits differ between `a` and `b`.
  mismatch_summary count_differences(const float* a, const float* b, std::size_t count);

private:
  mismatch_summary read_result();

  device_memory m_slots;
};

} // namespace judge_harness
