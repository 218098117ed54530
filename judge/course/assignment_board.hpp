// An assignment's boards: for each of its problems the leaderboard (report/leaderboard.hpp, the one
// ranking code) of the results that count for the assignment: made in time, or late where its policy
// accepts them, their score then less the late penalty. Names are the accounts' or, for a public board
// that says so, their pseudonyms (pseudonym.hpp), with paths and content hashes left out.
#pragma once

#include "judge/course/course.hpp"
#include "judge/report/leaderboard.hpp"
#include "judge/store/handed_in.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace judge::course {

/// A ranked result that was late: shown under its board, so the penalty is never silent.
struct late_entry {
  std::string author;            ///< as the board shows it
  std::int64_t late_seconds = 0; ///< [s]
  double kept = 1;               ///< [0, 1] of its score
};

struct problem_boards {
  std::string problem;
  std::vector<leaderboard> boards; ///< one per GPU model, as build_leaderboard() makes them
  std::vector<late_entry> late;    ///< the ranked entries that were late, in rank order
};

/// How a board names an account: the name itself, or a pseudonym.
using namer = std::function<std::string(const std::string& account)>;

/// The boards of `a`'s problems from the queue's rows (`handed_in`, of those problems) and the results
/// they were recorded as (`recorded`: id → result, results_db::recorded_for). `pseudonymous`: names came
/// from a pseudonym, so paths and hashes, which name files, are left out too.
std::vector<problem_boards> build_assignment_boards(const assignment& a, const std::vector<store::handed_in>& handed_in,
                                                    const std::vector<std::pair<std::int64_t, solution_result>>& recorded,
                                                    const namer& shown_name, bool pseudonymous);

/// Every board of the assignment read from the store: its rows, its results, the boards.
std::vector<problem_boards> assignment_boards_from(results_db& store, const assignment& a, const namer& shown_name,
                                                   bool pseudonymous);

} // namespace judge::course
