#include "judge/problem/author.hpp"

#include "judge/problem/verdicts.hpp"

#include <cctype>
#include <sstream>
#include <string_view>

namespace judge {

namespace {

constexpr int header_lines = 20;

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool starts_with_word(std::string_view s, std::string_view word) {
  if (s.size() < word.size()) return false;
  for (std::size_t i = 0; i < word.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) != word[i]) return false;
  return true;
}

/// NAME from `// author: NAME`, or "" when `line` is not such a line.
std::string author_in(std::string_view line) {
  line = trimmed(line);
  if (line.substr(0, 2) != "//") return "";
  line = trimmed(line.substr(2));
  if (!starts_with_word(line, "author")) return "";
  line = trimmed(line.substr(6));
  if (line.empty() || line.front() != ':') return "";
  return std::string(trimmed(line.substr(1)));
}

std::string declared_author(const std::string& source_text) {
  std::istringstream in(source_text);
  std::string line;
  for (int n = 0; n < header_lines && std::getline(in, line); ++n) {
    std::string name = author_in(line);
    if (!name.empty()) return name;
  }
  return "";
}

} // namespace

std::string author_from(const std::filesystem::path& solution, const std::string& source_text) {
  std::error_code ignored; // a path that cannot be examined is not a folder
  std::filesystem::path full = std::filesystem::absolute(solution).lexically_normal();
  if (!full.has_filename()) full = full.parent_path(); // "alice/" names the folder alice
  if (std::filesystem::is_directory(full, ignored)) return full.filename().string();

  const std::filesystem::path folder = full.parent_path();
  const std::filesystem::path problem_folder = folder.parent_path();
  const std::string student = folder.filename().string();
  if (problem_folder.parent_path().filename() == "solutions" && !problem_folder.filename().empty() &&
      !student.empty() && !verdict_from_folder(student))
    return student;
  if (std::string name = declared_author(source_text); !name.empty()) return name;
  return full.stem().string();
}

} // namespace judge
