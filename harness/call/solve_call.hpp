// One call of the learner's solve() and what the harness observes around it. Checked calls, warm-up
// calls and timed samples all go through here.
#pragma once

#include "harness/call/process_watch.hpp"
#include "harness/call/runner_context.hpp"
#include "harness/call/solve_abi.h"

#include <string>
#include <vector>

namespace judge_harness {

struct solve_observation {
  /// The CUDA error solve() caused, "cudaErrorX: text (after solve())", or the reset message; empty
  /// when none.
  std::string error;
  /// The error is sticky or solve() reset the device: nothing more can run in this process.
  bool context_lost = false;
  double host_ms = 0.0;                      ///< [ms] host wall time of solve() plus the synchronisation after it
  std::vector<std::string> stray_threads;    ///< threads solve() started that still run
  std::vector<loaded_library> banned_loaded; ///< banned libraries loaded in this process
};

/// "solve() loaded a banned library<when>: FILE (NAME) ...; this problem asks for your own kernels".
std::string banned_library_message(const std::vector<loaded_library>& loaded, const std::string& when);
/// "solve() left N thread(s) running<when>; join every thread before solve() returns".
std::string stray_threads_message(const std::vector<std::string>& threads, const std::string& when);

/// Makes `solve` (dlsym'd from the learner's shared object) the solve() every call_solve() calls. Throws
/// std::invalid_argument for a null pointer.
void bind_learner_solve(judge_solve_fn solve);

/// The work one call issues: the bound solve() through the problem's shim (checked calls everywhere,
/// and timed calls of the judge's own baseline), or a replay of recorded device work (timed calls of a
/// solution, in the replaying runner, which holds no learner host code).
class call_work {
public:
  virtual ~call_work() = default;
  /// Issues the call's work; returns why it could not, in words, or "". The device is synchronised by
  /// the caller.
  virtual std::string issue(void* const* buffers, const int* sizes, const float* scalars) = 0;
  /// Puts back, untimed, the device state the call expects to find when it begins: nothing for solve()
  /// itself, which carries its own state from call to call; for a replay, the state solve() found when
  /// the recorded call began. Returns why it could not, in words, or "".
  virtual std::string before_sample(void* const* buffers) {
    (void)buffers;
    return "";
  }
  /// Called once before the first timed call, after the judge's buffers of the timing exist: a replay
  /// allocates the solution's memory here, so that what that leaves too little of is the solution's
  /// (replay_refusal), never the judge's. Nothing for solve() itself.
  virtual void prepare_for_timing() {}
};

/// The bound solve(), with the work recorder's learner flag set while it runs.
call_work& learner_solve_work();

enum class call_kind {
  checked,       ///< not timed
  timed_warm_l2, ///< timed, with whatever the previous work left in L2
  timed_cold_l2, ///< timed, after an L2 flush
};

/// Issues `work` with (buffers, sizes, scalars), then synchronises the device and looks for errors, a device reset,
/// banned libraries and stray threads. A timed call is bracketed by `context.timer`, whose result the
/// caller then reads; its L2 flush is enqueued here, where the timing method needs it (before a
/// synchronisation for CUPTI; right before the start event for events, to hide the launch latency).
/// The inputs must be ready (enqueued on the legacy stream) and the device error-free. Throws
/// cuda_error only for failures of the harness's own CUDA calls.
solve_observation call_solve(call_work& work, void* const* buffers, const int* sizes, const float* scalars,
                             runner_context& context, call_kind kind);

} // namespace judge_harness
