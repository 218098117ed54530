// The learner's view: a table per solution, the failing case explained, colour only on a terminal.
#pragma once

#include "judge/base/text.hpp"
#include "judge/record/grade_result.hpp"
#include "judge/problem/solution_files.hpp"

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace judge {

struct terminal_style {
  bool colour = false; ///< ANSI colours (a terminal, and NO_COLOR unset)
  static terminal_style for_stream(std::FILE* stream);
};

/// The heading: problem, device, clock, timing mode.
std::string render_heading(const std::string& problem, const device_info& device, const std::string& timing_mode);

/// Baseline figures per case.
std::string render_baseline(const std::string& label, const std::string& unit,
                            const std::vector<std::pair<std::string, std::pair<double, double>>>& case_ms_speed,
                            const std::string& note = "");
/// The note render_baseline shows for figures kept from an earlier run (baseline_cache.hpp) measured at
/// `timed_at` [s since the epoch]: when, and how to time it now.
std::string baseline_age_text(long long timed_at);

/// One solution: verdict line, per-case table, its kernels and hints (kernel_text.hpp; more with
/// `explain`), failure explanation, learner output excerpt.
std::string render_solution(const solution_result& r, const std::string& baseline_label, const terminal_style& style,
                            bool explain = false);

/// The sanitizer's part of render_solution: each case's runs (sanitizer_text) and where the explanation
/// stands when its runs do not say it (pending, or failed without a run). For a verdict printed before
/// its explanation ran, printed again once it has.
std::string render_explanation(const solution_result& r);

/// The closing line of a run without a CUDA device: how many solutions compiled but were not run, or
/// that none compiled. `reason` is the CUDA runtime's (probe_result::error), shown as its words only.
std::string render_no_device_note(const std::vector<solution_result>& results, const std::string& reason);

/// Closing summary: counts per verdict, fastest accepted, failures by case.
std::string render_summary(const std::vector<solution_result>& results, const terminal_style& style);

/// Why an entry was not graded, in words a learner can act on ("rename it to .cu").
std::string skip_reason_text(skip_reason reason);

/// The entries of a class folder that are not graded, one line each with its reason; "" when none.
std::string render_skipped(const std::vector<skipped_entry>& skipped);

/// The solutions an interrupt left ungraded (nothing is recorded for them); "" when none.
std::string render_not_graded(const std::vector<std::string>& not_graded);

/// Colours a verdict's short name.
std::string coloured_verdict(verdict v, const terminal_style& style);

} // namespace judge
