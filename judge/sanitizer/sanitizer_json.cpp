#include "judge/sanitizer/sanitizer_json.hpp"

#include <stdexcept>

namespace judge {

namespace {

template <typename Enum, std::size_t N>
Enum enum_from(const std::string& text, const char* (*name)(Enum), const Enum (&all)[N], const std::string& where) {
  for (Enum e : all)
    if (text == name(e)) return e;
  throw std::runtime_error(where + ": '" + text + "' is not a known name");
}

const sanitizer_state all_states[] = {sanitizer_state::ran, sanitizer_state::timed_out, sanitizer_state::not_available,
                                      sanitizer_state::failed};
const sanitizer_error_kind all_kinds[] = {
    sanitizer_error_kind::invalid_access,     sanitizer_error_kind::hardware_exception,
    sanitizer_error_kind::uninitialised_read, sanitizer_error_kind::shared_race,
    sanitizer_error_kind::cuda_api_error,     sanitizer_error_kind::other};
const memory_space all_spaces[] = {memory_space::unknown, memory_space::global, memory_space::shared,
                                   memory_space::local};
const access_kind all_accesses[] = {access_kind::unknown, access_kind::read, access_kind::write, access_kind::atomic};
const buffer_relation all_relations[] = {buffer_relation::unknown, buffer_relation::inside, buffer_relation::after,
                                         buffer_relation::before};

const explanation_state all_explanation_states[] = {explanation_state::none, explanation_state::pending,
                                                    explanation_state::done, explanation_state::over_budget,
                                                    explanation_state::failed};

const char* tool_text(sanitizer_tool tool) { return tool_name(tool); }
const sanitizer_tool all_tools[] = {sanitizer_tool::memcheck, sanitizer_tool::racecheck, sanitizer_tool::initcheck};

nlohmann::json triple(const std::optional<std::array<int, 3>>& t) {
  return t ? nlohmann::json{(*t)[0], (*t)[1], (*t)[2]} : nlohmann::json(nullptr);
}

std::optional<std::array<int, 3>> triple_from(const nlohmann::json& j) {
  if (j.is_null()) return std::nullopt;
  return std::array<int, 3>{j.at(0).get<int>(), j.at(1).get<int>(), j.at(2).get<int>()};
}

nlohmann::json line_json(const source_line& s) {
  return s.file.empty() ? nlohmann::json(nullptr) : nlohmann::json{{"file", s.file}, {"line", s.line}};
}

source_line line_from(const nlohmann::json& j) {
  if (j.is_null()) return {};
  return {j.at("file").get<std::string>(), j.at("line").get<int>()};
}

} // namespace

const char* state_name(sanitizer_state state) {
  switch (state) {
  case sanitizer_state::ran:
    return "ran";
  case sanitizer_state::timed_out:
    return "timed_out";
  case sanitizer_state::not_available:
    return "not_available";
  case sanitizer_state::failed:
    return "failed";
  }
  return "failed";
}

const char* explanation_state_name(explanation_state state) {
  switch (state) {
  case explanation_state::none:
    return "none";
  case explanation_state::pending:
    return "pending";
  case explanation_state::done:
    return "done";
  case explanation_state::over_budget:
    return "over_budget";
  case explanation_state::failed:
    return "failed";
  }
  return "failed";
}

explanation_state explanation_state_from_name(const std::string& name, const std::string& where) {
  return enum_from(name, explanation_state_name, all_explanation_states, where);
}

const char* kind_name(sanitizer_error_kind kind) {
  switch (kind) {
  case sanitizer_error_kind::invalid_access:
    return "invalid_access";
  case sanitizer_error_kind::hardware_exception:
    return "hardware_exception";
  case sanitizer_error_kind::uninitialised_read:
    return "uninitialised_read";
  case sanitizer_error_kind::shared_race:
    return "shared_race";
  case sanitizer_error_kind::cuda_api_error:
    return "cuda_api_error";
  case sanitizer_error_kind::other:
    return "other";
  }
  return "other";
}

const char* space_name(memory_space space) {
  switch (space) {
  case memory_space::unknown:
    return "unknown";
  case memory_space::global:
    return "global";
  case memory_space::shared:
    return "shared";
  case memory_space::local:
    return "local";
  }
  return "unknown";
}

const char* access_name(access_kind access) {
  switch (access) {
  case access_kind::unknown:
    return "unknown";
  case access_kind::read:
    return "read";
  case access_kind::write:
    return "write";
  case access_kind::atomic:
    return "atomic";
  }
  return "unknown";
}

const char* relation_name(buffer_relation relation) {
  switch (relation) {
  case buffer_relation::unknown:
    return "unknown";
  case buffer_relation::inside:
    return "inside";
  case buffer_relation::after:
    return "after";
  case buffer_relation::before:
    return "before";
  }
  return "unknown";
}

nlohmann::json sanitizer_json(const std::vector<sanitizer_run>& runs) {
  nlohmann::json list = nlohmann::json::array();
  for (const sanitizer_run& r : runs) {
    nlohmann::json findings = nlohmann::json::array();
    for (const sanitizer_finding& f : r.findings)
      findings.push_back({{"kind", kind_name(f.kind)},
                          {"space", space_name(f.space)},
                          {"access", access_name(f.access)},
                          {"size", f.size},
                          {"kernel", f.kernel},
                          {"at", line_json(f.at)},
                          {"thread", triple(f.thread)},
                          {"block", triple(f.block)},
                          {"address", f.address ? nlohmann::json(*f.address) : nlohmann::json(nullptr)},
                          {"buffer", f.buffer},
                          {"buffer_bytes", f.buffer_bytes},
                          {"relation", relation_name(f.relation)},
                          {"distance", f.distance},
                          {"other_access", access_name(f.other_access)},
                          {"other_at", line_json(f.other_at)},
                          {"hazards", f.hazards},
                          {"api_error", f.api_error},
                          {"api_call", f.api_call},
                          {"headline", f.headline}});
    list.push_back({{"tool", tool_name(r.tool)},
                    {"state", state_name(r.state)},
                    {"detail", r.detail},
                    {"errors", r.errors},
                    {"seconds", r.seconds},
                    {"findings", std::move(findings)}});
  }
  return list;
}

std::vector<sanitizer_run> sanitizer_from_json(const nlohmann::json& j, const std::string& where) {
  if (!j.is_array()) throw std::runtime_error(where + ": not an array");
  std::vector<sanitizer_run> runs;
  try {
    for (const nlohmann::json& r : j) {
      sanitizer_run run;
      run.tool = enum_from(r.at("tool").get<std::string>(), tool_text, all_tools, where + " tool");
      run.state = enum_from(r.at("state").get<std::string>(), state_name, all_states, where + " state");
      run.detail = r.at("detail").get<std::string>();
      run.errors = r.at("errors").get<int>();
      run.seconds = r.at("seconds").get<double>();
      for (const nlohmann::json& f : r.at("findings")) {
        sanitizer_finding s;
        s.tool = run.tool;
        s.kind = enum_from(f.at("kind").get<std::string>(), kind_name, all_kinds, where + " kind");
        s.space = enum_from(f.at("space").get<std::string>(), space_name, all_spaces, where + " space");
        s.access = enum_from(f.at("access").get<std::string>(), access_name, all_accesses, where + " access");
        s.size = f.at("size").get<int>();
        s.kernel = f.at("kernel").get<std::string>();
        s.at = line_from(f.at("at"));
        s.thread = triple_from(f.at("thread"));
        s.block = triple_from(f.at("block"));
        if (!f.at("address").is_null()) s.address = f.at("address").get<std::uint64_t>();
        s.buffer = f.at("buffer").get<std::string>();
        s.buffer_bytes = f.at("buffer_bytes").get<std::uint64_t>();
        s.relation = enum_from(f.at("relation").get<std::string>(), relation_name, all_relations, where + " relation");
        s.distance = f.at("distance").get<std::uint64_t>();
        s.other_access =
            enum_from(f.at("other_access").get<std::string>(), access_name, all_accesses, where + " other_access");
        s.other_at = line_from(f.at("other_at"));
        s.hazards = f.at("hazards").get<int>();
        s.api_error = f.at("api_error").get<std::string>();
        s.api_call = f.at("api_call").get<std::string>();
        s.headline = f.at("headline").get<std::string>();
        run.findings.push_back(std::move(s));
      }
      runs.push_back(std::move(run));
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(where + ": " + e.what());
  }
  return runs;
}

nlohmann::json explanation_json(const sanitizer_explanation& e) {
  nlohmann::json tools = nlohmann::json::array();
  for (const sanitizer_tool t : e.tools) tools.push_back(tool_name(t));
  return {{"state", explanation_state_name(e.state)},
          {"case", e.case_name},
          {"check", e.check},
          {"tools", std::move(tools)},
          {"seconds_per_tool", e.seconds_per_tool},
          {"detail", e.detail}};
}

sanitizer_explanation explanation_from_json(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) throw std::runtime_error(where + ": not an object");
  sanitizer_explanation e;
  try {
    e.state = explanation_state_from_name(j.at("state").get<std::string>(), where + " state");
    e.case_name = j.at("case").get<std::string>();
    e.check = j.at("check").get<int>();
    for (const nlohmann::json& t : j.at("tools"))
      e.tools.push_back(enum_from(t.get<std::string>(), tool_text, all_tools, where + " tools"));
    e.seconds_per_tool = j.at("seconds_per_tool").get<double>();
    e.detail = j.at("detail").get<std::string>();
  } catch (const nlohmann::json::exception& ex) {
    throw std::runtime_error(where + ": " + ex.what());
  }
  return e;
}

} // namespace judge
