// --junit FILE: a grading run as JUnit XML, so a course's CI shows each case as a test.
#pragma once

#include "judge/record/grade_result.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace judge {

/// The JUnit XML document: one <testsuite> per solution, one <testcase> per case (classname
/// "<problem>.<solution file stem>", name the case name, time the median in seconds when timed);
/// <failure> for a WA/RTE/TLE case, <error> for a CE/IE one. A solution that failed without a failing case
/// (a compile error, an interrupted run) gets one extra testcase, "compile" or "solution", carrying it.
std::string junit_xml(const std::vector<solution_result>& results);

/// Writes junit_xml(results) to `path` atomically (temporary file, then rename), creating its folder.
/// Throws std::runtime_error naming the path.
void write_junit(const std::filesystem::path& path, const std::vector<solution_result>& results);

} // namespace judge
