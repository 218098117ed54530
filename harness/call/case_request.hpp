// A "case" request of the runner protocol (docs/architecture.md), as plain data: protocol.cpp reads
// it from JSON, the rest of the harness never sees JSON.
#pragma once

#include "datagen.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace judge_harness {

enum class buffer_role { input, output };

/// One pointer parameter of solve(), in signature order.
struct buffer_spec {
  std::string name;
  buffer_role role = buffer_role::input;
  std::size_t count = 0;                  ///< elements (float)
  judge_data::distribution dist;          ///< inputs only
  std::optional<std::vector<float>> data; ///< explicit input data, replacing generation

  bool is_input() const noexcept { return role == buffer_role::input; }
};

/// What an output buffer holds before solve() runs: something solve() must overwrite.
enum class poison_kind {
  nan, ///< the quiet NaN 0x7FC0DEAD
  big, ///< -1.7e38f
};

/// The bits of a poison value.
std::uint32_t poison_bits(poison_kind poison);

struct check_spec {
  std::uint64_t seed = 0;
  poison_kind poison = poison_kind::nan;
};

/// An element passes when |got - ref| <= atol + rtol * |ref|.
struct tolerance_spec {
  double atol = 1e-5;
  double rtol = 1e-5;
};

struct timing_spec {
  std::uint64_t seed = 0;
  double budget_s = 3.0; ///< [s] wall time after which sampling stops adapting
  int min_samples = 10;
  int max_samples = 2000;
  double target_noise = 0.005; ///< [fraction] stop once stddev / mean of the kept samples is below it
  bool cold_l2 = true;
};

struct case_request {
  std::string name;
  std::int64_t case_index = 0;
  std::vector<int> sizes;           ///< the int parameters of solve(), in signature order
  std::vector<buffer_spec> buffers; ///< the pointer parameters of solve(), in signature order
  std::vector<check_spec> checks;
  tolerance_spec tolerance;
  std::optional<timing_spec> timing; ///< absent: not timed
};

} // namespace judge_harness
