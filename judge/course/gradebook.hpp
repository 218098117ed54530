// An assignment's gradebook: the roster × problems grid, each student's best counted result per problem
// (its verdict, its score less the late penalty), how many submissions they made, whether the counted one
// was late, and the students who never submitted. Built from the queue's rows (store/handed_in.hpp) and
// the course as it is now; `judge gradebook` and the instructors' page show it, as CSV for a learning
// management system's grade import (docs/instructors.md) or as a table.
#pragma once

#include "judge/course/course.hpp"
#include "judge/store/handed_in.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace judge::course {

/// One student's standing on one problem.
struct gradebook_cell {
  std::size_t submissions = 0;      ///< every submission to the problem, counted or not, graded or not
  std::size_t late_submissions = 0; ///< of those, made after the student's deadline
  bool graded = false;              ///< some counted submission has a result; the fields below are its
  std::string verdict;              ///< "AC", "WA", "CE", "RTE", "TLE", "IE", "NR" (compiled, not run)
  double score = 0;                 ///< [the problem's unit] after the late penalty; 0 unless accepted
  std::string unit;                 ///< "GFLOPS", "GB/s"
  std::int64_t late_seconds = 0;    ///< [s] how late the counted submission was; 0 in time
  double kept = 1;                  ///< [0, 1] what the late penalty left of its score
  std::int64_t submission = 0;      ///< its id (its page: /submissions/<id>)
};

struct gradebook_row {
  std::string account;
  std::string name; ///< the course file's full name for it, else the account's name
  std::vector<gradebook_cell> cells; ///< one per problem of the assignment, in its order
  bool submitted() const;            ///< anything at all, to any of the problems
};

struct gradebook {
  std::string assignment;
  std::vector<std::string> problems;
  std::vector<gradebook_row> rows; ///< every student of the roster, by account name; others who submitted after
};

/// The gradebook of `a`: `students` (the roster's student accounts) × its problems, from `handed_in`
/// (the queue's rows for its problems). A submission counts when it was in time, or late where the
/// policy accepts it (its score then multiplied by kept_fraction()); the best counted one is shown:
/// accepted by score, then compiled but not run, then WA, TLE, RTE, CE, IE. Instructors' submissions
/// are left out.
gradebook build_gradebook(const course_spec& course, const assignment& a, const std::vector<std::string>& students,
                          const std::vector<std::string>& instructors, const std::vector<store::handed_in>& handed_in);

/// RFC 4180 CSV, CRLF line ends: student_id,name, one score column per problem (named after it: empty when
/// nothing counted was graded, 0 when it was not accepted), then per problem <p>_verdict,
/// <p>_submissions, <p>_late_days (of the counted submission: 0 in time).
std::string gradebook_csv(const gradebook& g);

/// The same for a terminal: a row per student, a column per problem ("AC 1234.5", "WA", "-" for none;
/// "(3)" submissions, "late 2d").
std::string gradebook_text(const gradebook& g);

} // namespace judge::course
