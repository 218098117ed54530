#include "judge/course/course.hpp"

#include <algorithm>

namespace judge::course {

bool assignment::has(const std::string& problem) const {
  return std::find(problems.begin(), problems.end(), problem) != problems.end();
}

const assignment* course_spec::find(const std::string& name) const {
  for (const assignment& a : assignments)
    if (a.name == name) return &a;
  return nullptr;
}

std::vector<const assignment*> course_spec::holding(const std::string& problem) const {
  std::vector<const assignment*> out;
  for (const assignment& a : assignments)
    if (a.has(problem)) out.push_back(&a);
  return out;
}

std::string course_spec::full_name(const std::string& account) const {
  const auto it = students.find(account);
  return it == students.end() ? account : it->second;
}

} // namespace judge::course
