// The profiler's digest as a learner reads it (docs/profile.md): a block per kernel in the terminal,
// the same figures in JSON, and what to say when Nsight Compute could not profile.
#pragma once

#include "judge/profile/ncu_profile.hpp"
#include "judge/profile/profile_digest.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace judge {

/// One kernel's digest, a line per figure, each line indented by `indent`; "not measured" where ncu
/// gave no figure.
std::string kernel_digest_text(const kernel_digest& k, const std::string& indent = "  ");

/// One kernel's digest as JSON; null for a figure that was not measured.
nlohmann::json kernel_digest_json(const kernel_digest& k);

/// Why there is no profile, in words a learner or instructor can act on ("" for ok).
std::string ncu_failure_text(const ncu_result& result);

/// "roofline: DRAM bandwidth" / "FP32 compute".
const char* roof_name(roof r);

} // namespace judge
