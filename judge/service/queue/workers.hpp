// The two kinds of worker behind the queue. Compile threads, in the server, build queued submissions on
// the CPU cores ahead of the GPUs. A GPU worker is a process of its own (`judge worker --gpu UUID`),
// started by the server with CUDA_VISIBLE_DEVICES=UUID, so that every process it starts (the device
// probe, the runners) sees that one GPU; it holds the GPU's lock for its runs (grade_solutions takes
// it) and talks to the server through the queue in the store only, so the same worker can be started
// elsewhere on the host (or by a batch system) without the server.
#pragma once

#include "judge/service/queue/gpu_list.hpp"
#include "judge/service/queue/submission_grading.hpp"

#include <atomic>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace judge::service {

class service_state;

using log_fn = std::function<void(const std::string&)>;

/// One compile thread's loop until `shared.stopping()`: claim, compile (or, with `no_gpu`, grade to the
/// end: no GPU worker will, so the submission ends as `judge run` ends without a GPU), settle.
void compile_loop(service_state& shared, const std::string& name, bool no_gpu, const grading_setup& setup,
                  const log_fn& log);

/// A GPU worker's loop until `stop` (the `judge worker` command): claim a compiled submission and up to
/// `max_batch` - 1 more of the same problem (fair order), grade them in one run (the baseline is timed
/// once per run, not once per submission), settle each as it is graded, its verdict published at once and
/// a failure's explanation left pending; with nothing compiled to grade, claim the oldest pending
/// explanation and run it (submission_explanation.hpp), one at a time, giving way (its tool's run killed,
/// the explanation pending again) as soon as a submission is compiled. What it holds when stopped goes
/// back to the queue. Polls every `poll_seconds` (a query of an indexed table: 20 a second cost nothing, and
/// a submission waits for its GPU no longer than that).
void gpu_worker_loop(const std::filesystem::path& db, const grading_setup& setup, const std::string& uuid,
                     const std::atomic<bool>& stop, const log_fn& log, std::size_t max_batch = 16,
                     double poll_seconds = 0.05);

/// Starts and watches the worker process of `gpu` (restarting it when it dies, after a pause) until
/// `stop`; then sends it SIGTERM and waits. `command` is the judge's argv prefix to which
/// "worker --gpu UUID --db PATH" is added (and "--strict" with `strict`: the server's grading is strict).
std::thread supervise_gpu_worker(const gpu_slot& gpu, std::vector<std::string> command, const std::filesystem::path& db,
                                 unsigned cpu_threads, bool strict, const std::atomic<bool>& stop, const log_fn& log);

/// "gpu GPU-8f3e...": the worker's name in the queue.
std::string gpu_worker_name(const std::string& uuid);

} // namespace judge::service
