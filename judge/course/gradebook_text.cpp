// The gradebook as CSV for a grade import, and as a table for a terminal.
#include "judge/course/gradebook.hpp"

#include "judge/course/course_time.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace judge::course {

namespace {
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string cell_text(const gradebook_cell& c) {
  if (c.submissions == 0) return "-";
  std::string out = !c.graded ? "not graded" : c.verdict == "AC" ? fmt::format("AC {:.1f}", c.score) : c.verdict;
  out += fmt::format(" ({})", c.submissions);
  if (c.late_seconds > 0) out += fmt::format(" late {}d", days_late(c.late_seconds));
  return out;
}

std::size_t characters(const std::string& text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}
} // namespace

std::string gradebook_csv(const gradebook& g) {
  std::string out = "student_id,name";
  for (const std::string& p : g.problems) out += "," + csv_field(p);
  for (const std::string& p : g.problems)
    out += fmt::format(",{0}_verdict,{0}_submissions,{0}_late_days", csv_field(p));
  out += "\r\n";
  for (const gradebook_row& r : g.rows) {
    out += csv_field(r.account) + "," + csv_field(r.name);
    for (const gradebook_cell& c : r.cells) out += c.graded ? fmt::format(",{:.2f}", c.score) : std::string(",");
    for (const gradebook_cell& c : r.cells)
      out += fmt::format(",{},{},{}", c.graded ? c.verdict : "", c.submissions,
                         c.graded ? std::to_string(days_late(c.late_seconds)) : "");
    out += "\r\n";
  }
  return out;
}

std::string gradebook_text(const gradebook& g) {
  if (g.rows.empty()) return fmt::format("{}: no students and no submissions yet.\n", g.assignment);
  std::vector<std::size_t> widths = {7, 4};
  for (const std::string& p : g.problems) widths.push_back(std::max<std::size_t>(characters(p), 10));
  for (const gradebook_row& r : g.rows) {
    widths[0] = std::max(widths[0], characters(r.account));
    widths[1] = std::max(widths[1], characters(r.name));
    for (std::size_t k = 0; k < r.cells.size(); ++k) widths[k + 2] = std::max(widths[k + 2], cell_text(r.cells[k]).size());
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (std::size_t k = 0; k < cells.size(); ++k)
      out += cells[k] + std::string(widths[k] - std::min(widths[k], characters(cells[k])) + 2, ' ');
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::vector<std::string> header = {"student", "name"};
  header.insert(header.end(), g.problems.begin(), g.problems.end());
  std::string out = line(header);
  std::size_t silent = 0;
  for (const gradebook_row& r : g.rows) {
    std::vector<std::string> cells = {r.account, r.name};
    for (const gradebook_cell& c : r.cells) cells.push_back(cell_text(c));
    out += line(cells);
    if (!r.submitted()) ++silent;
  }
  out += fmt::format("{} student(s), {} of them never submitted; a cell: best counted verdict (and score after any "
                     "late penalty), (submissions), late by whole days begun\n",
                     g.rows.size(), silent);
  return out;
}

} // namespace judge::course
