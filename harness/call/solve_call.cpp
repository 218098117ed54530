#include "harness/call/solve_call.hpp"

#include "harness/call/process_watch.hpp"
#include "harness/call/solve_abi.h"
#include "harness/record/work_recorder.hpp"

#include <chrono>
#include <stdexcept>

namespace judge_harness {
namespace {

// The learner's solve(), set once by the runner after loading their shared object. Process-wide like
// the object it points into, and kept here so that every call site (checked calls, warm-up, timed
// samples) goes through call_solve() unchanged.
judge_solve_fn learner_solve = nullptr;

// noexcept: an exception escaping the learner's solve() ends the process through std::terminate, as
// it would in the learner's own program, and the judge sees a crash rather than a harness failure.
void invoke_learner_solve(void* const* buffers, const int* sizes, const float* scalars) noexcept {
  const learner_scope learner;
  judge_call_solve(learner_solve, buffers, sizes, scalars);
}

class bound_solve_work final : public call_work {
public:
  std::string issue(void* const* buffers, const int* sizes, const float* scalars) override {
    if (!learner_solve) throw std::logic_error("call_solve before bind_learner_solve");
    invoke_learner_solve(buffers, sizes, scalars);
    return "";
  }
};

} // namespace

void bind_learner_solve(judge_solve_fn solve) {
  if (!solve) throw std::invalid_argument("bind_learner_solve: no solve()");
  learner_solve = solve;
}

call_work& learner_solve_work() {
  static bound_solve_work work;
  return work;
}

solve_observation call_solve(call_work& work, void* const* buffers, const int* sizes, const float* scalars,
                             runner_context& context, call_kind kind) {
  using clock = std::chrono::steady_clock;
  solve_observation seen;
  const bool timed = kind != call_kind::checked;
  const bool flush = kind == call_kind::timed_cold_l2;
  if (timed && context.timer.method() == timing_method::cupti) {
    if (flush) context.flush.enqueue(nullptr);
    // The marker's end, stamped by the GPU's own clock, opens the window: everything after it is the
    // call's. (Comparing GPU records with host timestamps instead let the flush slip into the window.)
    context.timer.enqueue_marker();
    JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
  } else {
    JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
    if (flush) context.flush.enqueue(nullptr);
  }

  if (timed) context.timer.before_solve();
  const clock::time_point host_begin = clock::now();
  const std::string not_issued = work.issue(buffers, sizes, scalars);
  if (timed) context.timer.after_return();
  const cudaError_t synchronised = cudaDeviceSynchronize();
  const clock::time_point host_end = clock::now();
  if (timed) context.timer.after_sync();
  const cudaError_t last = cudaGetLastError();
  seen.host_ms = std::chrono::duration<double, std::milli>(host_end - host_begin).count();

  const cudaError_t status = synchronised != cudaSuccess ? synchronised : last;
  if (!not_issued.empty() && status == cudaSuccess) {
    seen.error = not_issued;
    return seen;
  }
  if (status != cudaSuccess) {
    seen.error = describe(status) + " (after solve())";
    seen.context_lost = context_is_corrupted();
    return seen;
  }
  if (context.sentinel.device_was_reset()) {
    seen.error = "solve() reset the device (cudaDeviceReset): every allocation of the process, the judge's "
                 "buffers included, was destroyed; solve() must leave the device as it found it";
    seen.context_lost = true;
    return seen;
  }
  seen.banned_loaded = loaded_banned_libraries(context.options.banned);
  seen.stray_threads = threads_started_between(context.harness_threads, list_threads());
  return seen;
}

std::string banned_library_message(const std::vector<loaded_library>& loaded, const std::string& when) {
  std::string text = "solve() loaded a banned library" + when + ":";
  for (const loaded_library& l : loaded) text += " " + l.file + " (" + l.banned_name + ")";
  return text + "; this problem asks for your own kernels";
}

std::string stray_threads_message(const std::vector<std::string>& threads, const std::string& when) {
  return "solve() left " + std::to_string(threads.size()) + " thread(s) running" + when +
         "; join every thread before solve() returns";
}

} // namespace judge_harness
