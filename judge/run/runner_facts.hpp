// What was observed of one checked call and of the timed samples of a case: the facts a verdict is
// decided from (grading/verdict.hpp), gathered by the runner session and the comparison.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace judge {

/// The first element outside tolerance, and how many there are.
struct mismatch {
  std::string buffer;
  std::int64_t count = 0;        ///< elements outside tolerance
  std::int64_t total = 0;        ///< elements checked
  std::int64_t first_index = -1; ///< flat index of the first wrong element
  std::vector<std::int64_t> first_coords; ///< the same index per dimension (row, col)
  double expected = 0;
  float got = 0;
  std::string against = "CPU reference"; ///< which reference disagreed
};

/// Everything observed about one checked call of solve() on one case.
struct call_facts {
  bool reported = false;            ///< the runner reported the call at all
  std::string runner_status;        ///< "ok", "cuda_error", "banned_library", "stray_work"
  std::string runner_error;         ///< the runner's error text, if any
  bool timed_out = false;           ///< the judge stopped it at the wall-time limit
  bool runner_died = false;         ///< the process ended before reporting
  std::string death;                ///< "killed by signal 11 (SIGSEGV)", "exited with code 0", ...
  std::vector<std::string> inputs_modified;   ///< "A (first at index 17)"
  std::vector<std::string> guard_violations;  ///< "C: 12 bytes after its end"
  std::vector<std::string> banned_loaded;     ///< library names
  std::optional<mismatch> wrong;    ///< first buffer that failed the comparison
  bool output_missing = false;      ///< an output file was absent or short
  bool reference_disagrees = false; ///< the CPU and baseline references disagree: the judge's fault
};

/// Facts about the timed samples of one case.
struct timing_facts {
  bool reported = false;
  std::string status = "ok";
  std::string error; ///< the runner's error text when status is not ok
  std::int64_t mismatched_samples = 0;
  std::string first_mismatch; ///< human text: "sample 4: index 17 expected 1.0 got 0.0"
  bool timed_out = false;
  bool runner_died = false;
  std::string death;
};

} // namespace judge
