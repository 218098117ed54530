#include "judge/problem/problem.hpp"

#include "judge/problem/spec_yaml.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

namespace judge {
namespace {

namespace fs = std::filesystem;
using spec_yaml::fields;
using spec_yaml::join_field;
using spec_yaml::join_list;
using spec_yaml::reader;

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// Names a parameter cannot have because the declaration `float* int` would not compile.
bool is_reserved_word(const std::string& s) {
  static const std::set<std::string> words{
      "auto",      "bool",    "break",    "case",     "char",     "const",     "continue", "default", "do",
      "double",    "else",    "enum",     "extern",   "float",    "for",       "goto",     "if",      "inline",
      "int",       "long",    "register", "return",   "short",    "signed",    "sizeof",   "static",  "struct",
      "switch",    "typedef", "union",    "unsigned", "void",     "volatile",  "while",    "class",   "delete",
      "new",       "this",    "true",     "false",    "template", "namespace", "operator", "private", "public",
      "protected", "virtual", "try",      "catch",    "throw",    "using",     "nullptr"};
  return words.count(s) > 0;
}

// Library names end up in linker flags (-lcublas), so they are plain words.
bool is_library_name(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '+';
  });
}

/// "const  float *" → "const float*": spacing is not part of the type.
std::string normal_type(const std::string& type) {
  std::string out;
  for (char c : type) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else if (c == '*') {
      if (!out.empty() && out.back() == ' ') out.pop_back();
      out += c;
    } else {
      out += c;
    }
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

struct type_info {
  const char* c_type;
  param_role role; ///< the role the type implies; a non-const pointer may also be inout
  judge_data::element_type element;
};

using judge_data::element_type;
const std::vector<type_info> parameter_types{{"const float*", param_role::input, element_type::float32},
                                             {"float*", param_role::output, element_type::float32},
                                             {"const int*", param_role::input, element_type::int32},
                                             {"int*", param_role::output, element_type::int32},
                                             {"int", param_role::size, element_type::int32},
                                             {"float", param_role::scalar, element_type::float32}};

std::vector<std::string> type_names() {
  std::vector<std::string> names;
  for (const auto& t : parameter_types) names.push_back(t.c_type);
  return names;
}

const char* role_phrase(param_role role) {
  switch (role) {
  case param_role::input:
    return "an input";
  case param_role::output:
    return "an output";
  case param_role::inout:
    return "an inout buffer";
  case param_role::size:
    return "a size";
  case param_role::scalar:
    return "a scalar";
  }
  return "?";
}

parameter read_parameter(const reader& in, const YAML::Node& node, const std::string& field) {
  const fields f = in.mapping(node, field, {"name", "type", "role", "shape", "initial", "default"});
  parameter p;
  p.name = in.text(in.required(f, field, "name", "the C parameter name"), field + ".name");
  if (!is_identifier(p.name) || is_reserved_word(p.name))
    in.fail_field(*f.find("name"), field + ".name", "'" + p.name + "' is not a usable C parameter name");

  const YAML::Node& type_node = in.required(f, field, "type", "one of " + join_list(type_names()));
  p.c_type = normal_type(in.text(type_node, field + ".type"));
  auto type = std::find_if(parameter_types.begin(), parameter_types.end(),
                           [&](const type_info& t) { return p.c_type == t.c_type; });
  if (type == parameter_types.end())
    in.fail_field(type_node, field + ".type",
                  "unknown type " + spec_yaml::describe(type_node) + " (known: " + join_list(type_names()) + ")");
  p.role = type->role;
  p.type = type->element;

  // The role repeats what the type says, so that a reader of the spec need not decode C; when it is
  // given it must agree. Only a non-const pointer has a choice: output (written) or inout (read, then
  // overwritten in place).
  if (const YAML::Node* role = f.find("role")) {
    const param_role named = in.word<param_role>(*role, field + ".role", "role",
                                                 {{"input", param_role::input},
                                                  {"output", param_role::output},
                                                  {"inout", param_role::inout},
                                                  {"size", param_role::size},
                                                  {"scalar", param_role::scalar}});
    const bool agrees = named == type->role || (named == param_role::inout && type->role == param_role::output);
    if (!agrees)
      in.fail_field(*role, field + ".role",
                    "'" + in.text(*role, field + ".role") + "' does not agree with type '" + p.c_type +
                        "', which makes it " + role_phrase(type->role) +
                        (type->role == param_role::output ? " (or, with role inout, an inout buffer)" : ""));
    p.role = named;
  }

  if (const YAML::Node* initial = f.find("initial")) {
    if (p.role != param_role::output)
      in.fail_field(*initial, field + ".initial",
                    "only an output buffer has an initial content; " + p.name + " is " + role_phrase(p.role));
    p.start = in.word<judge_wire::output_start>(
        *initial, field + ".initial", "initial content",
        {{"poison", judge_wire::output_start::poison}, {"zero", judge_wire::output_start::zero}});
  }
  if (const YAML::Node* value = f.find("default")) {
    if (p.role != param_role::scalar)
      in.fail_field(*value, field + ".default",
                    "only a scalar (type float) has a default value; " + p.name + " is " + role_phrase(p.role));
    const double v = in.number(*value, field + ".default");
    if (!std::isfinite(v) || std::fabs(v) > 3.4028234663852886e38)
      in.fail_field(*value, field + ".default",
                    "must be a finite number that a float can hold, got " + value->Scalar());
    p.default_value = v;
  }

  const YAML::Node* shape = f.find("shape");
  if (!p.is_buffer()) {
    if (shape)
      in.fail_field(*shape, field + ".shape",
                    std::string("a ") + (p.role == param_role::size ? "size" : "scalar") +
                        " parameter has no shape; only buffers do");
    return p;
  }
  if (!shape) in.fail(node, "field '" + field + ".shape' is required for a buffer (e.g. [M, K])");
  if (!shape->IsSequence() || shape->size() == 0)
    in.fail_field(*shape, field + ".shape",
                  "expected a non-empty list of extents such as [M, K], got " + spec_yaml::describe(*shape));
  for (std::size_t i = 0; i < shape->size(); ++i) {
    const std::string extent_field = field + ".shape[" + std::to_string(i) + "]";
    const YAML::Node extent = (*shape)[i];
    try {
      p.shape.push_back(size_expr::parse(in.text(extent, extent_field)));
    } catch (const size_expr_error& e) {
      in.fail_field(extent, extent_field, e.what());
    }
  }
  return p;
}

/// Checks that `e` only names size parameters.
void check_names(const reader& in, const YAML::Node& at, const std::string& field, const size_expr& e,
                 const std::vector<std::string>& sizes) {
  for (const auto& name : e.names())
    if (std::find(sizes.begin(), sizes.end(), name) == sizes.end())
      in.fail_field(at, field,
                    "'" + e.text() + "' uses '" + name + "', which is not a size parameter" +
                        (sizes.empty() ? " (the signature has none)" : " (size parameters: " + join_list(sizes) + ")"));
}

std::vector<parameter> read_signature(const reader& in, const YAML::Node& node) {
  if (!node.IsSequence() || node.size() == 0)
    in.fail_field(
        node, "signature",
        "expected a list of parameters such as [{name: A, type: const float*, role: input, shape: [N]}], got " +
            spec_yaml::describe(node));
  std::vector<parameter> params;
  std::vector<std::string> sizes;
  for (std::size_t i = 0; i < node.size(); ++i) {
    const std::string field = "signature[" + std::to_string(i) + "]";
    params.push_back(read_parameter(in, node[i], field));
    for (std::size_t j = 0; j < i; ++j)
      if (params[j].name == params[i].name)
        in.fail_field(node[i]["name"], field + ".name",
                      "'" + params[i].name + "' is already the name of signature[" + std::to_string(j) + "]");
    if (params[i].role == param_role::size) sizes.push_back(params[i].name);
  }

  for (std::size_t i = 0; i < params.size(); ++i)
    for (std::size_t j = 0; j < params[i].shape.size(); ++j)
      check_names(in, node[i]["shape"][j], "signature[" + std::to_string(i) + "].shape[" + std::to_string(j) + "]",
                  params[i].shape[j], sizes);
  if (std::none_of(params.begin(), params.end(), [](const parameter& p) { return p.is_result(); }))
    in.fail_field(node, "signature", "needs at least one output or inout buffer (type float* or int*)");
  return params;
}

/// Every size parameter means something: it sizes a buffer, or counts work or terms of a sum (LeetGPU's
/// spmv passes nnz, the count of a dense matrix's nonzeros, which no buffer's shape uses). One used
/// nowhere is a typo or a leftover, which a case would have to give for nothing.
void check_sizes_used(const reader& in, const YAML::Node& signature, const problem_spec& spec) {
  std::set<std::string> used;
  const auto use = [&](const size_expr& e) {
    for (const auto& name : e.names()) used.insert(name);
  };
  for (const parameter& p : spec.signature)
    for (const size_expr& extent : p.shape) use(extent);
  use(spec.flops);
  use(spec.bytes);
  if (spec.tolerance.sum) use(spec.tolerance.sum->terms);
  for (std::size_t i = 0; i < spec.signature.size(); ++i)
    if (spec.signature[i].role == param_role::size && !used.count(spec.signature[i].name))
      in.fail_field(signature[i], "signature[" + std::to_string(i) + "]",
                    "size parameter '" + spec.signature[i].name +
                        "' is not used in any buffer's shape, nor in work or tolerance.sum.terms");
}

/// A file named relative to the problem folder, which must exist.
fs::path read_file_field(const reader& in, const YAML::Node& node, const std::string& field, const fs::path& dir) {
  const fs::path relative = in.text(node, field);
  if (relative.is_absolute()) in.fail_field(node, field, "must be a path relative to the problem folder");
  const fs::path file = (dir / relative).lexically_normal();
  if (!fs::is_regular_file(file))
    in.fail_field(node, field, "file '" + spec_yaml::shown_path(file) + "' does not exist");
  return file;
}

double read_tolerance(const reader& in, const YAML::Node& node, const std::string& field) {
  const double value = in.number(node, field);
  if (!std::isfinite(value) || value < 0)
    in.fail_field(node, field, "must be a finite number >= 0, got " + node.Scalar());
  return value;
}

size_expr read_work(const reader& in, const YAML::Node& node, const std::string& field,
                    const std::vector<std::string>& sizes) {
  size_expr e;
  try {
    e = size_expr::parse(in.text(node, field));
  } catch (const size_expr_error& error) {
    in.fail_field(node, field, error.what());
  }
  check_names(in, node, field, e, sizes);
  return e;
}

/// The generated buffers (inputs and inout) of the signature, by name.
std::vector<std::string> generated_names(const problem_spec& spec) {
  std::vector<std::string> names;
  for (const parameter* p : spec.buffers())
    if (p->is_generated()) names.push_back(p->name);
  return names;
}

sum_rule read_sum_rule(const reader& in, const YAML::Node& node, const problem_spec& spec,
                       const std::vector<std::string>& sizes) {
  const fields f = in.mapping(node, "tolerance.sum", {"terms", "of", "relative", "weighted"});
  sum_rule rule;
  rule.terms = read_work(in, in.required(f, "tolerance.sum", "terms", "the most terms one output sums, such as N"),
                         "tolerance.sum.terms", sizes);
  if (const YAML::Node* v = f.find("relative")) rule.relative = in.boolean(*v, "tolerance.sum.relative");
  if (const YAML::Node* v = f.find("weighted")) {
    rule.weighted = in.boolean(*v, "tolerance.sum.weighted");
    if (rule.weighted && !f.find("of"))
      in.fail_field(*v, "tolerance.sum.weighted", "needs 'of': the buffers whose values the weights average");
  }
  if (const YAML::Node* v = f.find("of")) {
    rule.of = in.text_list(*v, "tolerance.sum.of");
    const std::vector<std::string> generated = generated_names(spec);
    for (std::size_t i = 0; i < rule.of.size(); ++i)
      if (std::find(generated.begin(), generated.end(), rule.of[i]) == generated.end())
        in.fail_field((*v)[i], "tolerance.sum.of[" + std::to_string(i) + "]",
                      "'" + rule.of[i] + "' is not an input buffer (inputs: " + join_list(generated) + ")");
  }
  if (rule.of.empty() && !rule.relative)
    in.fail_field(node, "tolerance.sum",
                  "needs 'of' (the inputs whose magnitudes bound a term, for an absolute bound) or 'relative: true' "
                  "(terms of one sign, for a relative bound)");
  return rule;
}

void read_buffer_distributions(const reader& in, const YAML::Node& node, problem_spec& spec) {
  const std::vector<std::string> generated = generated_names(spec);
  const fields f = in.mapping(node, "inputs.buffers", generated);
  for (const auto& name : f.keys())
    spec.buffer_distributions[name] = in.distribution(*f.find(name), "inputs.buffers." + name);
}

/// An int buffer without an integer distribution of its own would be filled with a float kind.
void check_distribution_types(const reader& in, const YAML::Node& doc, const problem_spec& spec) {
  for (const parameter* p : spec.buffers()) {
    if (!p->is_generated()) continue;
    const auto own = spec.buffer_distributions.find(p->name);
    const judge_data::distribution& d = own == spec.buffer_distributions.end() ? spec.input_distribution : own->second;
    if (!judge_data::applies_to(d.kind, p->type))
      in.fail(doc, "int buffer " + p->name + " would be filled from the " + judge_wire::to_string(d.kind) +
                       " distribution, which gives fractions: give it an integer one in 'inputs.buffers." + p->name +
                       "' (uniform_int, constant or ramp)");
  }
}

double read_seconds(const reader& in, const YAML::Node& node, const std::string& field) {
  const double value = in.number(node, field);
  if (!std::isfinite(value) || value <= 0)
    in.fail_field(node, field, "must be a number of seconds above 0, got " + node.Scalar());
  return value;
}

std::vector<std::string> read_libraries(const reader& in, const YAML::Node& node, const std::string& field) {
  std::vector<std::string> names = in.text_list(node, field);
  for (std::size_t i = 0; i < names.size(); ++i)
    if (!is_library_name(names[i]))
      in.fail_field(node[i], field + "[" + std::to_string(i) + "]",
                    "'" + names[i] + "' is not a library name (such as cublas, the x in libx.so)");
  return names;
}

void read_baseline(const reader& in, const YAML::Node& node, problem_spec& spec) {
  const fields f = in.mapping(node, "baseline", {"source", "label", "libraries", "is_reference"});
  if (const YAML::Node* source = f.find("source"))
    spec.baseline.source = read_file_field(in, *source, "baseline.source", spec.dir);
  if (const YAML::Node* label = f.find("label")) spec.baseline.label = in.text(*label, "baseline.label");
  if (const YAML::Node* libraries = f.find("libraries"))
    spec.baseline.libraries = read_libraries(in, *libraries, "baseline.libraries");
  if (const YAML::Node* is_reference = f.find("is_reference")) {
    spec.baseline.is_reference = in.boolean(*is_reference, "baseline.is_reference");
    if (spec.baseline.is_reference && spec.baseline.source.empty())
      in.fail_field(*is_reference, "baseline.is_reference", "is true, but baseline.source names no baseline");
  }
}

/// limits.slowest_speed and limits.min_case_seconds: a case's call limit from its work (call_limit.hpp),
/// which needs the work of the problem's speed unit, and a least limit within the most.
void read_call_limit_by_work(const reader& in, const fields& f, const problem_spec& spec, judge::limits& limits) {
  const YAML::Node* speed = f.find("slowest_speed");
  const YAML::Node* least = f.find("min_case_seconds");
  if (speed) {
    const double value = in.number(*speed, "limits.slowest_speed");
    if (!std::isfinite(value) || value <= 0)
      in.fail_field(*speed, "limits.slowest_speed",
                    fmt::format("must be a speed in {} above 0, got {}", unit_name(spec.unit), speed->Scalar()));
    if (spec.unit_work().text() == "0")
      in.fail_field(*speed, "limits.slowest_speed",
                    fmt::format("needs the work it is a speed of: the problem's speed unit is {}, and work.{} is not "
                                "given",
                                unit_name(spec.unit), work_field(spec.unit)));
    limits.slowest_speed = value;
  }
  if (least) {
    if (!speed)
      in.fail_field(*least, "limits.min_case_seconds",
                    "is the least of a limit made from a case's work, and limits.slowest_speed, its speed, is not "
                    "given");
    limits.min_case_seconds = read_seconds(in, *least, "limits.min_case_seconds");
  }
  if (speed && limits.min_case_seconds > limits.case_seconds)
    in.fail_field(least ? *least : *speed, "limits.min_case_seconds",
                  fmt::format("the least a case gives a call ({:g} s) is more than the most, limits.case_seconds "
                              "({:g} s)",
                              limits.min_case_seconds, limits.case_seconds));
}

void read_limits(const reader& in, const YAML::Node& node, const problem_spec& spec, judge::limits& limits) {
  const fields f = in.mapping(node, "limits",
                              {"compile_seconds", "case_seconds", "slowest_speed", "min_case_seconds",
                               "timing_budget_seconds", "output_bytes"});
  if (const YAML::Node* v = f.find("compile_seconds"))
    limits.compile_seconds = read_seconds(in, *v, "limits.compile_seconds");
  if (const YAML::Node* v = f.find("case_seconds")) limits.case_seconds = read_seconds(in, *v, "limits.case_seconds");
  read_call_limit_by_work(in, f, spec, limits);
  if (const YAML::Node* v = f.find("timing_budget_seconds"))
    limits.timing_budget_seconds = read_seconds(in, *v, "limits.timing_budget_seconds");
  if (const YAML::Node* v = f.find("output_bytes")) {
    const std::int64_t bytes = in.integer(*v, "limits.output_bytes");
    if (bytes <= 0) in.fail_field(*v, "limits.output_bytes", "must be a number of bytes above 0, got " + v->Scalar());
    limits.output_bytes = static_cast<std::size_t>(bytes);
  }
}

std::string no_problem_message(const fs::path& dir) {
  const std::vector<std::string> known = list_problems(dir.parent_path());
  return "no problem '" + dir.filename().string() + "': " + spec_yaml::shown_path(dir / "problem.yaml") +
         " does not exist (" +
         (known.empty() ? "there are no problems in " + dir.parent_path().string()
                        : "known problems: " + join_list(known)) +
         ")";
}

} // namespace

std::vector<std::string> problem_spec::size_names() const {
  std::vector<std::string> names;
  for (const auto& p : signature)
    if (p.role == param_role::size) names.push_back(p.name);
  return names;
}

std::vector<std::string> problem_spec::scalar_names() const {
  std::vector<std::string> names;
  for (const auto& p : signature)
    if (p.role == param_role::scalar) names.push_back(p.name);
  return names;
}

std::vector<const parameter*> problem_spec::buffers() const {
  std::vector<const parameter*> pointers;
  for (const auto& p : signature)
    if (p.is_buffer()) pointers.push_back(&p);
  return pointers;
}

std::string problem_spec::solve_declaration() const {
  std::string params;
  for (const auto& p : signature) params += (params.empty() ? "" : ", ") + p.c_type + " " + p.name;
  return "extern \"C\" void solve(" + params + ")";
}

problem_spec load_problem(const std::filesystem::path& problem_dir) {
  problem_spec spec;
  spec.dir = spec_yaml::clean_path(problem_dir);
  spec.name = spec.dir.filename().string();
  spec.spec_file = spec.dir / "problem.yaml";
  if (!fs::is_regular_file(spec.spec_file)) throw spec_error(no_problem_message(spec.dir));

  const reader in(spec_yaml::shown_path(spec.spec_file));
  const YAML::Node doc = spec_yaml::load(spec.spec_file, spec_yaml::shown_path(spec.spec_file));
  const fields top = in.mapping(doc, "",
                                {"title", "status", "statement", "signature", "tolerance", "leetgpu", "work", "speed_unit",
                                 "inputs", "baseline", "banned_libraries", "tensor_cores", "limits"});

  spec.title = in.text(in.required(top, "", "title", "the problem's human-readable name"), "title");
  if (const YAML::Node* node = top.find("status"))
    spec.draft = in.word<bool>(*node, "status", "status", {{"draft", true}, {"published", false}});
  spec.signature = read_signature(in, in.required(top, "", "signature", "the parameters of solve()"));
  const std::vector<std::string> sizes = spec.size_names();

  const YAML::Node* statement = top.find("statement");
  if (statement) {
    spec.statement = read_file_field(in, *statement, "statement", spec.dir);
  } else {
    spec.statement = spec.dir / "statement.md";
    if (!fs::is_regular_file(spec.statement))
      in.fail(doc, "the problem has no statement: write " + spec_yaml::shown_path(spec.statement) +
                       " or name another file in the field 'statement'");
  }

  if (const YAML::Node* node = top.find("tolerance")) {
    const fields f = in.mapping(*node, "tolerance", {"atol", "rtol", "sum"});
    if (const YAML::Node* v = f.find("atol")) spec.tolerance.atol = read_tolerance(in, *v, "tolerance.atol");
    if (const YAML::Node* v = f.find("rtol")) spec.tolerance.rtol = read_tolerance(in, *v, "tolerance.rtol");
    if (const YAML::Node* v = f.find("sum")) spec.tolerance.sum = read_sum_rule(in, *v, spec, sizes);
  }
  if (const YAML::Node* node = top.find("leetgpu")) {
    const fields f = in.mapping(*node, "leetgpu", {"atol", "rtol"});
    published_tolerance t;
    t.atol = read_tolerance(in, in.required(f, "leetgpu", "atol", "LeetGPU's absolute tolerance"), "leetgpu.atol");
    t.rtol = read_tolerance(in, in.required(f, "leetgpu", "rtol", "LeetGPU's relative tolerance"), "leetgpu.rtol");
    spec.leetgpu = t;
  }
  if (const YAML::Node* node = top.find("work")) {
    const fields f = in.mapping(*node, "work", {"flops", "bytes"});
    if (const YAML::Node* v = f.find("flops")) spec.flops = read_work(in, *v, "work.flops", sizes);
    if (const YAML::Node* v = f.find("bytes")) spec.bytes = read_work(in, *v, "work.bytes", sizes);
  }
  check_sizes_used(in, doc["signature"], spec);
  if (const YAML::Node* node = top.find("speed_unit"))
    spec.unit =
        in.word<speed_unit>(*node, "speed_unit", "unit", {{"gflops", speed_unit::gflops}, {"gbps", speed_unit::gbps}});
  if (const YAML::Node* node = top.find("inputs")) {
    const fields f = in.mapping(*node, "inputs", {"distribution", "buffers"});
    if (const YAML::Node* v = f.find("distribution"))
      spec.input_distribution = in.distribution(*v, "inputs.distribution");
    if (const YAML::Node* v = f.find("buffers")) read_buffer_distributions(in, *v, spec);
  }
  check_distribution_types(in, doc, spec);
  if (const YAML::Node* node = top.find("baseline")) read_baseline(in, *node, spec);
  if (const YAML::Node* node = top.find("banned_libraries"))
    spec.banned_libraries = read_libraries(in, *node, "banned_libraries");
  if (const YAML::Node* node = top.find("tensor_cores"))
    spec.tensor_cores_allowed =
        in.word<bool>(*node, "tensor_cores", "choice", {{"allowed", true}, {"forbidden", false}});
  if (const YAML::Node* node = top.find("limits")) read_limits(in, *node, spec, spec.limits);
  return spec;
}

std::vector<std::string> list_problems(const std::filesystem::path& problems_root) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(problems_root, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code file_ec; // an unreadable folder is not a problem, and does not end the listing
    if (fs::is_regular_file(it->path() / "problem.yaml", file_ec)) names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

} // namespace judge
