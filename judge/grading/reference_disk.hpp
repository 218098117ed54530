// CPU reference outputs kept on disk between runs, so that a server's next batch or a learner's next
// `judge run` does not compute again what an earlier one did (a matmul case of 6.4·10^9 double
// multiply-adds, twice per case). The entries are as secret as the hidden cases they come from: they
// live in the runner cache, which no sandbox shows (docs/security.md), keyed by everything the outputs
// depend on.
#pragma once

#include "judge/problem/cases.hpp"
#include "judge/problem/problem.hpp"
#include "judge/grading/reference_cache.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace judge {

using reference_outputs = reference_cache::outputs;

/// What is worth keeping, and how much.
struct reference_disk_limits {
  double min_compute_seconds = 0.05;                ///< cheaper outputs are computed again
  std::uint64_t max_entry_bytes = 256ull << 20;     ///< larger ones cost more to read than to compute
  std::uint64_t max_folder_bytes = 2ull << 30;      ///< past this, the oldest entries go
};

/// The key of the outputs of `spec`'s case `c` on the inputs of `check_seed`: the reference library (its
/// file is named by its content hash), the judge that generates the inputs, and every field of the case
/// the inputs or the outputs follow from.
std::string reference_disk_key(const problem_spec& spec, const test_case& c, std::uint64_t check_seed,
                               const std::filesystem::path& reference_library);

/// The outputs kept under `key` in `folder`, when an entry is there and whole, with the buffers and
/// element counts `counts` names (the case's outputs); nullopt otherwise (a damaged entry is removed).
std::optional<reference_outputs> load_reference_outputs(const std::filesystem::path& folder, const std::string& key,
                                                        const std::map<std::string, std::int64_t>& counts);

/// Keeps `outputs` under `key` when limits say they are worth it (computing them took `compute_seconds`),
/// then trims the folder to its limit, oldest first. Never throws: a cache that cannot be written is
/// only slower.
void store_reference_outputs(const std::filesystem::path& folder, const std::string& key, const reference_outputs& outputs,
                             double compute_seconds, const reference_disk_limits& limits = {});

} // namespace judge
