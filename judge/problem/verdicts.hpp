// The verdicts a solution can get, and their names: the short ones reports show and the Kattis folder
// names a problem package files its example submissions under (submissions/accepted/, ...).
#pragma once

#include <optional>
#include <string>

namespace judge {

enum class verdict { accepted, wrong_answer, compile_error, run_time_error, time_limit_exceeded, internal_error };

/// "AC", "WA", "CE", "RTE", "TLE", "IE"
std::string short_name(verdict v);
/// "accepted", "wrong_answer", ... (Kattis folder names)
std::string folder_name(verdict v);
/// Inverse of short_name; nullopt for an unknown name.
std::optional<verdict> verdict_from_short_name(const std::string& name);
/// Inverse of folder_name; nullopt for an unknown folder.
std::optional<verdict> verdict_from_folder(const std::string& folder);

/// Whether an example solution's source declares, on a line of its own, `// Caught when timed`: its
/// folder's verdict comes from the timed runs (their replay), so grading without timing cannot reach it
/// and `judge verify --no-timing` leaves it unchecked instead of calling it a mismatch.
bool caught_when_timed(const std::string& source);

} // namespace judge
