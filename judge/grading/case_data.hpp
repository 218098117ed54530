// What one case means in data: the request a runner receives, the inputs regenerated on the CPU, and
// the CPU reference outputs.
#pragma once

#include "problem_spec.hpp"
#include "test_cases.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace judge {

/// The two poison values the runner alternates between checked calls (docs/architecture.md).
inline const char* poison_for_check(int k) { return k % 2 == 0 ? "nan" : "big"; }

struct timing_request {
  std::uint64_t seed = 0;         ///< fresh per run: a solution cannot have seen these inputs before
  double budget_s = 3;            // [s]
  int min_samples = 10;
  int max_samples = 2000;
  double target_noise = 0.005;    // [fraction]
  bool cold_l2 = true;
};

/// The JSON "case" request (docs/architecture.md): `checks` checked calls and, if given, timing.
nlohmann::json case_request(const problem_spec& spec, const test_case& c, int case_index, std::uint64_t case_seed,
                            int checks, const std::optional<timing_request>& timing);

/// The inputs of checked call `check`, exactly as the runner generated them.
std::map<std::string, std::vector<float>> regenerate_inputs(const problem_spec& spec, const test_case& c,
                                                            std::uint64_t case_seed, int check);

/// Row-major extents of a buffer for this case.
std::vector<std::int64_t> buffer_shape(const parameter& buffer, const test_case& c);

/// Sizes in signature order.
std::vector<std::int64_t> ordered_sizes(const problem_spec& spec, const test_case& c);

} // namespace judge
