// Grading one queued submission with the judge's one grading run (grade_solutions): its files are staged
// in a folder of their own, graded as one solution, and the folder removed. The compile threads call it
// compile-only, the GPU workers to the end; settle() then moves the submission on in the queue.
#pragma once

#include "judge/grading/device_memo.hpp"
#include "judge/grading/grading_run.hpp"
#include "judge/record/grade_result.hpp"
#include "judge/service/queue/submission_queue.hpp"

#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace judge::service {

struct grading_setup {
  std::filesystem::path problems_root, testcases_root;
  std::filesystem::path db;      ///< the results store: hidden from learner code with the judge secret
  std::filesystem::path scratch; ///< where submissions are staged
  bool compile_only = false;     ///< compile (and inspect) only: the GPU worker runs it later
  /// Threads for the CPU reference; 0: all cores. The server gives each GPU worker its share, so that
  /// two workers do not each start a thread per core and slow each other down.
  unsigned cpu_threads = 0;
  /// The process's memo of its GPU, kept across batches (nullptr: probed every batch).
  device_memo* devices = nullptr;
  /// Robustness cases decide like every other case (grade_options::strict): a server's `--strict`.
  bool strict = false;
  /// A failure compute-sanitizer can explain gets its explanation planned, pending, in the result, to
  /// run after the verdict is stored (submission_explanation.hpp): the GPU workers set it.
  bool explain_failures = false;
  /// An explanation under way gives way once it is true (sanitize.hpp's sanitizer_options::give_way).
  const std::atomic<bool>* give_way = nullptr;
};

struct graded {
  std::optional<solution_result> result; ///< its author is the account, its path "submission <id>"
  std::string failure;                   ///< the judge could not grade it (a broken problem, a full disk)
  bool interrupted = false;              ///< stopped (SIGTERM): nothing is known; it goes back to the queue
};

/// The submission's files in a folder of their own under `scratch` (submission-<id>, made anew), as
/// grading and explaining it read them; returns the folder.
std::filesystem::path stage_submission(const submission& s, const std::filesystem::path& scratch);
/// The submission staged in `staged` as a grading run takes it, named "submission <id>": its source is its
/// one .cu file when it has just that (keyed in the compile cache by its content alone, as `judge run`
/// keys a file, so that the same source compiled before, by any account or route, is not compiled again),
/// else the folder.
solution_entry submission_entry(const submission& s, const std::filesystem::path& staged);
/// The name a submission's result goes by in a grading run: "submission <id>".
std::string submission_display(const submission& s);

/// Grades `s` as `setup` says. Never throws for the submission's own faults (they are its result).
graded grade_submission(const submission& s, const grading_setup& setup);
/// Grades `batch` (submissions of one problem) in one grading run, so the baseline is timed once, and
/// tells `on_graded` of each as soon as it is graded; each is told exactly once. Returns the run's phases
/// (empty when it failed), which a worker logs.
run_phases grade_submissions(const std::vector<submission>& batch, const grading_setup& setup,
                             const std::function<void(const submission&, const graded&)>& on_graded);

/// Moves `s` on after grade_submission: failed with why; compiled (when compile-only and it compiled);
/// else done, its result recorded in the results store unless it was not graded (internal error, as
/// `judge run` records it). An interrupted one is left where it is for recover(). Returns the state it
/// is now in.
state settle(submission_queue& queue, const submission& s, const graded& g, bool compile_only);

/// "problem 0.10 s, baseline 0.02 s, runner start 0.48 s, ...": a batch's phases for the server's log.
std::string describe_phases(const run_phases& phases);

/// "GPU-8f3e... NVIDIA H200" for the queue's `gpu` column; "" without a device.
std::string gpu_label(const device_info& d);

} // namespace judge::service
