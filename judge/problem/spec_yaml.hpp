// Reading the YAML spec files (problem.yaml, cases.yaml) field by field, so that every complaint names
// the file, the line and the field: `problems/matmul/problem.yaml:12: field 'tolerance.atol': ...`.
// Private to problem.cpp and cases.cpp, and to the course file's reader (course/course_file.cpp).
#pragma once

#include "judge/problem/problem.hpp"

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace judge::spec_yaml {

/// How messages show `file`: its last three path components ("problems/matmul/problem.yaml").
std::string shown_path(const std::filesystem::path& file);

/// `path` made absolute and normal, without a trailing separator.
std::filesystem::path clean_path(const std::filesystem::path& path);

/// Reads and parses `file`; an unreadable file or a YAML syntax error becomes spec_error
/// "<shown>:<line>: ...".
YAML::Node load(const std::filesystem::path& file, const std::string& shown);

/// A scalar quoted for a message (`"abc"`), or what the node is instead: `a list`, `a mapping`, `nothing`.
std::string describe(const YAML::Node& node);

/// The fields of one mapping, after their names were checked.
class fields {
public:
  /// The value of `key`, or nullptr when the mapping does not have it.
  const YAML::Node* find(const std::string& key) const;
  /// The mapping itself (for the line of a message about a missing field).
  const YAML::Node& node() const { return m_node; }
  /// Keys in file order.
  const std::vector<std::string>& keys() const { return m_keys; }

private:
  friend class reader;
  YAML::Node m_node;
  std::vector<std::string> m_keys;
  std::map<std::string, YAML::Node> m_values;
};

/// Reads typed values out of one file's nodes. Every read either returns a valid value or throws
/// spec_error "<file>:<line>: [<context>: ]field '<field>': <what is wrong>".
class reader {
public:
  explicit reader(std::string shown_file)
      : m_file(std::move(shown_file)), m_empty_values(std::make_shared<std::vector<std::pair<YAML::Node, int>>>()) {}

  /// A reader whose messages say `context` (e.g. "case 'big'") before the field.
  reader within(const std::string& context) const;

  /// "<file>:<line>" of `at` (1-based), or "<file>" when the node has no position.
  std::string where(const YAML::Node& at) const;
  /// Throws spec_error "<where(at)>: [<context>: ]<message>".
  [[noreturn]] void fail(const YAML::Node& at, const std::string& message) const;
  /// Throws spec_error "<where(at)>: [<context>: ]field '<field>': <message>".
  [[noreturn]] void fail_field(const YAML::Node& at, const std::string& field, const std::string& message) const;

  /// `node` as a mapping whose keys are all in `allowed` (each at most once); `field` is its dotted
  /// name ("" for the whole file). An empty value (`tolerance:`) reads as an empty mapping.
  fields mapping(const YAML::Node& node, const std::string& field, const std::vector<std::string>& allowed,
                 const std::string& allowed_note = "") const;
  /// The value of `key`, or a spec_error "field '<field>.<key>' is required (<why>)".
  const YAML::Node& required(const fields& f, const std::string& field, const std::string& key,
                             const std::string& why) const;

  double number(const YAML::Node& node, const std::string& field) const;
  std::int64_t integer(const YAML::Node& node, const std::string& field) const;
  std::uint64_t unsigned_integer(const YAML::Node& node, const std::string& field) const;
  bool boolean(const YAML::Node& node, const std::string& field) const;
  /// A non-empty scalar.
  std::string text(const YAML::Node& node, const std::string& field) const;
  /// A list of non-empty scalars; an empty value reads as an empty list.
  std::vector<std::string> text_list(const YAML::Node& node, const std::string& field) const;
  /// The value named by a scalar that must be one of `words`; otherwise "unknown <what> "x" (known: a, b)".
  template <typename Value>
  Value word(const YAML::Node& node, const std::string& field, const std::string& what,
             const std::vector<std::pair<std::string, Value>>& words) const;
  /// `{kind: uniform, low: L, high: H}` and the other kinds of docs/problem-format.md.
  judge_data::distribution distribution(const YAML::Node& node, const std::string& field) const;

private:
  std::string m_file;
  std::string m_context;
  // yaml-cpp places an empty value (`atol:`) on the line after its key; mapping() remembers the key's
  // line for each such value so that messages point at the key. Shared with the readers within().
  std::shared_ptr<std::vector<std::pair<YAML::Node, int>>> m_empty_values;
};

/// "a.b" from "a" and "b"; just "b" when `parent` is empty.
std::string join_field(const std::string& parent, const std::string& key);

/// "a, b, c"
std::string join_list(const std::vector<std::string>& items);

template <typename Value>
Value reader::word(const YAML::Node& node, const std::string& field, const std::string& what,
                   const std::vector<std::pair<std::string, Value>>& words) const {
  const std::string given = text(node, field);
  std::vector<std::string> known;
  for (const auto& [name, value] : words) {
    if (given == name) return value;
    known.push_back(name);
  }
  fail_field(node, field, "unknown " + what + " " + describe(node) + " (known: " + join_list(known) + ")");
}

} // namespace judge::spec_yaml
