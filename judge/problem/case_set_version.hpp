// Which cases a result was graded on: a short digest of everything in the problem's files that can change
// a verdict or a score (cases.yaml whole, problem.yaml less its words), stored with every result, so that
// a board can tell a result graded before a case was added from one graded after.
#pragma once

#include <filesystem>
#include <string>

namespace judge {

/// 12 lowercase hex digits: the first 6 bytes of SHA-256 over the YAML content (comments, spacing and
/// quoting aside) of `cases_file` and of `problem_file` without the fields that change no grade (`title`,
/// `statement`, `status`, `leetgpu`). Editing a comment or the title keeps the version; a case, a
/// tolerance or a limit changes it. Throws spec_error for a file that cannot be read or parsed.
std::string case_set_version(const std::filesystem::path& problem_file, const std::filesystem::path& cases_file);

/// How a result's version is shown: the version, or "unknown" for one stored before results kept it ("").
std::string case_set_label(const std::string& version);

} // namespace judge
