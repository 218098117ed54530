// An instructor's view of one problem on the server: every submission made to it (compile errors and
// those compiled but not run included), where its unfinished ones stand in the queue and for how long,
// and how the verdicts fall, over every submission and over each account's latest. The API's dashboard
// document and the dashboard page show the same facts (access_policy.hpp: instructors only).
#pragma once

#include "judge/service/queue/submission_queue.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace judge::service {

/// What a submission came to, as the dashboard counts it: a result's verdict ("AC", "WA", "TLE", "RTE",
/// "CE", "IE", or "NR": compiled, not run, on a server without a GPU), "failed" (the judge could not
/// grade it), or "waiting" (not graded yet). In the order the dashboard shows them.
inline constexpr std::array<const char*, 9> outcome_names = {"AC", "NR", "WA",     "TLE",    "RTE",
                                                             "CE", "IE", "failed", "waiting"};

/// The outcome of `s`: one of outcome_names.
std::string outcome_of(const submission& s);

/// How many submissions came to each outcome, indexed as outcome_names.
using outcome_counts = std::array<std::size_t, outcome_names.size()>;

/// A submission not yet done or failed, as the dashboard shows it.
struct waiting_submission {
  line_place place;
  std::int64_t age_seconds = 0;  ///< [s] since it was submitted
  std::int64_t held_seconds = 0; ///< [s] since a worker took it; 0 while it waits
};

struct problem_dashboard {
  std::string problem;
  std::vector<submission> submissions;  ///< every one, newest first, rejudged copies included (no files)
  std::vector<waiting_submission> line; ///< the problem's unfinished ones, in the queue's order (queue::line())
  outcome_counts all{};                 ///< over every submission
  /// Over each account's latest submission: its newest, so a rejudged copy stands for its student
  /// until they submit again.
  outcome_counts latest{};
  std::size_t accounts = 0;
};

/// `line` (as submission_queue::line() orders it) with each one's ages at `now` [s since the epoch].
std::vector<waiting_submission> aged(const std::vector<line_place>& line, std::int64_t now);

/// What the dashboards' first page shows: every problem's tally and the server's whole queue.
struct queue_overview {
  std::vector<problem_tally> tallies;
  std::vector<waiting_submission> line;
};

/// The overview, read from `queue` now.
queue_overview load_overview(submission_queue& queue);

/// The dashboard of `problem` from its submissions (`of_problem`, newest first) and the server's whole
/// queue (`line`, as submission_queue::line() orders it), its ages taken at `now` [s since the epoch].
problem_dashboard build_dashboard(const std::string& problem, std::vector<submission> of_problem,
                                  const std::vector<line_place>& line, std::int64_t now);

/// The same, read from `queue` now.
problem_dashboard load_dashboard(submission_queue& queue, const std::string& problem);

/// [s] from the ISO-8601 UTC moment `utc` to `now`; 0 when `utc` is empty or unreadable.
std::int64_t seconds_since(const std::string& utc, std::int64_t now);

} // namespace judge::service
