#include "judge/service/queue/submission_explanation.hpp"

#include "judge/grading/grading_run.hpp"
#include "judge/grading/interrupt.hpp"
#include "judge/record/record_json.hpp"

#include <filesystem>

namespace judge::service {

namespace fs = std::filesystem;

namespace {
/// `s`'s stored result with its explanation failed for `why`; only the explanation when the stored
/// result cannot be read (then nothing else of it is rewritten).
solution_result explanation_failed(const submission& s, const std::string& why) {
  solution_result r;
  try {
    if (s.result) r = record_from_json(*s.result);
  } catch (const std::exception&) {
    r = {};
  }
  r.sanitizer.state = explanation_state::failed;
  r.sanitizer.detail = why;
  return r;
}
} // namespace

graded explain_submission(const submission& s, const grading_setup& setup) {
  graded out;
  fs::path dir;
  try {
    if (!s.result) throw std::runtime_error("it has no stored result to explain");
    run_request request;
    request.problems_root = setup.problems_root;
    request.testcases_root = setup.testcases_root;
    request.problem = s.problem;
    request.to_explain.push_back(record_from_json(*s.result));
    dir = stage_submission(s, setup.scratch);
    request.solutions.push_back(submission_entry(s, dir));
    request.compile_jobs = 1;
    request.grading.cpu_threads = setup.cpu_threads;
    request.grading.strict = setup.strict;
    request.grading.sanitizer.give_way = setup.give_way;
    request.devices = setup.devices;
    request.store = setup.db;
    const run_outcome outcome = grade_solutions(request, nullptr, nullptr);
    // Not explained to the end (stopped, or it gave way): nothing is known yet.
    if (outcome.results.empty() || outcome.results.front().sanitizer.state == explanation_state::pending)
      out.interrupted = true;
    else
      out.result = outcome.results.front();
  } catch (const std::exception& e) {
    if (g_interrupted)
      out.interrupted = true;
    else
      out.failure = e.what();
  }
  std::error_code ignored;
  if (!dir.empty()) fs::remove_all(dir, ignored);
  return out;
}

explanation_state settle_explanation(submission_queue& queue, const submission& s, const graded& g) {
  if (g.interrupted) return explanation_state::pending;
  const solution_result r = g.result ? *g.result : explanation_failed(s, g.failure);
  queue.explained(s.id, r);
  return r.sanitizer.state;
}

} // namespace judge::service
