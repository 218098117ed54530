// What one case means in data: the request a runner receives, the inputs regenerated on the CPU, and
// the CPU reference outputs.
#pragma once

#include "judge/problem/problem.hpp"
#include "judge/problem/cases.hpp"
#include "common/wire.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace judge {

/// The "case" request (docs/architecture.md) for case `c`: one checked call per seed of `check_seeds`
/// (check_seed.hpp), their poison alternating and their output files named by the judge
/// (output_file_name), and, if given, timing.
judge_wire::case_request make_case_request(const problem_spec& spec, const test_case& c, int case_index,
                                           const std::vector<std::uint64_t>& check_seeds,
                                           const std::optional<judge_wire::timing_spec>& timing);

/// The inputs of the checked call whose seed is `check_seed`, exactly as the runner generated them.
std::map<std::string, std::vector<float>> regenerate_inputs(const problem_spec& spec, const test_case& c,
                                                            std::uint64_t check_seed);

/// Row-major extents of a buffer for this case.
std::vector<std::int64_t> buffer_shape(const parameter& buffer, const test_case& c);

/// Sizes in signature order.
std::vector<std::int64_t> ordered_sizes(const problem_spec& spec, const test_case& c);

} // namespace judge
