#include "judge/problem/cases.hpp"

#include "judge/base/usage_error.hpp"
#include "judge/problem/exact_compare.hpp"
#include "judge/problem/spec_yaml.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <optional>

namespace judge {
namespace {

namespace fs = std::filesystem;
using spec_yaml::fields;
using spec_yaml::join_list;
using spec_yaml::reader;

constexpr std::int64_t max_size_value = 2147483647; // sizes reach solve() as int
// A buffer this large cannot be a sensible test: no GPU has the memory, and the judge would try to
// generate it on the CPU as well.
constexpr std::int64_t max_buffer_bytes = std::int64_t{1} << 40;

bool is_case_name(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
  });
}

/// The buffers a case fills: inputs and inout buffers.
std::vector<std::string> input_names(const problem_spec& spec) {
  std::vector<std::string> names;
  for (const parameter* p : spec.buffers())
    if (p->is_generated()) names.push_back(p->name);
  return names;
}

const char* kind_of(const parameter& p) {
  switch (p.role) {
  case param_role::input:
    return "an input buffer";
  case param_role::output:
    return "an output buffer";
  case param_role::inout:
    return "an inout buffer";
  case param_role::size:
    return "a size parameter";
  case param_role::scalar:
    return "a scalar parameter";
  }
  return "?";
}

/// Before the generic check of `field`'s keys, explains why an output or a size cannot appear in it.
void reject_non_inputs(const reader& in, const YAML::Node& node, const std::string& field, const problem_spec& spec,
                       const std::string& what) {
  if (!node.IsMap()) return; // reader::mapping says what it should be
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string key = it->first.Scalar();
    for (const auto& p : spec.signature)
      if (p.name == key && !p.is_generated())
        in.fail_field(it->first, field + "." + key,
                      key + " is " + kind_of(p) + "; only input and inout buffers (" + join_list(input_names(spec)) +
                          ") " + what);
  }
}

const parameter& parameter_named(const problem_spec& spec, const std::string& name) {
  return *std::find_if(spec.signature.begin(), spec.signature.end(),
                       [&](const parameter& p) { return p.name == name; });
}

/// One element of explicit data or of expected values: a float, or for an int32 buffer a whole number
/// an int32 holds.
double read_element(const reader& in, const YAML::Node& value, const std::string& field, const parameter& p) {
  const double v = in.number(value, field);
  if (p.type == judge_data::element_type::int32) {
    if (!std::isfinite(v) || v != std::floor(v) || v < INT32_MIN || v > INT32_MAX)
      in.fail_field(value, field,
                    p.name + " is an int buffer: " + value.Scalar() + " is not a whole number an int32 holds");
  } else if (std::isfinite(v) && std::fabs(v) > FLT_MAX) {
    in.fail_field(value, field, value.Scalar() + " does not fit in a float");
  }
  return v;
}

void read_scalars(const reader& in, const YAML::Node& case_node, const YAML::Node* node, const problem_spec& spec,
                  test_case& c) {
  const std::vector<std::string> names = spec.scalar_names();
  if (node) {
    const fields f = in.mapping(*node, "scalars", names);
    for (const std::string& name : f.keys()) {
      const YAML::Node& value = *f.find(name);
      const double v = in.number(value, "scalars." + name);
      if (!std::isfinite(v) || std::fabs(v) > FLT_MAX)
        in.fail_field(value, "scalars." + name, "must be a finite number that a float can hold, got " + value.Scalar());
      c.scalars[name] = v;
    }
  }
  for (const std::string& name : names) {
    if (c.scalars.count(name)) continue;
    const parameter& p = parameter_named(spec, name);
    if (!p.default_value)
      in.fail(case_node, "scalar parameter " + name +
                             " has no value: give it in the case's 'scalars' or a default in problem.yaml's signature");
    c.scalars[name] = *p.default_value;
  }
}

std::string shape_of(const parameter& p, const size_values& sizes) {
  std::string texts, values;
  for (const auto& extent : p.shape) {
    texts += (texts.empty() ? "" : ", ") + extent.text();
    values += (values.empty() ? "" : "x") + std::to_string(extent.evaluate(sizes));
  }
  return "[" + texts + "] = " + values;
}

void read_sizes(const reader& in, const YAML::Node& node, const problem_spec& spec, test_case& c) {
  const std::vector<std::string> names = spec.size_names();
  const fields f = in.mapping(node, "sizes", names);
  for (const auto& name : names) {
    const YAML::Node& value = in.required(f, "sizes", name, "every size parameter needs a value: " + join_list(names));
    const std::int64_t v = in.integer(value, "sizes." + name);
    if (v < 1 || v > max_size_value)
      in.fail_field(value, "sizes." + name,
                    "must be from 1 to " + std::to_string(max_size_value) + " (it reaches solve() as an int), got " +
                        std::to_string(v));
    c.sizes[name] = v;
  }
}

/// `values` must be a list of exactly `count` numbers, the elements of buffer `name` (a case's `data` or
/// `expected`); the error names the buffer's element count and shape.
void check_buffer_values(const reader& in, const YAML::Node& values, const std::string& field, const problem_spec& spec,
                         const std::string& name, std::int64_t count, const test_case& c) {
  if (!values.IsSequence())
    in.fail_field(values, field, "expected a list of numbers, got " + spec_yaml::describe(values));
  if (static_cast<std::int64_t>(values.size()) == count) return;
  const auto param =
      std::find_if(spec.signature.begin(), spec.signature.end(), [&](const parameter& p) { return p.name == name; });
  in.fail_field(values, field,
                "has " + std::to_string(values.size()) + " values, but buffer " + name + " has " +
                    std::to_string(count) + (count == 1 ? " element" : " elements") + " (shape " +
                    shape_of(*param, c.sizes) + ")");
}

void read_data(const reader& in, const YAML::Node& node, const problem_spec& spec,
               const std::map<std::string, std::int64_t>& counts, test_case& c) {
  reject_non_inputs(in, node, "data", spec, "take explicit data");
  const fields f = in.mapping(node, "data", input_names(spec));
  for (const auto& name : f.keys()) {
    const YAML::Node& values = *f.find(name);
    const std::string field = "data." + name;
    check_buffer_values(in, values, field, spec, name, counts.at(name), c);
    const parameter& p = parameter_named(spec, name);
    std::vector<float>& out = c.data[name];
    out.reserve(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      const double v = read_element(in, values[i], field + "[" + std::to_string(i) + "]", p);
      out.push_back(p.type == judge_data::element_type::int32 ? judge_data::word_of_int(static_cast<std::int32_t>(v))
                                                              : static_cast<float>(v));
    }
  }
}

void read_expected(const reader& in, const YAML::Node& node, const problem_spec& spec,
                   const std::map<std::string, std::int64_t>& counts, const test_case& c,
                   std::map<std::string, std::vector<double>>& expected) {
  std::vector<std::string> outputs, missing;
  for (const parameter* p : spec.buffers()) {
    if (p->is_result()) outputs.push_back(p->name);
    if (p->is_generated() && !c.data.count(p->name)) missing.push_back(p->name);
  }
  // Generated inputs are not written in the file, so an expected output next to them could not be
  // checked by whoever reads it: expected outputs belong to a worked example.
  if (!missing.empty())
    in.fail_field(node, "expected",
                  "expected outputs need explicit data for every input buffer; " + join_list(missing) +
                      (missing.size() == 1 ? " has" : " have") + " none");
  if (node.IsMap())
    for (auto it = node.begin(); it != node.end(); ++it) {
      const std::string key = it->first.Scalar();
      for (const auto& p : spec.signature)
        if (p.name == key && !p.is_result())
          in.fail_field(it->first, "expected." + key,
                        key + " is " + kind_of(p) + "; only output and inout buffers (" + join_list(outputs) +
                            ") have expected values");
    }
  const fields f = in.mapping(node, "expected", outputs);
  for (const auto& name : f.keys()) {
    const YAML::Node& values = *f.find(name);
    const std::string field = "expected." + name;
    check_buffer_values(in, values, field, spec, name, counts.at(name), c);
    const parameter& p = parameter_named(spec, name);
    std::vector<double>& out = expected[name];
    for (std::size_t i = 0; i < values.size(); ++i)
      out.push_back(read_element(in, values[i], field + "[" + std::to_string(i) + "]", p));
  }
}

void read_distributions(const reader& in, const fields& f, const problem_spec& spec, test_case& c) {
  // A case's `distribution` replaces every buffer's default; `buffers.<name>` replaces one.
  const YAML::Node* all_node = f.find("distribution");
  std::optional<judge_data::distribution> all;
  if (all_node) all = in.distribution(*all_node, "distribution");
  for (const auto& name : input_names(spec)) {
    const auto own = spec.buffer_distributions.find(name);
    c.distributions[name] = all ? *all : own == spec.buffer_distributions.end() ? spec.input_distribution : own->second;
  }
  const auto check_type = [&](const YAML::Node& at, const std::string& field, const std::string& name) {
    const parameter& p = parameter_named(spec, name);
    if (!judge_data::applies_to(c.distributions[name].kind, p.type))
      in.fail_field(at, field,
                    "int buffer " + name + " cannot take the " + judge_wire::to_string(c.distributions[name].kind) +
                        " distribution, which gives fractions (use uniform_int, constant or ramp)");
  };

  const YAML::Node* buffers = f.find("buffers");
  if (!buffers) {
    if (all_node)
      for (const auto& name : input_names(spec)) check_type(*all_node, "distribution", name);
    return;
  }
  reject_non_inputs(in, *buffers, "buffers", spec, "take a distribution");
  const fields per_buffer = in.mapping(*buffers, "buffers", input_names(spec));
  for (const auto& name : per_buffer.keys()) {
    const YAML::Node& node = *per_buffer.find(name);
    c.distributions[name] = in.distribution(node, "buffers." + name);
    check_type(node, "buffers." + name, name);
    // Explicit data replaces generation, so a distribution next to it would silently do nothing.
    if (const YAML::Node* data = f.find("data"); data && data->IsMap() && (*data)[name].IsDefined())
      in.fail_field(node, "buffers." + name,
                    "buffer " + name + " has explicit data, which this distribution would not change");
  }
  if (all_node)
    for (const auto& name : input_names(spec))
      if (!per_buffer.find(name)) check_type(*all_node, "distribution", name);
}

/// A spike placed at an index must find that index in its buffer: one past the end is a typo, not the last.
void check_spike_places(const reader& in, const YAML::Node& case_node, const fields& f,
                        const std::map<std::string, std::int64_t>& counts, const test_case& c) {
  for (const auto& [name, d] : c.distributions) {
    if (d.kind != judge_data::distribution_kind::spike || d.more[1] < 0 || c.data.count(name)) continue;
    if (d.more[1] < static_cast<double>(counts.at(name))) continue;
    const std::string what = fmt::format("buffer {} has {} elements, so the spike's index {} is past its end (use "
                                         "'at: last' for the last element)",
                                         name, counts.at(name), d.more[1]);
    const YAML::Node* buffers = f.find("buffers");
    if (buffers && buffers->IsMap() && (*buffers)[name].IsDefined())
      in.fail_field((*buffers)[name]["at"], "buffers." + name + ".at", what);
    if (const YAML::Node* all = f.find("distribution")) in.fail_field((*all)["at"], "distribution.at", what);
    in.fail(case_node, what + "; the distribution is problem.yaml's");
  }
}

tolerance_override read_tolerance_override(const reader& in, const YAML::Node& node) {
  const fields f = in.mapping(node, "tolerance", {"atol", "rtol", "sum"});
  if (f.keys().empty())
    in.fail_field(node, "tolerance", "give atol, rtol or both (and sum: false to leave out the problem's sum rule)");
  tolerance_override t;
  for (const char* key : {"atol", "rtol"})
    if (const YAML::Node* v = f.find(key)) {
      const double value = in.number(*v, std::string("tolerance.") + key);
      if (!std::isfinite(value) || value < 0)
        in.fail_field(*v, std::string("tolerance.") + key, "must be a finite number >= 0, got " + v->Scalar());
      (std::string(key) == "atol" ? t.atol : t.rtol) = value;
    }
  if (const YAML::Node* v = f.find("sum")) t.sum = in.boolean(*v, "tolerance.sum");
  return t;
}

/// `compare`, `tolerance` and `beyond_limits`: how the case is judged, and whether it decides anything.
void read_judging(const reader& in, const fields& f, const problem_spec& spec, test_case& c) {
  const YAML::Node* compare = f.find("compare");
  if (compare)
    c.compare = in.word<comparison>(*compare, "compare", "comparison",
                                    {{"tolerance", comparison::tolerance}, {"exact", comparison::exact}});
  if (const YAML::Node* v = f.find("tolerance")) {
    if (c.compare == comparison::exact)
      in.fail_field(*v, "tolerance", "the case says 'compare: exact', which allows no tolerance: keep one of the two");
    c.tolerance = read_tolerance_override(in, *v);
  }
  if (c.compare == comparison::exact)
    if (const std::string why = why_not_exact(spec, c); !why.empty()) in.fail_field(*compare, "compare", why);
  if (const YAML::Node* v = f.find("beyond_limits")) c.beyond_limits = in.text(*v, "beyond_limits");
}

test_case read_case(const reader& file_in, const YAML::Node& node, const std::string& field, const problem_spec& spec,
                    bool timed_default) {
  const fields f = file_in.mapping(node, field,
                                   {"name", "visibility", "sizes", "scalars", "seed", "timed", "data", "expected",
                                    "distribution", "buffers", "tolerance", "compare", "beyond_limits"});
  test_case c;
  c.line = node.Mark().line + 1;
  const YAML::Node& name = file_in.required(f, field, "name", "unique in the file, from the letters A-Z a-z 0-9 _ . -");
  c.name = file_in.text(name, field + ".name");
  if (!is_case_name(c.name))
    file_in.fail_field(name, field + ".name",
                       spec_yaml::describe(name) + " may use only the letters A-Z a-z 0-9 _ . - (it names files)");

  const reader in = file_in.within("case " + c.name);
  if (const YAML::Node* v = f.find("visibility"))
    c.visibility = in.word<visibility>(*v, "visibility", "visibility",
                                       {{"sample", visibility::sample}, {"hidden", visibility::hidden}});
  if (!spec.size_names().empty() || f.find("sizes"))
    read_sizes(in, in.required(f, "", "sizes", "the value of every size parameter"), spec, c);
  read_scalars(in, node, f.find("scalars"), spec, c);
  c.seed = in.unsigned_integer(in.required(f, "", "seed", "an integer from which the inputs are generated"), "seed");
  c.timed = timed_default;
  if (const YAML::Node* v = f.find("timed")) c.timed = in.boolean(*v, "timed");

  std::map<std::string, std::int64_t> counts;
  try {
    counts = buffer_counts(spec, c);
  } catch (const spec_error& e) {
    file_in.fail(node, e.what());
  }
  read_distributions(in, f, spec, c);
  if (const YAML::Node* v = f.find("data")) read_data(in, *v, spec, counts, c);
  if (const YAML::Node* v = f.find("expected")) read_expected(in, *v, spec, counts, c, c.expected);
  check_spike_places(in, node, f, counts, c);
  read_judging(in, f, spec, c);
  return c;
}

} // namespace

std::vector<test_case> load_cases(const problem_spec& spec, const std::filesystem::path& cases_file) {
  const std::string shown = spec_yaml::shown_path(cases_file);
  if (!fs::is_regular_file(cases_file))
    throw spec_error(shown + " does not exist: problem '" + spec.name +
                     "' needs its test cases there (docs/problem-format.md describes the file)");
  const reader in(shown);
  const YAML::Node doc = spec_yaml::load(cases_file, shown);
  const fields top = in.mapping(doc, "", {"defaults", "cases"});

  bool timed_default = true;
  if (const YAML::Node* defaults = top.find("defaults")) {
    const fields f = in.mapping(*defaults, "defaults", {"timed"});
    if (const YAML::Node* v = f.find("timed")) timed_default = in.boolean(*v, "defaults.timed");
  }

  const YAML::Node& list = in.required(top, "", "cases", "the list of test cases");
  if (!list.IsSequence() || list.size() == 0)
    in.fail_field(list, "cases", "expected a non-empty list of cases, got " + spec_yaml::describe(list));
  std::vector<test_case> cases;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string field = "cases[" + std::to_string(i) + "]";
    cases.push_back(read_case(in, list[i], field, spec, timed_default));
    for (std::size_t j = 0; j < i; ++j)
      if (cases[j].name == cases[i].name)
        in.fail_field(list[i]["name"], field + ".name",
                      "'" + cases[i].name + "' is already the name of the case on line " +
                          std::to_string(cases[j].line));
  }
  return cases;
}

std::size_t index_of_case(const problem_spec& spec, const std::vector<test_case>& cases, const std::string& name) {
  for (std::size_t i = 0; i < cases.size(); ++i)
    if (cases[i].name == name) return i;
  throw usage_error("problem " + spec.name + " has no case named '" + name + "' (see `judge cases " + spec.name + "`)");
}

std::map<std::string, std::int64_t> buffer_counts(const problem_spec& spec, const test_case& c) {
  std::map<std::string, std::int64_t> counts;
  for (const parameter* p : spec.buffers()) {
    const std::string prefix = "case " + c.name + ": buffer " + p->name;
    std::int64_t count = 1;
    for (const auto& extent : p->shape) {
      std::int64_t value = 0;
      try {
        value = extent.evaluate(c.sizes);
      } catch (const size_expr_error& e) {
        throw spec_error(prefix + ": " + e.what());
      }
      if (value < 1)
        throw spec_error(prefix + " has the extent " + extent.text() + " = " + std::to_string(value) +
                         "; every extent must be at least 1");
      if (__builtin_mul_overflow(count, value, &count))
        throw spec_error(prefix + " would need more than " + std::to_string(INT64_MAX) + " bytes");
    }
    std::int64_t bytes = 0;
    if (__builtin_mul_overflow(count, std::int64_t{sizeof(float)}, &bytes))
      throw spec_error(prefix + " would need more than " + std::to_string(INT64_MAX) + " bytes");
    if (bytes >= max_buffer_bytes)
      throw spec_error(prefix + " would need " + std::to_string(bytes) + " bytes (the limit is " +
                       std::to_string(max_buffer_bytes) + " bytes; use smaller sizes)");
    counts[p->name] = count;
  }
  return counts;
}

std::string shape_text(const problem_spec& spec, const test_case& c) {
  std::string text;
  for (const auto& name : spec.size_names()) {
    auto it = c.sizes.find(name);
    text += (text.empty() ? "" : "x") + (it == c.sizes.end() ? std::string("?") : std::to_string(it->second));
  }
  return text;
}

} // namespace judge
