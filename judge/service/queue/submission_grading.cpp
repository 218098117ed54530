#include "judge/service/queue/submission_grading.hpp"

#include "judge/grading/interrupt.hpp"

#include <fmt/format.h>

#include <fstream>

namespace judge::service {

namespace fs = std::filesystem;

// Names were checked when it was accepted.
fs::path stage_submission(const submission& s, const fs::path& scratch) {
  const fs::path dir = scratch / ("submission-" + std::to_string(s.id));
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const source_file& f : s.files) {
    std::ofstream out(dir / f.name, std::ios::binary);
    out << f.content;
    if (!out.flush()) throw std::runtime_error("cannot write " + (dir / f.name).string());
  }
  return dir;
}

solution_entry submission_entry(const submission& s, const fs::path& staged) {
  const bool one_file = s.files.size() == 1 && fs::path(s.files.front().name).extension() == ".cu";
  return {one_file ? staged / s.files.front().name : staged, submission_display(s),
          "submission-" + std::to_string(s.id)};
}

std::string submission_display(const submission& s) { return "submission " + std::to_string(s.id); }

std::string gpu_label(const device_info& d) {
  if (d.name.empty()) return "";
  return d.uuid.empty() ? d.name : d.uuid + " " + d.name;
}

std::string describe_phases(const run_phases& phases) {
  std::string out;
  for (const auto& [phase, seconds] : phases)
    out += fmt::format("{}{} {:.2f} s", out.empty() ? "" : ", ", phase, seconds);
  return out;
}

run_phases grade_submissions(const std::vector<submission>& batch, const grading_setup& setup,
                             const std::function<void(const submission&, const graded&)>& on_graded) {
  run_phases phases;
  if (batch.empty()) return phases;
  std::vector<fs::path> dirs;
  std::vector<bool> told(batch.size(), false);
  auto tell = [&](std::size_t i, graded g) {
    told[i] = true;
    on_graded(batch[i], g);
  };
  try {
    run_request request;
    request.problems_root = setup.problems_root;
    request.testcases_root = setup.testcases_root;
    request.problem = batch.front().problem;
    for (const submission& s : batch) {
      dirs.push_back(stage_submission(s, setup.scratch));
      request.solutions.push_back(submission_entry(s, dirs.back()));
    }
    request.compile_only = setup.compile_only;
    request.compile_jobs = 1;
    request.grading.cpu_threads = setup.cpu_threads;
    request.grading.strict = setup.strict;
    // The verdict is stored as soon as it is decided; the explanation of a failure waits until the GPU
    // has nothing to grade (workers.hpp), rather than holding the next submission of the batch.
    request.grading.sanitizer.on_failure = setup.explain_failures;
    request.explain_later = true;
    request.devices = setup.devices;
    request.store = setup.db;
    // Each result is settled as it comes: the first submission of a batch does not wait for the last.
    const result_sink settle_as_it_comes = [&](const solution_result& r) {
      if (g_interrupted) return;
      for (std::size_t i = 0; i < batch.size(); ++i)
        if (!told[i] && r.path == request.solutions[i].display) {
          graded g;
          g.result = r;
          g.result->author = batch[i].account;
          tell(i, g);
        }
    };
    phases = grade_solutions(request, settle_as_it_comes, nullptr).phases;
  } catch (const std::exception& e) {
    for (std::size_t i = 0; i < batch.size(); ++i)
      if (!told[i]) tell(i, g_interrupted ? graded{std::nullopt, "", true} : graded{std::nullopt, e.what(), false});
  }
  // What has no result was cut short (an interrupt): nothing is known about it.
  for (std::size_t i = 0; i < batch.size(); ++i)
    if (!told[i]) tell(i, graded{std::nullopt, "", true});
  std::error_code ignored;
  for (const fs::path& dir : dirs) fs::remove_all(dir, ignored);
  return phases;
}

graded grade_submission(const submission& s, const grading_setup& setup) {
  graded out;
  grade_submissions({s}, setup, [&](const submission&, const graded& g) { out = g; });
  return out;
}

state settle(submission_queue& queue, const submission& s, const graded& g, bool compile_only) {
  if (g.interrupted) return s.now;
  if (!g.failure.empty()) {
    queue.fail(s.id, g.failure);
    return state::failed;
  }
  const solution_result& r = *g.result;
  if (compile_only && r.compiled_only) {
    queue.compiled(s.id);
    return state::compiled;
  }
  // A build that failed for the judge's own reasons (not a compile error) is not the learner's fault.
  if (r.v == verdict::internal_error && !r.compiled_only && r.cases.empty() && compile_only) {
    queue.fail(s.id, r.message);
    return state::failed;
  }
  queue.finish(s.id, r, r.v != verdict::internal_error, gpu_label(r.device));
  return state::done;
}

} // namespace judge::service
