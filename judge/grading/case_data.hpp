// What one case means in data: the request a runner receives, the inputs regenerated on the CPU, and
// the CPU reference outputs.
#pragma once

#include "problem_spec.hpp"
#include "test_cases.hpp"
#include "wire.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace judge {

/// The "case" request (docs/architecture.md) for case `c`: `checks` checked calls, their seeds derived
/// from `case_seed` and their poison alternating, and, if given, timing.
judge_wire::case_request make_case_request(const problem_spec& spec, const test_case& c, int case_index,
                                           std::uint64_t case_seed, int checks,
                                           const std::optional<judge_wire::timing_spec>& timing);

/// The inputs of checked call `check`, exactly as the runner generated them.
std::map<std::string, std::vector<float>> regenerate_inputs(const problem_spec& spec, const test_case& c,
                                                            std::uint64_t case_seed, int check);

/// Row-major extents of a buffer for this case.
std::vector<std::int64_t> buffer_shape(const parameter& buffer, const test_case& c);

/// Sizes in signature order.
std::vector<std::int64_t> ordered_sizes(const problem_spec& spec, const test_case& c);

} // namespace judge
