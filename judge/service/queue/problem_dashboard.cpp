#include "judge/service/queue/problem_dashboard.hpp"

#include "judge/base/utc_time.hpp"
#include "judge/course/course_time.hpp"

#include <algorithm>
#include <set>

namespace judge::service {

namespace {
std::size_t outcome_index(const std::string& outcome) {
  auto named = [](const std::string& name) { return std::find(outcome_names.begin(), outcome_names.end(), name); };
  auto it = named(outcome);
  // A verdict this judge does not know (a store written by a later one) is counted as the judge's own
  // failure rather than dropped.
  if (it == outcome_names.end()) it = named("IE");
  return static_cast<std::size_t>(it - outcome_names.begin());
}
} // namespace

std::string outcome_of(const submission& s) {
  if (s.now == state::failed) return "failed";
  if (s.now != state::done) return "waiting";
  // The result document's verdict: "NR" for a solution compiled but not run (record/record_json.hpp).
  return s.result ? s.result->value("verdict", "IE") : "IE";
}

std::int64_t seconds_since(const std::string& utc, std::int64_t now) {
  const std::optional<std::int64_t> then = course::parse_utc(utc);
  return then ? std::max<std::int64_t>(0, now - *then) : 0;
}

std::vector<waiting_submission> aged(const std::vector<line_place>& line, std::int64_t now) {
  std::vector<waiting_submission> out;
  // A submission given back to the queue keeps when it was first taken: only a held one's counts.
  for (const line_place& p : line)
    out.push_back({p, seconds_since(p.s.submitted_at, now), p.position == 0 ? seconds_since(p.s.started_at, now) : 0});
  return out;
}

queue_overview load_overview(submission_queue& queue) {
  return {queue.tally(), aged(queue.line(), epoch_seconds_now())};
}

problem_dashboard build_dashboard(const std::string& problem, std::vector<submission> of_problem,
                                  const std::vector<line_place>& line, std::int64_t now) {
  problem_dashboard d;
  d.problem = problem;
  d.submissions = std::move(of_problem);
  std::set<std::string> seen;
  // Newest first: the first of an account's submissions met is its latest.
  for (const submission& s : d.submissions) {
    const std::size_t k = outcome_index(outcome_of(s));
    ++d.all[k];
    if (seen.insert(s.account).second) ++d.latest[k];
  }
  d.accounts = seen.size();
  for (waiting_submission& w : aged(line, now))
    if (w.place.s.problem == problem) d.line.push_back(std::move(w));
  return d;
}

problem_dashboard load_dashboard(submission_queue& queue, const std::string& problem) {
  std::vector<submission> submissions = queue.of_problem(problem);
  const std::vector<line_place> line = queue.line();
  return build_dashboard(problem, std::move(submissions), line, epoch_seconds_now());
}

} // namespace judge::service
