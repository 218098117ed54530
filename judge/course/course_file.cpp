#include "judge/course/course_file.hpp"

#include "judge/base/utc_time.hpp"
#include "judge/course/course_time.hpp"
#include "judge/problem/problem.hpp"
#include "judge/problem/spec_yaml.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace judge::course {

namespace {
using spec_yaml::fields;
using spec_yaml::reader;

std::int64_t moment(const reader& in, const YAML::Node& node, const std::string& field) {
  const std::string text = in.text(node, field);
  const auto seconds = parse_utc(text);
  if (!seconds) {
    const bool bare_date = text.size() == 10 && text[4] == '-' && text[7] == '-';
    in.fail_field(node, field,
                  fmt::format("expected a time as {}, got {}{}", utc_format, spec_yaml::describe(node),
                              bare_date ? " (give the hour too: a bare date would mean 00:00, the start of that day)"
                                        : ""));
  }
  return *seconds;
}

double percent(const reader& in, const YAML::Node& node, const std::string& field) {
  const double value = in.number(node, field);
  if (!(value >= 0 && value <= 100))
    in.fail_field(node, field, "expected a percentage from 0 to 100, got " + spec_yaml::describe(node));
  return value;
}

std::string name_of(const reader& in, const YAML::Node& node, const std::string& field, const char* what) {
  const std::string name = in.text(node, field);
  if (!plain_name(name))
    in.fail_field(node, field,
                  fmt::format("{} cannot name {}: give letters, digits, _ . -, starting with a letter or a digit",
                              spec_yaml::describe(node), what));
  return name;
}

late_rule read_late(const reader& in, const YAML::Node& node, const std::string& field) {
  const fields f = in.mapping(node, field, {"policy", "penalty_per_day", "floor"});
  late_rule rule;
  if (const YAML::Node* p = f.find("policy"))
    rule.policy = in.word<late_policy>(*p, field + ".policy", "late policy",
                                       {{"refuse", late_policy::refuse}, {"accept", late_policy::accept}});
  for (const char* key : {"penalty_per_day", "floor"}) {
    const YAML::Node* v = f.find(key);
    if (!v) continue;
    const std::string full = field + "." + key;
    if (rule.policy != late_policy::accept)
      in.fail_field(*v, full, "applies only to late submissions that are accepted: add 'policy: accept'");
    (std::string(key) == "floor" ? rule.floor : rule.penalty_per_day) = percent(in, *v, full);
  }
  return rule;
}

board_rule read_board(const reader& in, const YAML::Node& node, const std::string& field) {
  const fields f = in.mapping(node, field, {"public", "names"});
  board_rule rule;
  if (const YAML::Node* p = f.find("public")) rule.is_public = in.boolean(*p, field + ".public");
  if (const YAML::Node* n = f.find("names"))
    rule.names = in.word<board_names>(*n, field + ".names", "way of naming people",
                                      {{"pseudonym", board_names::pseudonym}, {"name", board_names::name}});
  return rule;
}

assignment read_assignment(const reader& file_in, const YAML::Node& node, const std::string& field,
                           const std::vector<std::string>& known) {
  const fields f =
      file_in.mapping(node, field, {"name", "title", "problems", "release", "deadline", "late", "extensions", "board"});
  assignment a;
  a.line = node.Mark().line + 1;
  a.name = name_of(file_in, file_in.required(f, field, "name", "how URLs and `judge gradebook` name it"),
                   field + ".name", "an assignment");
  const reader in = file_in.within("assignment '" + a.name + "'");
  if (const YAML::Node* t = f.find("title")) a.title = in.text(*t, "title");
  const YAML::Node& problems = in.required(f, "", "problems", "the problems it groups");
  a.problems = in.text_list(problems, "problems");
  if (a.problems.empty()) in.fail_field(problems, "problems", "expected at least one problem, got none");
  for (std::size_t i = 0; i < a.problems.size(); ++i) {
    const std::string& p = a.problems[i];
    const std::string at = "problems[" + std::to_string(i) + "]";
    if (std::find(known.begin(), known.end(), p) == known.end())
      in.fail_field(problems[i], at,
                    fmt::format("no problem called '{}' (the problems here: {})", p, spec_yaml::join_list(known)));
    if (std::find(a.problems.begin(), a.problems.begin() + static_cast<std::ptrdiff_t>(i), p) !=
        a.problems.begin() + static_cast<std::ptrdiff_t>(i))
      in.fail_field(problems[i], at, "'" + p + "' is listed twice");
  }
  if (const YAML::Node* r = f.find("release")) a.release = moment(in, *r, "release");
  const YAML::Node& deadline = in.required(f, "", "deadline", "when submissions stop being in time, " +
                                                                  std::string(utc_format));
  a.deadline = moment(in, deadline, "deadline");
  if (a.deadline <= a.release)
    in.fail_field(deadline, "deadline", "it is not after the release (" + utc_text(a.release) + ")");
  if (const YAML::Node* l = f.find("late")) a.late = read_late(in, *l, "late");
  if (const YAML::Node* e = f.find("extensions")) {
    if (!e->IsNull() && !e->IsMap())
      in.fail_field(*e, "extensions", "expected a mapping of accounts to deadlines (alice: 2026-09-20T23:59Z), got " +
                                          spec_yaml::describe(*e));
    for (auto it = e->begin(); e->IsMap() && it != e->end(); ++it) {
      const std::string who = name_of(in, it->first, "extensions", "an account");
      const std::string at = "extensions." + who;
      if (a.extensions.count(who)) in.fail_field(it->first, at, "'" + who + "' has two extensions");
      const std::int64_t until = moment(in, it->second, at);
      if (until <= a.deadline)
        in.fail_field(it->second, at, "it is not after the assignment's deadline, so it would extend nothing");
      a.extensions[who] = until;
    }
  }
  if (const YAML::Node* b = f.find("board")) a.board = read_board(in, *b, "board");
  return a;
}
} // namespace

bool plain_name(const std::string& name) {
  if (name.empty() || name.size() > 64 || !std::isalnum(static_cast<unsigned char>(name[0]))) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
  });
}

course_spec load_course(const std::filesystem::path& file, const std::vector<std::string>& problems) {
  course_spec c;
  c.file = spec_yaml::shown_path(file);
  const reader in(c.file);
  const YAML::Node doc = spec_yaml::load(file, c.file);
  const fields top = in.mapping(doc, "", {"course", "students", "assignments"});
  if (const YAML::Node* t = top.find("course")) c.title = in.text(*t, "course");
  if (const YAML::Node* s = top.find("students")) {
    if (!s->IsNull() && !s->IsMap())
      in.fail_field(*s, "students", "expected a mapping of accounts to full names (alice: Alice Liddell), got " +
                                        spec_yaml::describe(*s));
    for (auto it = s->begin(); s->IsMap() && it != s->end(); ++it) {
      const std::string who = name_of(in, it->first, "students", "an account");
      if (c.students.count(who)) in.fail_field(it->first, "students." + who, "'" + who + "' is listed twice");
      c.students[who] = in.text(it->second, "students." + who);
    }
  }
  const YAML::Node& list = in.required(top, "", "assignments", "the course's assignments");
  if (!list.IsSequence() || list.size() == 0)
    in.fail_field(list, "assignments", "expected a non-empty list of assignments, got " + spec_yaml::describe(list));
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string field = "assignments[" + std::to_string(i) + "]";
    assignment a = read_assignment(in, list[i], field, problems);
    if (const assignment* before = c.find(a.name))
      in.fail_field(list[i]["name"], field + ".name",
                    fmt::format("'{}' is already the name of the assignment on line {}", a.name, before->line));
    c.assignments.push_back(std::move(a));
  }
  return c;
}

} // namespace judge::course
