// The course file (YAML; docs/instructors.md, "The course file"): read field by field with the problem
// files' strict reader (problem/spec_yaml.hpp), so that every mistake is one spec_error naming the file,
// the line and the field: `course.yaml:14: assignment 'a1': field 'deadline': ...`.
#pragma once

#include "judge/course/course.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace judge::course {

/// Reads and checks `file`. `problems` are the problems that exist: an assignment naming another is an
/// error. Throws spec_error (problem/problem.hpp).
course_spec load_course(const std::filesystem::path& file, const std::vector<std::string>& problems);

/// Whether `name` may name an assignment or an account: letters, digits, `_ . -`, starting with a letter
/// or a digit, at most 64 characters.
bool plain_name(const std::string& name);

} // namespace judge::course
