// The one codec of the runner protocol (docs/architecture.md): every message of common/wire.hpp to a
// JSON line and back, used by the judge and by the runner alike. Decoding is strict: a field that is
// missing, mistyped or out of range is a protocol_error naming it ("check answer field status:
// missing"). Every field is always written; a value that can be absent is written as null. Host code
// only (nlohmann::json).
#pragma once

#include "common/hex.hpp"
#include "common/wire.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace judge_wire {

/// A message that does not follow the protocol. Between the judge and its own runner that is a bug of
/// the judge's, never the solution's.
class protocol_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Ordered: a message keeps "type" first, as a reader of the channel expects.
using json = nlohmann::ordered_json;

/// A float as text, exact enough to reproduce it: "0.123456791", "nan", "-inf".
inline std::string float_text(float value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", static_cast<double>(value));
  return text;
}

namespace detail {

// ----- decoding --------------------------------------------------------------------------------------

/// Where a value sits: the message ("check answer") and the path to it ("outputs[0].file").
struct where {
  std::string message;
  std::string path;

  where at(const char* key) const { return {message, path.empty() ? key : path + "." + key}; }
  where at(std::size_t index) const { return {message, path + "[" + std::to_string(index) + "]"}; }
};

[[noreturn]] inline void fail(const where& w, const std::string& what) {
  throw protocol_error(w.message + (w.path.empty() ? "" : " field " + w.path) + ": " + what);
}

inline std::string read_string(const json& v, const where& w) {
  if (!v.is_string()) fail(w, "must be a string");
  return v.get<std::string>();
}

inline bool read_bool(const json& v, const where& w) {
  if (!v.is_boolean()) fail(w, "must be true or false");
  return v.get<bool>();
}

inline double read_number(const json& v, const where& w) {
  if (!v.is_number()) fail(w, "must be a number");
  return v.get<double>();
}

inline std::int64_t read_integer(const json& v, const where& w, std::int64_t low, std::int64_t high) {
  const std::string range = "must be an integer in [" + std::to_string(low) + ", " + std::to_string(high) + "]";
  if (!v.is_number_integer()) fail(w, range);
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(high)) fail(w, range);
  const std::int64_t value = v.get<std::int64_t>();
  if (value < low || value > high) fail(w, range);
  return value;
}

/// A reader of integers in [low, high].
inline auto integer_in(std::int64_t low, std::int64_t high) {
  return [low, high](const json& v, const where& w) { return read_integer(v, w, low, high); };
}

inline std::int64_t read_count(const json& v, const where& w) {
  return read_integer(v, w, 0, std::numeric_limits<std::int64_t>::max());
}

inline std::uint64_t read_seed(const json& v, const where& w) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  if (v.is_number_integer() && v.get<std::int64_t>() >= 0) return static_cast<std::uint64_t>(v.get<std::int64_t>());
  fail(w, "must be an unsigned 64-bit integer");
}

template <typename E> E read_name(const json& v, const where& w) {
  if (v.is_string())
    if (const std::optional<E> value = from_string<E>(v.get<std::string>())) return *value;
  std::string names;
  for (const enum_name<E>& n : wire_names<E>::table)
    names += (names.empty() ? "\"" : ", \"") + std::string(n.name) + "\"";
  fail(w, "must be one of " + names + (v.is_string() ? ", not \"" + v.get<std::string>() + "\"" : ""));
}

/// A float written by float_text.
inline float read_float_text(const json& v, const where& w) {
  const std::string text = read_string(v, w);
  if (text == "nan") return std::numeric_limits<float>::quiet_NaN();
  if (text == "inf") return std::numeric_limits<float>::infinity();
  if (text == "-inf") return -std::numeric_limits<float>::infinity();
  char* end = nullptr;
  const float value = std::strtof(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value))
    fail(w, "must be a float as text (\"0.5\", \"nan\", \"-inf\"), not \"" + text + "\"");
  return value;
}

/// A reader of `read`'s type or null (then nullopt).
template <typename Read> auto nullable(Read read) {
  return [read](const json& v, const where& w) {
    using value_type = decltype(read(v, w));
    return v.is_null() ? std::optional<value_type>() : std::optional<value_type>(read(v, w));
  };
}

/// A reader of arrays whose elements `read` reads.
template <typename Read> auto array_of(Read read) {
  return [read](const json& v, const where& w) {
    if (!v.is_array()) fail(w, "must be an array");
    std::vector<decltype(read(v, w))> values;
    values.reserve(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) values.push_back(read(v[i], w.at(i)));
    return values;
  };
}

/// The fields of one JSON object: each is required; `get` reads one with a value reader.
class object_reader {
public:
  object_reader(const json& value, where w) : m_value(value), m_where(std::move(w)) {
    if (!m_value.is_object()) fail(m_where, "must be an object");
  }

  template <typename Read> auto get(const char* key, Read read) const { return read(field(key), m_where.at(key)); }
  const json& field(const char* key) const {
    const auto it = m_value.find(key);
    if (it == m_value.end()) fail(m_where.at(key), "missing");
    return *it;
  }
  bool has(const char* key) const { return m_value.contains(key); }
  const where& place() const { return m_where; }

private:
  const json& m_value;
  where m_where;
};

inline judge_data::distribution read_distribution(const json& v, const where& w) {
  const object_reader r(v, w);
  judge_data::distribution d;
  d.kind = r.get("kind", read_name<judge_data::distribution_kind>);
  d.a = r.get("a", read_number);
  d.b = r.get("b", read_number);
  const std::vector<double> more = r.get("more", array_of(read_number));
  constexpr std::size_t slots = sizeof d.more / sizeof d.more[0];
  if (more.size() != slots) fail(w.at("more"), "must have " + std::to_string(slots) + " numbers");
  std::copy(more.begin(), more.end(), d.more);
  return d;
}

inline float read_data_value(const json& v, const where& w) { return static_cast<float>(read_number(v, w)); }

/// An int32 element of explicit data, held as its bits (judge_data::word_of_int).
inline float read_int_data_value(const json& v, const where& w) {
  return judge_data::word_of_int(static_cast<std::int32_t>(read_integer(v, w, INT32_MIN, INT32_MAX)));
}

inline buffer_spec read_buffer(const json& v, const where& w) {
  const object_reader r(v, w);
  buffer_spec b;
  b.name = r.get("name", read_string);
  b.role = r.get("role", read_name<buffer_role>);
  b.type = r.get("type", read_name<judge_data::element_type>);
  b.count = static_cast<std::size_t>(r.get("count", integer_in(1, std::numeric_limits<std::int64_t>::max() / 8)));
  b.dist = r.get("dist", nullable(read_distribution));
  b.data = b.type == judge_data::element_type::int32 ? r.get("data", nullable(array_of(read_int_data_value)))
                                                     : r.get("data", nullable(array_of(read_data_value)));
  b.start = r.get("start", read_name<output_start>);
  if (b.is_generated() && !b.dist) fail(w.at("dist"), "is required for an input or inout buffer");
  if (!b.is_generated() && b.dist) fail(w.at("dist"), "must be null for an output buffer");
  if (!b.is_generated() && b.data)
    fail(w.at("data"), "must be null for an output buffer: only inputs and inout buffers take explicit data");
  if (b.role != buffer_role::output && b.start != output_start::poison)
    fail(w.at("start"), "must be \"poison\" unless the buffer is an output: the others start as their data");
  if (b.dist && !judge_data::applies_to(b.dist->kind, b.type))
    fail(w.at("dist"), std::string("a ") + to_string(b.dist->kind) + " distribution cannot fill an int32 buffer");
  if (b.data && b.data->size() != b.count)
    fail(w.at("data"), "has " + std::to_string(b.data->size()) + " values but count is " + std::to_string(b.count));
  return b;
}

/// A file name the runner may create: one plain name inside the scratch folder (is_simple_file_name).
inline std::string read_file_name(const json& v, const where& w) {
  std::string name = read_string(v, w);
  if (!is_simple_file_name(name))
    fail(w, "must be a plain file name (letters, digits, '.', '_', '-'; no '/'), not \"" + name + "\"");
  return name;
}

/// A byte offset into the output window: 64-byte aligned, below 2^48 (far past any window).
inline std::uint64_t read_window_offset(const json& v, const where& w) {
  const auto offset = static_cast<std::uint64_t>(read_integer(v, w, 0, std::int64_t{1} << 48));
  if (offset % 64 != 0) fail(w, "must be a multiple of 64, not " + std::to_string(offset));
  return offset;
}

inline check_spec read_check(const json& v, const where& w) {
  const object_reader r(v, w);
  check_spec c;
  c.seed = r.get("seed", read_seed);
  c.poison = r.get("poison", read_name<poison_kind>);
  c.output_files = r.get("output_files", array_of(read_file_name));
  if (r.has("output_offsets")) c.output_offsets = r.get("output_offsets", array_of(read_window_offset));
  c.record_file = r.get("record_file", nullable(read_file_name));
  return c;
}

inline tolerance_spec read_tolerance(const json& v, const where& w) {
  const object_reader r(v, w);
  tolerance_spec t;
  t.atol = r.get("atol", read_number);
  t.rtol = r.get("rtol", read_number);
  return t;
}

inline timing_spec read_timing(const json& v, const where& w) {
  const object_reader r(v, w);
  timing_spec t;
  t.budget_s = r.get("budget_s", read_number);
  t.min_samples = static_cast<int>(r.get("min_samples", integer_in(1, 1000000)));
  t.min_s = r.get("min_s", read_number);
  t.max_samples = static_cast<int>(r.get("max_samples", integer_in(1, 1000000)));
  t.target_precision = r.get("target_precision", read_number);
  t.cold_l2 = r.get("cold_l2", read_bool);
  t.last_timing_end_s = r.get("last_timing_end_s", nullable(read_number));
  if (t.max_samples < t.min_samples) fail(w.at("max_samples"), "is below min_samples");
  return t;
}

} // namespace detail
} // namespace judge_wire

#define JUDGE_WIRE_JSON_READERS
#include "common/recorded_work_json.hpp"

namespace judge_wire {
namespace detail {

inline int read_size(const json& v, const where& w) { return static_cast<int>(read_integer(v, w, INT_MIN, INT_MAX)); }

inline case_request read_case(const object_reader& r) {
  case_request c;
  c.name = r.get("name", read_string);
  c.case_index = r.get("case_index", read_count);
  c.sizes = r.get("sizes", array_of(read_size));
  c.scalars = r.get("scalars", array_of(read_data_value));
  c.buffers = r.get("buffers", array_of(read_buffer));
  c.checks = r.get("checks", array_of(read_check));
  c.tolerance = r.get("tolerance", read_tolerance);
  c.timing = r.get("timing", nullable(read_timing));
  c.replay_file = r.get("replay_file", nullable(read_file_name));
  if (c.replay_file && !c.checks.empty())
    fail(r.place().at("replay_file"), "goes with timing alone, never with checks");
  if (c.replay_file && !c.timing) fail(r.place().at("replay_file"), "goes with timing");
  // Every output gets exactly one file, and no file is named twice: the runner creates each once.
  std::size_t outputs = 0;
  for (const buffer_spec& b : c.buffers) outputs += b.is_result() ? 1 : 0;
  std::vector<std::string> seen;
  for (std::size_t k = 0; k < c.checks.size(); ++k) {
    const where files = r.place().at("checks").at(k).at("output_files");
    if (c.checks[k].output_files.size() != outputs)
      fail(files, "has " + std::to_string(c.checks[k].output_files.size()) + " names for " + std::to_string(outputs) +
                      " output buffers");
    if (!c.checks[k].output_offsets.empty() && c.checks[k].output_offsets.size() != outputs)
      fail(r.place().at("checks").at(k).at("output_offsets"),
           "has " + std::to_string(c.checks[k].output_offsets.size()) + " offsets for " + std::to_string(outputs) +
               " output buffers");
    for (const std::string& name : c.checks[k].output_files) {
      if (std::find(seen.begin(), seen.end(), name) != seen.end()) fail(files, "names \"" + name + "\" twice");
      seen.push_back(name);
    }
    if (const auto& record = c.checks[k].record_file) {
      if (std::find(seen.begin(), seen.end(), *record) != seen.end())
        fail(r.place().at("checks").at(k).at("record_file"), "names \"" + *record + "\" twice");
      seen.push_back(*record);
    }
  }
  return c;
}

/// Every answer says which protocol it speaks in "hello"; another version cannot be read.
inline int read_protocol(const json& v, const where& w) {
  const auto version = static_cast<int>(read_integer(v, w, 0, INT_MAX));
  if (version != protocol_version)
    fail(w, "the runner speaks protocol version " + std::to_string(version) + ", this judge version " +
                std::to_string(protocol_version) + " (a runner built by another version of the judge)");
  return version;
}

inline hello_answer read_hello(const object_reader& r) {
  hello_answer h;
  h.protocol = r.get("protocol", read_protocol);
  h.device = r.get("device", read_string);
  h.cc = r.get("cc", read_string);
  h.sms = static_cast<int>(r.get("sms", integer_in(0, INT_MAX)));
  h.l2_bytes = r.get("l2_bytes", read_count);
  h.memory_bytes = r.get("memory_bytes", read_count);
  h.clock_max_mhz = r.get("clock_max_mhz", read_number);
  h.method = r.get("timing_method", read_name<timing_method>);
  h.timing_fallback_reason = r.get("timing_fallback_reason", nullable(read_string));
  h.clock = r.get("clock_source", read_name<clock_source>);
  h.clock_unavailable_reason = r.get("clock_unavailable_reason", nullable(read_string));
  return h;
}

inline no_device_answer read_no_device(const object_reader& r) {
  no_device_answer n;
  n.protocol = r.get("protocol", read_protocol);
  n.error = r.get("error", read_string);
  return n;
}

inline input_modification read_input_modification(const json& v, const where& w) {
  const object_reader r(v, w);
  return {r.get("name", read_string), r.get("index", read_count)};
}

inline named_guard_violation read_guard_violation(const json& v, const where& w) {
  const object_reader r(v, w);
  named_guard_violation g;
  g.name = r.get("name", read_string);
  g.violation.side = r.get("side", read_name<guard_side>);
  g.violation.offset = static_cast<std::size_t>(r.get("offset", read_count));
  return g;
}

/// Seconds a phase took: a finite number from 0 to a day (a runner's word, so a forged figure cannot
/// overflow a sum).
inline double read_phase_seconds(const json& v, const where& w) {
  const double s = read_number(v, w);
  if (!(s >= 0 && s <= 86400)) fail(w, "must be a number of seconds in [0, 86400]");
  return s;
}

inline check_answer read_check_answer(const object_reader& r) {
  check_answer a;
  a.case_name = r.get("case", read_string);
  a.check = static_cast<std::size_t>(r.get("check", read_count));
  a.status = r.get("status", read_name<call_status>);
  a.error = r.get("error", nullable(read_string));
  a.outputs = r.get("outputs", array_of(read_file_name));
  a.inputs_modified = r.get("inputs_modified", array_of(read_input_modification));
  a.guard_violations = r.get("guard_violations", array_of(read_guard_violation));
  a.banned_loaded = r.get("banned_loaded", array_of(read_string));
  a.stray_threads = r.get("stray_threads", array_of(read_string));
  a.host_ms = r.get("host_ms", read_number);
  a.recorded = r.get("recorded", read_bool);
  a.not_replayable = r.get("not_replayable", nullable(read_string));
  // Added to protocol 7 without a version change, as the timing answer's were: figures for the judge's
  // phases only.
  if (r.has("inputs_s")) a.inputs_s = r.get("inputs_s", read_phase_seconds);
  if (r.has("outputs_s")) a.outputs_s = r.get("outputs_s", read_phase_seconds);
  return a;
}

inline sample_place read_place(const object_reader& r) {
  sample_place p;
  const std::string phase = r.get("phase", read_string);
  if (phase != "warmup" && phase != "timed")
    fail(r.place().at("phase"), "must be \"warmup\" or \"timed\", not \"" + phase + "\"");
  p.warmup = phase == "warmup";
  p.sample = r.get("sample", read_count);
  return p;
}

/// `got` and `expected` are checked for their type only: the exact values are in the *_text fields.
inline void expect_number_or_null(const json& v, const where& w) {
  if (!v.is_null() && !v.is_number()) fail(w, "must be a number or null");
}

inline sample_mismatch read_sample_mismatch(const json& v, const where& w) {
  const object_reader r(v, w);
  sample_mismatch m;
  m.place = read_place(r);
  m.buffer = r.get("buffer", read_string);
  m.index = r.get("index", read_count);
  r.get("got", expect_number_or_null);
  r.get("expected", expect_number_or_null);
  m.got = r.get("got_text", read_float_text);
  m.expected = r.get("expected_text", read_float_text);
  return m;
}

inline sample_input_modification read_sample_input_modification(const json& v, const where& w) {
  const object_reader r(v, w);
  sample_input_modification m;
  m.place = read_place(r);
  m.buffer = r.get("buffer", read_string);
  m.index = r.get("index", read_count);
  return m;
}

inline unsigned read_clock(const json& v, const where& w) {
  return static_cast<unsigned>(read_integer(v, w, 0, std::numeric_limits<unsigned>::max()));
}

/// Three extents (grid or block): each at least 1.
inline auto read_extents(const char* name) {
  return [name](const json& v, const where& w) {
    std::vector<std::int64_t> e = array_of(integer_in(1, std::numeric_limits<std::int32_t>::max()))(v, w);
    if (e.size() != 3) fail(w, std::string(name) + " must have three extents (x, y, z)");
    return e;
  };
}

inline kernel_launch read_kernel_launch(const json& v, const where& w) {
  const object_reader r(v, w);
  kernel_launch k;
  k.name = r.get("name", read_string);
  const std::vector<std::int64_t> grid = r.get("grid", read_extents("grid"));
  const std::vector<std::int64_t> block = r.get("block", read_extents("block"));
  for (int d = 0; d < 3; ++d) {
    k.grid[d] = grid[static_cast<std::size_t>(d)];
    k.block[d] = block[static_cast<std::size_t>(d)];
  }
  k.dynamic_shared_bytes = r.get("dynamic_shared_bytes", read_count);
  k.static_shared_bytes = r.get("static_shared_bytes", read_count);
  k.registers = r.get("registers", integer_in(0, 65536));
  return k;
}

inline timing_answer read_timing_answer(const object_reader& r) {
  timing_answer t;
  t.case_name = r.get("case", read_string);
  t.status = r.get("status", read_name<call_status>);
  t.error = r.get("error", nullable(read_string));
  t.method = r.get("method", read_name<timing_method>);
  t.cold_l2 = r.get("cold_l2", read_bool);
  t.gpu_ms = r.get("gpu_ms", array_of(read_number));
  t.host_ms = r.get("host_ms", array_of(read_number));
  t.sm_clock_mhz = r.get("sm_clock_mhz", array_of(read_clock));
  t.throttled = r.get("throttled", array_of(read_bool));
  t.warmup_calls = r.get("warmup_calls", read_count);
  t.checked_samples = r.get("checked_samples", read_count);
  t.mismatched_samples = r.get("mismatched_samples", read_count);
  t.first_mismatch = r.get("first_mismatch", nullable(read_sample_mismatch));
  t.inputs_modified_samples = r.get("inputs_modified_samples", read_count);
  t.first_input_modification = r.get("first_input_modification", nullable(read_sample_input_modification));
  t.other_streams_after_return = r.get("other_streams_after_return", read_bool);
  t.stop_reason = r.get("stop_reason", nullable(read_name<judge_wire::stop_reason>));
  // Added to protocol 3 without a version change: a runner built before it sends no "kernels".
  if (r.has("kernels")) t.kernels = r.get("kernels", array_of(read_kernel_launch));
  if (t.kernels.size() > max_kernel_launches)
    fail(r.place().at("kernels"), "at most " + std::to_string(max_kernel_launches) + " launches");
  t.replay_reads_back = r.get("replay_reads_back", read_bool);
  t.replay_uncarried = r.get("replay_uncarried", read_string);
  // Added to protocol 3 without a version change, as "kernels" was: figures for the judge's phases only.
  if (r.has("inputs_s")) t.inputs_s = r.get("inputs_s", read_phase_seconds);
  if (r.has("reference_s")) t.reference_s = r.get("reference_s", read_phase_seconds);
  const std::size_t samples = t.gpu_ms.size();
  if (t.host_ms.size() != samples || t.sm_clock_mhz.size() != samples || t.throttled.size() != samples)
    fail(r.place().at("gpu_ms"), "host_ms, sm_clock_mhz and throttled must have one entry per sample, as gpu_ms has");
  return t;
}

// ----- encoding --------------------------------------------------------------------------------------

template <typename T, typename Write> json nullable_json(const std::optional<T>& value, Write write) {
  return value ? write(*value) : json(nullptr);
}

inline json string_json(const std::string& text) { return text; }

/// A float as JSON: the number, or null when it is not finite (JSON has no NaN or infinity).
inline json number_or_null(float value) {
  return std::isfinite(value) ? json(static_cast<double>(value)) : json(nullptr);
}

inline json distribution_json(const judge_data::distribution& d) {
  return {{"kind", to_string(d.kind)},
          {"a", d.a},
          {"b", d.b},
          {"more", std::vector<double>(std::begin(d.more), std::end(d.more))}};
}

inline json buffer_json(const buffer_spec& b) {
  const auto data_json = [&b](const std::vector<float>& data) {
    if (b.type == judge_data::element_type::float32) return json(data);
    json values = json::array();
    for (const float word : data) values.push_back(judge_data::int_of_word(word));
    return values;
  };
  return {{"name", b.name},
          {"role", to_string(b.role)},
          {"type", to_string(b.type)},
          {"count", b.count},
          {"dist", nullable_json(b.dist, distribution_json)},
          {"data", nullable_json(b.data, data_json)},
          {"start", to_string(b.start)}};
}

inline json timing_json(const timing_spec& t) {
  return {{"budget_s", t.budget_s},
          {"min_samples", t.min_samples},
          {"min_s", t.min_s},
          {"max_samples", t.max_samples},
          {"target_precision", t.target_precision},
          {"cold_l2", t.cold_l2},
          {"last_timing_end_s", nullable_json(t.last_timing_end_s, [](double s) { return json(s); })}};
}

inline json place_json(const sample_place& place) {
  return {{"phase", place.warmup ? "warmup" : "timed"}, {"sample", place.sample}};
}

inline json sample_mismatch_json(const sample_mismatch& m) {
  json j = place_json(m.place);
  j["buffer"] = m.buffer;
  j["index"] = m.index;
  j["got"] = number_or_null(m.got);
  j["expected"] = number_or_null(m.expected);
  j["got_text"] = float_text(m.got);
  j["expected_text"] = float_text(m.expected);
  return j;
}

inline json kernel_launch_json(const kernel_launch& k) {
  return {{"name", k.name},
          {"grid", {k.grid[0], k.grid[1], k.grid[2]}},
          {"block", {k.block[0], k.block[1], k.block[2]}},
          {"dynamic_shared_bytes", k.dynamic_shared_bytes},
          {"static_shared_bytes", k.static_shared_bytes},
          {"registers", k.registers}};
}

inline json sample_input_modification_json(const sample_input_modification& m) {
  json j = place_json(m.place);
  j["buffer"] = m.buffer;
  j["index"] = m.index;
  return j;
}

inline std::string line(const json& object) {
  // Invalid UTF-8 (a learner's thread name, say) is replaced rather than thrown over.
  return object.dump(-1, ' ', false, json::error_handler_t::replace);
}

} // namespace detail

// ----- messages to JSON objects ---------------------------------------------------------------------

inline json to_json(const case_request& c) {
  json buffers = json::array();
  for (const buffer_spec& b : c.buffers) buffers.push_back(detail::buffer_json(b));
  json checks = json::array();
  for (const check_spec& k : c.checks) {
    json check = {{"seed", k.seed},
                  {"poison", to_string(k.poison)},
                  {"output_files", k.output_files},
                  {"record_file", detail::nullable_json(k.record_file, detail::string_json)}};
    if (!k.output_offsets.empty()) check["output_offsets"] = k.output_offsets;
    checks.push_back(std::move(check));
  }
  return {{"type", "case"},
          {"name", c.name},
          {"case_index", c.case_index},
          {"sizes", c.sizes},
          {"scalars", c.scalars},
          {"buffers", std::move(buffers)},
          {"checks", std::move(checks)},
          {"tolerance", {{"atol", c.tolerance.atol}, {"rtol", c.tolerance.rtol}}},
          {"timing", detail::nullable_json(c.timing, detail::timing_json)},
          {"replay_file", detail::nullable_json(c.replay_file, detail::string_json)}};
}

inline json to_json(const end_request&) { return {{"type", "end"}}; }
inline json to_json(const load_request&) { return {{"type", "load"}}; }

inline json to_json(const hello_answer& h) {
  return {{"type", "hello"},
          {"protocol", h.protocol},
          {"device", h.device},
          {"cc", h.cc},
          {"sms", h.sms},
          {"l2_bytes", h.l2_bytes},
          {"memory_bytes", h.memory_bytes},
          {"clock_max_mhz", h.clock_max_mhz},
          {"timing_method", to_string(h.method)},
          {"clock_source", to_string(h.clock)},
          {"timing_fallback_reason", detail::nullable_json(h.timing_fallback_reason, detail::string_json)},
          {"clock_unavailable_reason", detail::nullable_json(h.clock_unavailable_reason, detail::string_json)}};
}

inline json to_json(const no_device_answer& n) {
  return {{"type", "hello"}, {"protocol", n.protocol}, {"error", n.error}};
}

inline json to_json(const check_answer& a) {
  json modified = json::array();
  for (const input_modification& m : a.inputs_modified) modified.push_back({{"name", m.name}, {"index", m.index}});
  json guards = json::array();
  for (const named_guard_violation& g : a.guard_violations)
    guards.push_back({{"name", g.name}, {"side", to_string(g.violation.side)}, {"offset", g.violation.offset}});
  return {{"type", "check"},
          {"case", a.case_name},
          {"check", a.check},
          {"status", to_string(a.status)},
          {"error", detail::nullable_json(a.error, detail::string_json)},
          {"outputs", a.outputs},
          {"inputs_modified", std::move(modified)},
          {"guard_violations", std::move(guards)},
          {"banned_loaded", a.banned_loaded},
          {"stray_threads", a.stray_threads},
          {"host_ms", a.host_ms},
          {"recorded", a.recorded},
          {"not_replayable", detail::nullable_json(a.not_replayable, detail::string_json)},
          {"inputs_s", a.inputs_s},
          {"outputs_s", a.outputs_s}};
}

inline json to_json(const timing_answer& t) {
  return {{"type", "timing"},
          {"case", t.case_name},
          {"status", to_string(t.status)},
          {"error", detail::nullable_json(t.error, detail::string_json)},
          {"method", to_string(t.method)},
          {"cold_l2", t.cold_l2},
          {"gpu_ms", t.gpu_ms},
          {"host_ms", t.host_ms},
          {"sm_clock_mhz", t.sm_clock_mhz},
          {"throttled", t.throttled},
          {"warmup_calls", t.warmup_calls},
          {"checked_samples", t.checked_samples},
          {"mismatched_samples", t.mismatched_samples},
          {"first_mismatch", detail::nullable_json(t.first_mismatch, detail::sample_mismatch_json)},
          {"inputs_modified_samples", t.inputs_modified_samples},
          {"first_input_modification",
           detail::nullable_json(t.first_input_modification, detail::sample_input_modification_json)},
          {"other_streams_after_return", t.other_streams_after_return},
          {"stop_reason",
           detail::nullable_json(t.stop_reason, [](judge_wire::stop_reason r) { return json(to_string(r)); })},
          {"kernels", [&t] {
             json list = json::array();
             for (const kernel_launch& k : t.kernels) list.push_back(detail::kernel_launch_json(k));
             return list;
           }()},
          {"replay_reads_back", t.replay_reads_back},
          {"replay_uncarried", t.replay_uncarried},
          {"inputs_s", t.inputs_s},
          {"reference_s", t.reference_s}};
}

inline json to_json(const done_answer&) { return {{"type", "done"}}; }

inline json to_json(const held_answer&) { return {{"type", "held"}}; }

inline json to_json(const error_answer& e) { return {{"type", "error"}, {"error", e.error}}; }

inline json to_json(const denied_answer& d) { return {{"type", "denied"}, {"call", d.call}, {"rule", d.rule}}; }

inline json to_json(const request& r) {
  return std::visit([](const auto& message) { return to_json(message); }, r);
}

inline json to_json(const answer& a) {
  return std::visit([](const auto& message) { return to_json(message); }, a);
}

/// One line of the protocol (without its newline) for any message.
template <typename Message> std::string encode(const Message& message) { return detail::line(to_json(message)); }

// ----- JSON to messages -----------------------------------------------------------------------------

/// Reads a request object; throws protocol_error naming the field that is wrong.
inline request request_from_json(const json& object) {
  const detail::object_reader r(object, {"request", ""});
  const std::string type = r.get("type", detail::read_string);
  if (type == "case") return detail::read_case(r);
  if (type == "end") return end_request{};
  if (type == "load") return load_request{};
  detail::fail(r.place().at("type"),
               "unknown request type \"" + type + "\" (expected \"case\", \"end\" or \"load\")");
}

/// Reads an answer object; throws protocol_error naming the message and field that are wrong.
inline answer answer_from_json(const json& object) {
  const std::string type = detail::object_reader(object, {"answer", ""}).get("type", detail::read_string);
  if (type == "hello") {
    // A runner without a GPU says so in place of its device facts.
    const detail::object_reader r(object, {"hello", ""});
    if (r.has("error")) return detail::read_no_device(r);
    return detail::read_hello(r);
  }
  if (type == "check") return detail::read_check_answer(detail::object_reader(object, {"check answer", ""}));
  if (type == "timing") return detail::read_timing_answer(detail::object_reader(object, {"timing answer", ""}));
  if (type == "done") return done_answer{};
  if (type == "held") return held_answer{};
  if (type == "error") {
    const detail::object_reader r(object, {"error answer", ""});
    return error_answer{r.get("error", detail::read_string)};
  }
  if (type == "denied") {
    const detail::object_reader r(object, {"denied answer", ""});
    return denied_answer{r.get("call", detail::read_string), r.get("rule", detail::read_string)};
  }
  detail::fail({"answer", "type"},
               "unknown answer type \"" + type + "\" (expected hello, check, timing, done, error, denied or held)");
}

/// Parses one line as JSON; throws protocol_error when it is not.
inline json parse_line(const std::string& line) {
  try {
    return json::parse(line);
  } catch (const json::exception& e) {
    // parse_error, and out_of_range for a number no double holds (found by the recording fuzz target).
    throw protocol_error(std::string("not valid JSON: ") + e.what());
  }
}

/// Reads one request line; throws protocol_error naming the field that is wrong.
inline request decode_request(const std::string& line) { return request_from_json(parse_line(line)); }
/// Reads a recording (the file a recording runner wrote); throws protocol_error naming the field.
inline recorded_work decode_recorded_work(const std::string& text) {
  return detail::read_recorded_work(parse_line(text), {"recorded work", ""});
}
inline std::string encode_recorded_work(const recorded_work& work) {
  return detail::line(detail::recorded_work_json(work));
}

/// Reads one answer line; throws protocol_error naming the message and field that are wrong.
inline answer decode_answer(const std::string& line) { return answer_from_json(parse_line(line)); }

} // namespace judge_wire
