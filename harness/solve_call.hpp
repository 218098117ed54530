// One call of the learner's solve() and what the harness observes around it. Checked calls, warm-up
// calls and timed samples all go through here.
#pragma once

#include "runner_context.hpp"

#include <string>
#include <vector>

namespace judge_harness {

struct solve_observation {
  /// The CUDA error solve() caused, "cudaErrorX: text (after solve())", or the reset message; empty
  /// when none.
  std::string error;
  /// The error is sticky or solve() reset the device: nothing more can run in this process.
  bool context_lost = false;
  double host_ms = 0.0; ///< [ms] host wall time of solve() plus the synchronisation after it
  std::vector<std::string> stray_threads;    ///< threads solve() started that still run
  std::vector<loaded_library> banned_loaded; ///< banned libraries loaded in this process
};

/// Calls solve(buffers, sizes), then synchronises the device and looks for errors, a device reset,
/// banned libraries and stray threads. With `timed`, brackets the call with `context.timer` (the
/// caller enqueues the L2 flush and reads the timer's result). The device must be idle and error-free
/// before, and the inputs ready. Throws only for failures of the harness's own bookkeeping.
solve_observation call_solve(void* const* buffers, const int* sizes, runner_context& context, bool timed);

} // namespace judge_harness
