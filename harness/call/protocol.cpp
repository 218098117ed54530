#include "protocol.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <limits>

namespace judge_harness {
namespace {

// ordered: answers keep "type" first, as a reader of the channel expects.
using json = nlohmann::ordered_json;

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw protocol_error("request field " + where + ": " + what);
}

const json& member(const json& object, const char* key, const std::string& where) {
  const auto it = object.find(key);
  if (it == object.end()) fail(where + "." + key, "missing");
  return *it;
}

const json* optional_member(const json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

std::string read_string(const json& value, const std::string& where) {
  if (!value.is_string()) fail(where, "must be a string");
  return value.get<std::string>();
}

double read_number(const json& value, const std::string& where) {
  if (!value.is_number()) fail(where, "must be a number");
  return value.get<double>();
}

std::int64_t read_integer(const json& value, const std::string& where, std::int64_t low, std::int64_t high) {
  if (!value.is_number_integer()) fail(where, "must be an integer");
  if (value.is_number_unsigned() && value.get<std::uint64_t>() > static_cast<std::uint64_t>(high))
    fail(where, "must be at most " + std::to_string(high));
  const std::int64_t v = value.get<std::int64_t>();
  if (v < low || v > high) fail(where, "must be in [" + std::to_string(low) + ", " + std::to_string(high) + "]");
  return v;
}

/// Seeds are 64-bit unsigned; a decimal string is accepted too, for senders that cannot write them.
std::uint64_t read_seed(const json& value, const std::string& where) {
  if (value.is_number_unsigned()) return value.get<std::uint64_t>();
  if (value.is_number_integer() && value.get<std::int64_t>() >= 0)
    return static_cast<std::uint64_t>(value.get<std::int64_t>());
  if (value.is_string()) {
    const std::string text = value.get<std::string>();
    std::size_t used = 0;
    try {
      const unsigned long long seed = std::stoull(text, &used, 10);
      if (used == text.size() && !text.empty() && text[0] != '-') return seed;
    } catch (const std::exception&) {
    }
  }
  fail(where, "must be an unsigned 64-bit integer");
}

bool read_bool(const json& value, const std::string& where) {
  if (!value.is_boolean()) fail(where, "must be true or false");
  return value.get<bool>();
}

judge_data::distribution read_distribution(const json& value, const std::string& where) {
  if (!value.is_object()) fail(where, "must be an object");
  judge_data::distribution dist;
  const json& kind = member(value, "kind", where);
  if (kind.is_string()) {
    const std::string name = kind.get<std::string>();
    if (name == "uniform")
      dist.kind = judge_data::distribution_kind::uniform;
    else if (name == "normal")
      dist.kind = judge_data::distribution_kind::normal;
    else if (name == "constant")
      dist.kind = judge_data::distribution_kind::constant;
    else if (name == "cancel")
      dist.kind = judge_data::distribution_kind::cancel;
    else
      fail(where + ".kind", "unknown distribution \"" + name + "\"");
  } else {
    dist.kind = static_cast<judge_data::distribution_kind>(read_integer(kind, where + ".kind", 0, 3));
  }
  if (const json* a = optional_member(value, "a")) dist.a = read_number(*a, where + ".a");
  if (const json* b = optional_member(value, "b")) dist.b = read_number(*b, where + ".b");
  return dist;
}

buffer_spec read_buffer(const json& value, const std::string& where) {
  if (!value.is_object()) fail(where, "must be an object");
  buffer_spec spec;
  spec.name = read_string(member(value, "name", where), where + ".name");
  const std::string role = read_string(member(value, "role", where), where + ".role");
  if (role == "input")
    spec.role = buffer_role::input;
  else if (role == "output")
    spec.role = buffer_role::output;
  else
    fail(where + ".role", "must be \"input\" or \"output\", not \"" + role + "\"");
  spec.count = static_cast<std::size_t>(
      read_integer(member(value, "count", where), where + ".count", 1, std::numeric_limits<std::int64_t>::max() / 8));
  if (const json* dist = optional_member(value, "dist")) spec.dist = read_distribution(*dist, where + ".dist");
  if (const json* data = optional_member(value, "data")) {
    if (!spec.is_input()) fail(where + ".data", "only input buffers take explicit data");
    if (!data->is_array()) fail(where + ".data", "must be an array of numbers");
    if (data->size() != spec.count)
      fail(where + ".data",
           "has " + std::to_string(data->size()) + " values but count is " + std::to_string(spec.count));
    std::vector<float> values;
    values.reserve(data->size());
    for (std::size_t i = 0; i < data->size(); ++i)
      values.push_back(static_cast<float>(read_number((*data)[i], where + ".data[" + std::to_string(i) + "]")));
    spec.data = std::move(values);
  }
  return spec;
}

check_spec read_check(const json& value, const std::string& where) {
  if (!value.is_object()) fail(where, "must be an object");
  check_spec check;
  check.seed = read_seed(member(value, "seed", where), where + ".seed");
  if (const json* poison = optional_member(value, "poison")) {
    const std::string name = read_string(*poison, where + ".poison");
    if (name == "nan")
      check.poison = poison_kind::nan;
    else if (name == "big")
      check.poison = poison_kind::big;
    else
      fail(where + ".poison", "must be \"nan\" or \"big\", not \"" + name + "\"");
  }
  return check;
}

timing_spec read_timing(const json& value, const std::string& where) {
  if (!value.is_object()) fail(where, "must be an object or null");
  timing_spec timing;
  timing.seed = read_seed(member(value, "seed", where), where + ".seed");
  if (const json* v = optional_member(value, "budget_s")) timing.budget_s = read_number(*v, where + ".budget_s");
  if (const json* v = optional_member(value, "min_samples"))
    timing.min_samples = static_cast<int>(read_integer(*v, where + ".min_samples", 1, 1000000));
  if (const json* v = optional_member(value, "max_samples"))
    timing.max_samples = static_cast<int>(read_integer(*v, where + ".max_samples", 1, 1000000));
  if (const json* v = optional_member(value, "target_noise"))
    timing.target_noise = read_number(*v, where + ".target_noise");
  if (const json* v = optional_member(value, "cold_l2")) timing.cold_l2 = read_bool(*v, where + ".cold_l2");
  if (timing.max_samples < timing.min_samples) fail(where + ".max_samples", "is below min_samples");
  return timing;
}

case_request read_case(const json& value) {
  const std::string where = "case";
  case_request c;
  c.name = read_string(member(value, "name", where), "name");
  c.case_index =
      read_integer(member(value, "case_index", where), "case_index", 0, std::numeric_limits<std::int64_t>::max());
  const json& sizes = member(value, "sizes", where);
  if (!sizes.is_array()) fail("sizes", "must be an array of integers");
  for (std::size_t i = 0; i < sizes.size(); ++i)
    c.sizes.push_back(static_cast<int>(read_integer(sizes[i], "sizes[" + std::to_string(i) + "]",
                                                    std::numeric_limits<int>::min(), std::numeric_limits<int>::max())));
  const json& buffers = member(value, "buffers", where);
  if (!buffers.is_array()) fail("buffers", "must be an array");
  for (std::size_t i = 0; i < buffers.size(); ++i)
    c.buffers.push_back(read_buffer(buffers[i], "buffers[" + std::to_string(i) + "]"));
  const json& checks = member(value, "checks", where);
  if (!checks.is_array()) fail("checks", "must be an array");
  for (std::size_t i = 0; i < checks.size(); ++i)
    c.checks.push_back(read_check(checks[i], "checks[" + std::to_string(i) + "]"));
  if (const json* tolerance = optional_member(value, "tolerance")) {
    if (!tolerance->is_object()) fail("tolerance", "must be an object");
    if (const json* atol = optional_member(*tolerance, "atol")) c.tolerance.atol = read_number(*atol, "tolerance.atol");
    if (const json* rtol = optional_member(*tolerance, "rtol")) c.tolerance.rtol = read_number(*rtol, "tolerance.rtol");
  }
  if (const json* timing = optional_member(value, "timing")) c.timing = read_timing(*timing, "timing");
  return c;
}

/// A float as JSON: the number, or null when it is not finite (JSON has no NaN or infinity).
json number_or_null(float value) { return std::isfinite(value) ? json(static_cast<double>(value)) : json(nullptr); }

/// A float as text, exact enough to reproduce it: "0.123456791", "nan", "-inf".
std::string float_text(float value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", static_cast<double>(value));
  return text;
}

json place_json(const sample_place& place) {
  return json{{"phase", place.warmup ? "warmup" : "timed"}, {"sample", place.sample}};
}

std::string line(const json& object) {
  // Invalid UTF-8 (a learner's thread name, say) is replaced rather than thrown over.
  return object.dump(-1, ' ', false, json::error_handler_t::replace);
}

} // namespace

request parse_request(const std::string& text) {
  json value;
  try {
    value = json::parse(text);
  } catch (const json::parse_error& e) {
    throw protocol_error(std::string("request is not valid JSON: ") + e.what());
  }
  if (!value.is_object()) throw protocol_error("request must be a JSON object");
  const std::string type = read_string(member(value, "type", "request"), "type");
  request r;
  if (type == "end") {
    r.kind = request_kind::end;
  } else if (type == "case") {
    r.kind = request_kind::run_case;
    r.run_case = read_case(value);
  } else {
    throw protocol_error("unknown request type \"" + type + "\" (expected \"case\" or \"end\")");
  }
  return r;
}

const char* to_string(call_status status) {
  switch (status) {
  case call_status::ok: return "ok";
  case call_status::cuda_error: return "cuda_error";
  case call_status::banned_library: return "banned_library";
  case call_status::stray_work: return "stray_work";
  }
  return "ok";
}

std::string to_json_line(const hello_answer& hello) {
  json j{{"type", "hello"},
         {"protocol", protocol_version},
         {"device", hello.device.name},
         {"cc", hello.device.cc},
         {"sms", hello.device.sms},
         {"l2_bytes", hello.device.l2_bytes},
         {"memory_bytes", hello.device.memory_bytes},
         {"clock_max_mhz", hello.clock_max_mhz},
         {"timing_method", to_string(hello.method)},
         {"clock_source", hello.nvml_clock ? "nvml" : "none"}};
  if (!hello.timing_fallback_reason.empty()) j["timing_fallback_reason"] = hello.timing_fallback_reason;
  if (!hello.clock_unavailable_reason.empty()) j["clock_unavailable_reason"] = hello.clock_unavailable_reason;
  return line(j);
}

std::string to_json_line(const check_answer& check) {
  json j{{"type", "check"}, {"case", check.case_name}, {"check", check.check}, {"status", to_string(check.status)}};
  if (!check.error.empty()) j["error"] = check.error;
  json outputs = json::array();
  for (const output_file& o : check.outputs) outputs.push_back({{"name", o.name}, {"file", o.file}});
  json modified = json::array();
  for (const input_modification& m : check.inputs_modified) modified.push_back({{"name", m.name}, {"index", m.index}});
  json guards = json::array();
  for (const named_guard_violation& g : check.guard_violations)
    guards.push_back({{"name", g.name},
                      {"side", g.violation.side == guard_side::before ? "before" : "after"},
                      {"offset", g.violation.offset}});
  j["outputs"] = outputs;
  j["inputs_modified"] = modified;
  j["guard_violations"] = guards;
  j["banned_loaded"] = check.banned_loaded;
  j["stray_threads"] = check.stray_threads;
  j["host_ms"] = check.host_ms;
  return line(j);
}

std::string to_json_line(const timing_answer& timing) {
  json j{{"type", "timing"},
         {"case", timing.case_name},
         {"status", to_string(timing.status)},
         {"method", to_string(timing.method)},
         {"cold_l2", timing.cold_l2},
         {"gpu_ms", timing.gpu_ms},
         {"host_ms", timing.host_ms},
         {"sm_clock_mhz", timing.sm_clock_mhz},
         {"throttled", timing.throttled},
         {"warmup_calls", timing.warmup_calls},
         {"checked_samples", timing.checked_samples},
         {"mismatched_samples", timing.mismatched_samples},
         {"first_mismatch", nullptr},
         {"inputs_modified_samples", timing.inputs_modified_samples},
         {"first_input_modification", nullptr},
         {"other_streams_after_return", timing.other_streams_after_return},
         {"stop_reason", timing.stop_reason}};
  if (!timing.error.empty()) j["error"] = timing.error;
  if (timing.first_mismatch) {
    const sample_mismatch& m = *timing.first_mismatch;
    json first = place_json(m.place);
    first["buffer"] = m.buffer;
    first["index"] = m.index;
    first["got"] = number_or_null(m.got);
    first["expected"] = number_or_null(m.expected);
    first["got_text"] = float_text(m.got);
    first["expected_text"] = float_text(m.expected);
    j["first_mismatch"] = first;
  }
  if (timing.first_input_modification) {
    const sample_input_modification& m = *timing.first_input_modification;
    json first = place_json(m.place);
    first["buffer"] = m.buffer;
    first["index"] = m.index;
    j["first_input_modification"] = first;
  }
  return line(j);
}

std::string no_device_hello_line(const std::string& reason) {
  return line(json{{"type", "hello"}, {"error", "no CUDA device: " + reason}});
}

std::string done_line() { return line(json{{"type", "done"}}); }

std::string error_line(const std::string& message) { return line(json{{"type", "error"}, {"error", message}}); }

} // namespace judge_harness
