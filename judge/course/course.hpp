// A course as data (docs/instructors.md, "The course file"): assignments, each grouping problems, with a
// release time, a deadline, a late policy, per-student extensions and how its public board names people.
// Moments are seconds since the epoch (UTC); course_file.hpp reads them from the course file.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace judge::course {

/// What happens to a submission made after its student's deadline.
enum class late_policy {
  refuse, ///< refused with a message; nothing is queued
  accept, ///< queued and graded, marked late; its score loses the penalty on the assignment's board and gradebook
};

struct late_rule {
  late_policy policy = late_policy::refuse;
  double penalty_per_day = 0; ///< [% of the score] lost per day late, every day begun counting whole
  double floor = 0;           ///< [% of the score] the least a late result keeps
};

/// How people appear on the assignment's public board.
enum class board_names {
  pseudonym, ///< a stable pseudonym per student (pseudonym.hpp), never the name
  name,      ///< the account's name
};

struct board_rule {
  bool is_public = false; ///< /public/board/<assignment> answers without signing in
  board_names names = board_names::pseudonym;
};

struct assignment {
  std::string name;  ///< [A-Za-z0-9_.-]+, unique in the course: its URLs and `judge gradebook` name it
  std::string title; ///< "" for none
  std::vector<std::string> problems;
  std::int64_t release = 0;  ///< [s since the epoch] students see its problems from then on
  std::int64_t deadline = 0; ///< [s since the epoch] in time until then, inclusive
  late_rule late;
  std::map<std::string, std::int64_t> extensions; ///< account name → its own deadline [s since the epoch]
  board_rule board;
  int line = 0; ///< where the course file defines it, for messages

  bool has(const std::string& problem) const;
};

struct course_spec {
  std::string title;                          ///< "" for none
  std::vector<assignment> assignments;        ///< in file order
  std::map<std::string, std::string> students; ///< account name → the full name the gradebook shows
  std::string file;                           ///< the file it was read from, as messages show it

  /// The assignment called `name`, or nullptr.
  const assignment* find(const std::string& name) const;
  /// The assignments that hold `problem`, in file order.
  std::vector<const assignment*> holding(const std::string& problem) const;
  /// The full name of `account` from `students`, or the account's name.
  std::string full_name(const std::string& account) const;
};

} // namespace judge::course
