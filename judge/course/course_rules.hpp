// What a course decides, as pure functions of the course, a student and a moment (tested by tables, used
// by the server, the boards and the gradebook alike): whether a problem is released, a student's
// deadline, what becomes of a submission made now, and what a late result keeps of its score.
// Instructors are not held to any of it; the server's access policy (service/queue/access_policy.hpp)
// says so before it asks.
#pragma once

#include "judge/course/course.hpp"

#include <cstdint>
#include <string>

namespace judge::course {

/// Whether students may see `problem` at `now` [s since the epoch]: a problem in no assignment always;
/// one in assignments once any of them is released. `course` may be null (no course: always).
bool problem_released(const course_spec* course, const std::string& problem, std::int64_t now);

/// Whether students may see the assignment (its problems, its boards) at `now`.
bool released(const assignment& a, std::int64_t now);

/// `account`'s deadline for `a`: their extension, else the assignment's.
std::int64_t deadline_for(const assignment& a, const std::string& account);

/// What becomes of a submission to a problem, made at one moment by one student.
struct hand_in {
  enum class outcome {
    free,     ///< the problem is in no assignment: as without a course
    in_time,  ///< before the student's deadline of an assignment holding it
    late,     ///< after every such deadline, and an assignment accepts it late: queued, marked late
    refused,  ///< after every such deadline, and none accepts it late: not queued
    unreleased ///< no assignment holding it is released: to the student the problem does not exist
  };
  outcome what = outcome::free;
  std::string assignment;        ///< the one it counts for ("" when free or unreleased); the most lenient
  std::int64_t late_seconds = 0; ///< [s] past that assignment's deadline for the student; 0 unless late
  std::string refusal;           ///< refused: why, in the student's words
};

/// The submission of `problem` by `account` at `now`, under `course` (null: free). Of the released
/// assignments holding the problem, one where it is in time wins; else the accepting one where it is
/// least late.
hand_in judge_hand_in(const course_spec* course, const std::string& problem, const std::string& account,
                      std::int64_t now);

/// [0, 1] what a result late by `late_seconds` keeps of its score: 1 when in time, else 1 less the
/// penalty per day for every day begun, never below the floor.
double kept_fraction(const late_rule& rule, std::int64_t late_seconds);

/// How a submission made at `submitted_at` by `account` stands in assignment `a`, judged by the course
/// as it is now (an extension granted afterwards counts).
struct standing {
  bool counts = true;            ///< in time, or late where the policy accepts it
  std::int64_t late_seconds = 0; ///< [s] past the student's deadline; 0 in time
  double kept = 1;               ///< kept_fraction() of it; 0 where it does not count
};
standing standing_in(const assignment& a, const std::string& account, std::int64_t submitted_at);

} // namespace judge::course
