#include "catch.hpp"
#include "text_match.hpp"

#include "common/wire_json.hpp"

#include <climits>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

// Field-by-field equality, for the round trips only: the wire types need none elsewhere.
using judge_test::contains;

namespace judge_data {
bool operator==(const distribution& a, const distribution& b) {
  return a.kind == b.kind && a.a == b.a && a.b == b.b &&
         std::equal(std::begin(a.more), std::end(a.more), std::begin(b.more));
}
} // namespace judge_data

namespace judge_wire {
bool operator==(const buffer_spec& a, const buffer_spec& b) {
  const auto same_words = [](const std::optional<std::vector<float>>& x, const std::optional<std::vector<float>>& y) {
    return x.has_value() == y.has_value() &&
           (!x || (x->size() == y->size() && std::memcmp(x->data(), y->data(), x->size() * sizeof(float)) == 0));
  };
  return a.name == b.name && a.role == b.role && a.count == b.count && a.dist == b.dist && same_words(a.data, b.data) &&
         a.type == b.type && a.start == b.start;
}
bool operator==(const check_spec& a, const check_spec& b) {
  return a.seed == b.seed && a.poison == b.poison && a.output_files == b.output_files &&
         a.output_offsets == b.output_offsets;
}
bool operator==(const timing_spec& a, const timing_spec& b) {
  return a.budget_s == b.budget_s && a.min_samples == b.min_samples && a.max_samples == b.max_samples &&
         a.target_precision == b.target_precision && a.min_s == b.min_s && a.cold_l2 == b.cold_l2 &&
         a.last_timing_end_s == b.last_timing_end_s;
}
bool operator==(const case_request& a, const case_request& b) {
  return a.name == b.name && a.case_index == b.case_index && a.sizes == b.sizes && a.scalars == b.scalars &&
         a.buffers == b.buffers && a.checks == b.checks && a.tolerance.atol == b.tolerance.atol &&
         a.tolerance.rtol == b.tolerance.rtol && a.timing == b.timing;
}
bool operator==(const end_request&, const end_request&) { return true; }
bool operator==(const load_request&, const load_request&) { return true; }
bool operator==(const hello_answer& a, const hello_answer& b) {
  return a.protocol == b.protocol && a.device == b.device && a.cc == b.cc && a.sms == b.sms &&
         a.l2_bytes == b.l2_bytes && a.memory_bytes == b.memory_bytes && a.clock_max_mhz == b.clock_max_mhz &&
         a.method == b.method && a.timing_fallback_reason == b.timing_fallback_reason && a.clock == b.clock &&
         a.clock_unavailable_reason == b.clock_unavailable_reason;
}
bool operator==(const no_device_answer& a, const no_device_answer& b) {
  return a.protocol == b.protocol && a.error == b.error;
}
bool operator==(const input_modification& a, const input_modification& b) {
  return a.name == b.name && a.index == b.index;
}
bool operator==(const named_guard_violation& a, const named_guard_violation& b) {
  return a.name == b.name && a.violation.side == b.violation.side && a.violation.offset == b.violation.offset;
}
bool operator==(const check_answer& a, const check_answer& b) {
  return a.case_name == b.case_name && a.check == b.check && a.status == b.status && a.error == b.error &&
         a.outputs == b.outputs && a.inputs_modified == b.inputs_modified && a.guard_violations == b.guard_violations &&
         a.banned_loaded == b.banned_loaded && a.stray_threads == b.stray_threads && a.host_ms == b.host_ms &&
         a.inputs_s == b.inputs_s && a.outputs_s == b.outputs_s;
}
bool operator==(const sample_place& a, const sample_place& b) { return a.warmup == b.warmup && a.sample == b.sample; }
/// Floats compare bit for bit but every NaN is one: "nan" is all the wire keeps of one.
bool same_float(float a, float b) { return (std::isnan(a) && std::isnan(b)) || a == b; }
bool operator==(const sample_mismatch& a, const sample_mismatch& b) {
  return a.place == b.place && a.buffer == b.buffer && a.index == b.index && same_float(a.got, b.got) &&
         same_float(a.expected, b.expected);
}
bool operator==(const sample_input_modification& a, const sample_input_modification& b) {
  return a.place == b.place && a.buffer == b.buffer && a.index == b.index;
}
bool operator==(const timing_answer& a, const timing_answer& b) {
  return a.case_name == b.case_name && a.status == b.status && a.error == b.error && a.method == b.method &&
         a.cold_l2 == b.cold_l2 && a.gpu_ms == b.gpu_ms && a.host_ms == b.host_ms && a.sm_clock_mhz == b.sm_clock_mhz &&
         a.throttled == b.throttled && a.warmup_calls == b.warmup_calls && a.checked_samples == b.checked_samples &&
         a.mismatched_samples == b.mismatched_samples && a.first_mismatch == b.first_mismatch &&
         a.inputs_modified_samples == b.inputs_modified_samples &&
         a.first_input_modification == b.first_input_modification &&
         a.other_streams_after_return == b.other_streams_after_return && a.stop_reason == b.stop_reason &&
         a.kernels == b.kernels && a.inputs_s == b.inputs_s && a.reference_s == b.reference_s;
}
bool operator==(const done_answer&, const done_answer&) { return true; }
bool operator==(const held_answer&, const held_answer&) { return true; }
bool operator==(const error_answer& a, const error_answer& b) { return a.error == b.error; }
bool operator==(const denied_answer& a, const denied_answer& b) { return a.call == b.call && a.rule == b.rule; }
} // namespace judge_wire

using namespace judge_wire;

namespace {

case_request full_case() {
  case_request c;
  c.name = "ragged_1001x513x777";
  c.case_index = 3;
  c.sizes = {1001, 513, 777, 2147483647};
  buffer_spec a{
      "A", buffer_role::input, 4, judge_data::distribution{judge_data::distribution_kind::uniform, -1, 1}, {}};
  buffer_spec b{"B", buffer_role::input, 2, judge_data::distribution{judge_data::distribution_kind::cancel, 0.5, 2},
                std::vector<float>{0.1f, -3.75e-20f}};
  buffer_spec out{"C", buffer_role::output, 777777, std::nullopt, std::nullopt};
  c.buffers = {a, b, out};
  c.checks = {{0, poison_kind::nan, {"3.0.C.bin"}},
              {std::numeric_limits<std::uint64_t>::max(), poison_kind::big, {"3.1.C.bin"}}};
  c.tolerance = {1e-4, 2.5e-7};
  c.timing = timing_spec{2.5, 3, 0.25, 17, 0.0125, false, 81234.125};
  return c;
}

case_request bare_case() {
  case_request c;
  c.name = "n_1";
  c.buffers = {
      {"X", buffer_role::input, 1, judge_data::distribution{judge_data::distribution_kind::normal, 0, 0.5}, {}},
      {"Y", buffer_role::input, 1, judge_data::distribution{judge_data::distribution_kind::constant, 7, 0}, {}}};
  return c;
}

/// The kinds with parameters past the first two: a spike at the last element and a mix of special floats.
case_request special_case() {
  case_request c = bare_case();
  judge_data::distribution spike{judge_data::distribution_kind::spike, -5, 5};
  spike.more[0] = 1000;
  spike.more[1] = judge_data::spike_at_last;
  judge_data::distribution special{judge_data::distribution_kind::special, -1, 1};
  special.more[0] = 0.125;
  special.more[1] = 0.25;
  special.more[2] = 0.0625;
  special.more[3] = 0.5;
  c.buffers = {
      {"X", buffer_role::input, 3, spike, {}},
      {"Y", buffer_role::input, 3, special, {}},
      {"Z", buffer_role::input, 3, judge_data::distribution{judge_data::distribution_kind::alternating, 2, 2}, {}}};
  return c;
}

/// Every kind of buffer the format has: int inputs (explicit data at the int32 extremes, and a ramp), a
/// zeroed int output, an inout float buffer, and float parameters.
case_request typed_case() {
  case_request c;
  c.name = "histogram_like";
  c.sizes = {5, 3};
  c.scalars = {1.0e-5f, -0.5f};
  buffer_spec ints{"input", buffer_role::input, 3,
                   judge_data::distribution{judge_data::distribution_kind::uniform_int, 0, 2},
                   std::vector<float>{judge_data::word_of_int(INT32_MIN), judge_data::word_of_int(-1),
                                      judge_data::word_of_int(INT32_MAX)}};
  ints.type = judge_data::element_type::int32;
  buffer_spec ramp{"offsets", buffer_role::input, 4,
                   judge_data::distribution{judge_data::distribution_kind::ramp, 0, 3}, std::nullopt};
  ramp.type = judge_data::element_type::int32;
  buffer_spec bins{"histogram", buffer_role::output, 3, std::nullopt, std::nullopt};
  bins.type = judge_data::element_type::int32;
  bins.start = output_start::zero;
  buffer_spec data{"data", buffer_role::inout, 5,
                   judge_data::distribution{judge_data::distribution_kind::ramp, 10, -2.5}, std::nullopt};
  c.buffers = {ints, ramp, bins, data};
  c.checks = {{9, poison_kind::nan, {"0.0.histogram.bin", "0.0.data.bin"}}};
  return c;
}

/// typed_case's outputs into an output window, the second past 2^32 bytes.
case_request windowed_case() {
  case_request c = typed_case();
  c.checks[0].output_offsets = {0, (std::uint64_t{1} << 32) + 64};
  return c;
}

std::vector<std::pair<std::string, request>> sample_requests() {
  return {{"a case with every field set", full_case()},
          {"a case whose outputs go into an output window", windowed_case()},
          {"a case without checks or timing", bare_case()},
          {"a case with int, zeroed, inout buffers and float parameters", typed_case()},
          {"end", end_request{}},
          {"load", load_request{}}};
}

hello_answer full_hello() {
  hello_answer h;
  h.device = "NVIDIA H200";
  h.cc = "9.0";
  h.sms = 132;
  h.l2_bytes = 62914560;
  h.memory_bytes = 150000000000;
  h.clock_max_mhz = 1980;
  h.method = timing_method::events;
  h.timing_fallback_reason = "JUDGE_TIMING=events";
  h.clock = clock_source::none;
  h.clock_unavailable_reason = "libnvidia-ml.so.1 not found";
  return h;
}

check_answer full_check() {
  check_answer a;
  a.case_name = "ragged";
  a.check = 1;
  a.status = call_status::banned_library;
  a.error = "solve() loaded a banned library: libcublas.so.13 (cublas)";
  a.outputs = {"3.1.C.bin", "3.1.D.bin"};
  a.inputs_modified = {{"A", 17}};
  a.guard_violations = {{"C", {guard_side::before, 1}}, {"C", {guard_side::after, 0}}};
  a.banned_loaded = {"cublas"};
  a.stray_threads = {"worker (4242)"};
  a.host_ms = 0.375;
  a.inputs_s = 0.25;
  a.outputs_s = 0.0625;
  return a;
}

timing_answer ok_timing(std::optional<judge_wire::stop_reason> reason) {
  timing_answer t;
  t.case_name = "n_2pow24";
  t.method = timing_method::cupti;
  t.gpu_ms = {0.125, 0.25, 1e-3};
  t.host_ms = {0.5, 0.5, 0.75};
  t.sm_clock_mhz = {1980, 0, 4294967295u};
  t.throttled = {false, true, false};
  t.warmup_calls = 5;
  t.checked_samples = 8;
  t.other_streams_after_return = true;
  t.stop_reason = reason;
  t.inputs_s = 0.125;
  t.reference_s = 1.5;
  kernel_launch tiled;
  tiled.name = "matmul_tiled(float const*, float const*, float*, int, int, int)";
  tiled.grid[0] = 64;
  tiled.grid[1] = 32;
  tiled.grid[2] = 1;
  tiled.block[0] = 16;
  tiled.block[1] = 16;
  tiled.block[2] = 1;
  tiled.dynamic_shared_bytes = 4096;
  tiled.static_shared_bytes = 8192;
  tiled.registers = 43;
  t.kernels = {tiled};
  return t;
}

timing_answer failed_timing() {
  timing_answer t = ok_timing(std::nullopt);
  t.status = call_status::cuda_error;
  t.error = "cudaErrorIllegalAddress (after solve())";
  t.mismatched_samples = 2;
  t.first_mismatch = sample_mismatch{{true, 0}, "C", 12, std::numeric_limits<float>::infinity(), 0.1f};
  t.inputs_modified_samples = 1;
  t.first_input_modification = sample_input_modification{{false, 7}, "A", 0};
  return t;
}

std::vector<std::pair<std::string, answer>> sample_answers() {
  check_answer ok_check;
  ok_check.case_name = "n_1";
  timing_answer nan_timing = failed_timing();
  nan_timing.first_mismatch->got = std::numeric_limits<float>::quiet_NaN();
  nan_timing.first_mismatch->expected = -std::numeric_limits<float>::infinity();
  return {{"a hello with every field set", full_hello()},
          {"a hello without reasons", hello_answer{}},
          {"a hello without a device", no_device_answer{protocol_version, "no CUDA device: no CUDA-capable device"}},
          {"a check answer with every field set", full_check()},
          {"an ok check answer", ok_check},
          {"a timing stopped by precision", ok_timing(judge_wire::stop_reason::precision)},
          {"a timing stopped by its budget", ok_timing(judge_wire::stop_reason::budget)},
          {"a timing stopped at max_samples", ok_timing(judge_wire::stop_reason::max_samples)},
          {"a timing stopped by a failure", failed_timing()},
          {"a timing whose first mismatch is not finite", nan_timing},
          {"done", done_answer{}},
          {"held", held_answer{}},
          {"an error", error_answer{"request field type: missing"}},
          {"a denied system call", denied_answer{"clone", "no new processes (threads are fine)"}}};
}

/// The message of the protocol_error that decoding `line` throws, or "(decoded)".
std::string answer_error(const std::string& line) {
  try {
    decode_answer(line);
  } catch (const protocol_error& e) {
    return e.what();
  }
  return "(decoded)";
}

std::string request_error(const std::string& line) {
  try {
    decode_request(line);
  } catch (const protocol_error& e) {
    return e.what();
  }
  return "(decoded)";
}

/// `message` as JSON, changed by `edit`, as one line.
template <typename Message> std::string edited(const Message& message, const std::function<void(json&)>& edit) {
  json j = to_json(message);
  edit(j);
  return j.dump();
}

} // namespace

TEST_CASE("every request survives encoding and decoding unchanged", "[wire]") {
  const auto [name, message] = GENERATE(from_range(sample_requests()));
  const std::string line = encode(message);
  CAPTURE(name, line);
  CHECK(line.find('\n') == std::string::npos);
  CHECK(decode_request(line) == message);
}

TEST_CASE("every answer survives encoding and decoding unchanged", "[wire]") {
  const auto [name, message] = GENERATE(from_range(sample_answers()));
  const std::string line = encode(message);
  CAPTURE(name, line);
  CHECK(line.find('\n') == std::string::npos);
  const answer decoded = decode_answer(line);
  CHECK(decoded.index() == message.index());
  CHECK(decoded == message);
  CHECK(encode(decoded) == line);
}

TEST_CASE("messages keep their type first and their field names", "[wire]") {
  CHECK(encode(end_request{}) == R"({"type":"end"})");
  CHECK(encode(load_request{}) == R"({"type":"load"})");
  CHECK(encode(done_answer{}) == R"({"type":"done"})");
  CHECK(encode(held_answer{}) == R"({"type":"held"})");
  CHECK(encode(denied_answer{"fork", "no new processes"}) ==
        R"({"type":"denied","call":"fork","rule":"no new processes"})");
  const std::string check = encode(full_check());
  CHECK(check.rfind(R"({"type":"check","case":"ragged","check":1,"status":"banned_library",)", 0) == 0);
  CHECK(contains(check, R"("guard_violations":[{"name":"C","side":"before","offset":1})"));
  const std::string hello = encode(full_hello());
  CHECK(hello.rfind(R"({"type":"hello","protocol":7,"device":"NVIDIA H200","cc":"9.0",)", 0) == 0);
  CHECK(contains(hello, R"("timing_method":"events")"));
  CHECK(contains(encode(ok_timing(std::nullopt)), R"("stop_reason":null)"));
}

TEST_CASE("distribution kinds travel by name and seeds as unsigned 64-bit integers", "[wire]") {
  const std::string line = encode(full_case());
  CAPTURE(line);
  CHECK(contains(line, R"("dist":{"kind":"uniform","a":-1.0,"b":1.0,"more":[0.0,0.0,0.0,0.0]})"));
  CHECK(contains(line, R"("kind":"cancel")"));
  CHECK(contains(line, R"("seed":18446744073709551615)"));
  CHECK(contains(line, R"("dist":null,"data":null)"));
  CHECK(contains(encode(bare_case()), R"("kind":"constant")"));
  CHECK(contains(encode(bare_case()), R"("timing":null)"));
}

TEST_CASE("a spike's value and place and the probabilities of special floats travel with their kind", "[wire]") {
  const std::string line = encode(request{special_case()});
  CAPTURE(line);
  CHECK(contains(line, R"("dist":{"kind":"spike","a":-5.0,"b":5.0,"more":[1000.0,-1.0,0.0,0.0]})"));
  CHECK(contains(line, R"("kind":"special","a":-1.0,"b":1.0,"more":[0.125,0.25,0.0625,0.5]})"));
  CHECK(contains(line, R"("kind":"alternating")"));
  CHECK(std::get<case_request>(decode_request(line)) == special_case());
  json j = json::parse(line);
  j["buffers"][0]["dist"]["more"] = json::array({1.0});
  CHECK(contains(request_error(j.dump()), "request field buffers[0].dist.more: must have 4 numbers"));
}

TEST_CASE("a timed case sends no seed for its samples and each check names its output files", "[wire]") {
  const json line = json::parse(encode(full_case()));
  CAPTURE(line.dump());
  REQUIRE(line["timing"].is_object());
  CHECK_FALSE(line["timing"].contains("seed"));
  CHECK(line["checks"][1]["output_files"] == json::array({"3.1.C.bin"}));
  CHECK_FALSE(line["checks"][1].contains("output_offsets")); // files: no window
  CHECK(contains(encode(full_check()), R"("outputs":["3.1.C.bin","3.1.D.bin"])"));
}

TEST_CASE("plain file names are the only ones a runner may be asked to create", "[wire]") {
  for (const std::string name : {std::string("3.0.C.bin"), std::string("a"), std::string("x_y-z.1"), std::string("..a"),
                                 std::string(128, 'n')}) {
    CAPTURE(name);
    CHECK(is_simple_file_name(name));
  }
  for (const std::string name : {std::string(), std::string("."), std::string(".."), std::string("a/b"),
                                 std::string("/etc/passwd"), std::string("a b"), std::string("a\0b", 3),
                                 std::string("a\nb"), std::string(129, 'n'), std::string("caf\xc3\xa9")}) {
    CAPTURE(name);
    CHECK_FALSE(is_simple_file_name(name));
  }
}

TEST_CASE("a missing, mistyped or unknown answer field is an error that names it", "[wire]") {
  using edit = std::function<void(json&)>;
  const auto [what, line, expected] = GENERATE(table<std::string, std::string, std::string>({
      {"a check answer without status", edited(full_check(), edit([](json& j) { j.erase("status"); })),
       "check answer field status: missing"},
      {"a timing answer without status", edited(failed_timing(), edit([](json& j) { j.erase("status"); })),
       "timing answer field status: missing"},
      {"an unknown status", edited(full_check(), edit([](json& j) { j["status"] = "fine"; })),
       R"(check answer field status: must be one of "ok", "cuda_error", "banned_library", "stray_work", "not_replayable", "foreign_kernel", "invalid_recording", not "fine")"},
      {"a check number as text", edited(full_check(), edit([](json& j) { j["check"] = "1"; })),
       "check answer field check: must be an integer"},
      {"an error left out rather than null", edited(full_check(), edit([](json& j) { j.erase("error"); })),
       "check answer field error: missing"},
      {"an output named by a path",
       edited(full_check(), edit([](json& j) { j["outputs"][1] = "/home/judge/.config"; })),
       R"(check answer field outputs[1]: must be a plain file name (letters, digits, '.', '_', '-'; no '/'), not "/home/judge/.config")"},
      {"an output named as an object", edited(full_check(), edit([](json& j) {
                                                j["outputs"][0] = {{"name", "C"}};
                                              })),
       "check answer field outputs[0]: must be a string"},
      {"a guard side that is no side",
       edited(full_check(), edit([](json& j) { j["guard_violations"][0]["side"] = "inside"; })),
       "check answer field guard_violations[0].side: must be one of"},
      {"a timing without host times", edited(failed_timing(), edit([](json& j) { j.erase("host_ms"); })),
       "timing answer field host_ms: missing"},
      {"samples of unequal count", edited(failed_timing(), edit([](json& j) { j["throttled"] = json::array(); })),
       "timing answer field gpu_ms: host_ms, sm_clock_mhz and throttled must have one entry per sample"},
      {"a first mismatch whose text is no float",
       edited(failed_timing(), edit([](json& j) { j["first_mismatch"]["got_text"] = "about 1"; })),
       "timing answer field first_mismatch.got_text: must be a float as text"},
      {"an unknown stop reason", edited(failed_timing(), edit([](json& j) { j["stop_reason"] = "boredom"; })),
       "timing answer field stop_reason: must be one of"},
      {"a hello of another protocol version", edited(full_hello(), edit([](json& j) { j["protocol"] = 1; })),
       "hello field protocol: the runner speaks protocol version 1, this judge version 7"},
      {"a hello without its device", edited(full_hello(), edit([](json& j) { j.erase("device"); })),
       "hello field device: missing"},
      {"a denied answer without its rule", R"({"type":"denied","call":"fork"})", "denied answer field rule: missing"},
      {"an answer of no known type", R"({"type":"goodbye"})", "answer field type: unknown answer type \"goodbye\""},
      {"an answer without a type", R"({"case":"x"})", "answer field type: missing"},
      {"an answer that is no object", "[1,2]", "answer: must be an object"},
      {"a line that is not JSON", "check ok", "not valid JSON"},
  }));
  CAPTURE(what, line);
  CHECK(contains(answer_error(line), expected));
}

TEST_CASE("a missing, mistyped or out-of-range request field is an error that names it", "[wire]") {
  using edit = std::function<void(json&)>;
  const auto [what, line, expected] = GENERATE(table<std::string, std::string, std::string>({
      {"a distribution kind as a number",
       edited(full_case(), edit([](json& j) { j["buffers"][0]["dist"]["kind"] = 0; })),
       "request field buffers[0].dist.kind: must be one of \"uniform\", \"normal\", \"constant\", \"cancel\", "
       "\"uniform_int\", \"ramp\", \"offsets\""},
      {"an input without a distribution", edited(full_case(), edit([](json& j) { j["buffers"][0]["dist"] = nullptr; })),
       "request field buffers[0].dist: is required for an input or inout buffer"},
      {"an output with data", edited(full_case(), edit([](json& j) { j["buffers"][2]["data"] = json::array({1.0}); })),
       "request field buffers[2].data: must be null for an output buffer"},
      {"data of the wrong length", edited(full_case(), edit([](json& j) { j["buffers"][1]["data"].push_back(1.0); })),
       "request field buffers[1].data: has 3 values but count is 2"},
      {"a negative seed", edited(full_case(), edit([](json& j) { j["checks"][0]["seed"] = -1; })),
       "request field checks[0].seed: must be an unsigned 64-bit integer"},
      {"a seed as text", edited(full_case(), edit([](json& j) { j["checks"][1]["seed"] = "123"; })),
       "request field checks[1].seed: must be an unsigned 64-bit integer"},
      {"a check without poison", edited(full_case(), edit([](json& j) { j["checks"][0].erase("poison"); })),
       "request field checks[0].poison: missing"},
      {"a check without output files", edited(full_case(), edit([](json& j) { j["checks"][0].erase("output_files"); })),
       "request field checks[0].output_files: missing"},
      {"an output file in another folder",
       edited(full_case(), edit([](json& j) { j["checks"][1]["output_files"][0] = "../results.db"; })),
       R"(request field checks[1].output_files[0]: must be a plain file name (letters, digits, '.', '_', '-'; no '/'), not "../results.db")"},
      {"an output file named ..", edited(full_case(), edit([](json& j) { j["checks"][0]["output_files"][0] = ".."; })),
       "request field checks[0].output_files[0]: must be a plain file name"},
      {"an output file with an empty name",
       edited(full_case(), edit([](json& j) { j["checks"][0]["output_files"][0] = ""; })),
       "request field checks[0].output_files[0]: must be a plain file name"},
      {"fewer output files than outputs",
       edited(full_case(), edit([](json& j) { j["checks"][0]["output_files"] = json::array(); })),
       "request field checks[0].output_files: has 0 names for 1 output buffers"},
      {"an output offset off the window's 64-byte grid",
       edited(full_case(), edit([](json& j) { j["checks"][0]["output_offsets"] = json::array({96}); })),
       "request field checks[0].output_offsets[0]: must be a multiple of 64, not 96"},
      {"a negative output offset",
       edited(full_case(), edit([](json& j) { j["checks"][0]["output_offsets"] = json::array({-64}); })),
       "request field checks[0].output_offsets[0]: must be an integer in [0, 281474976710656]"},
      {"an output offset far past any window",
       edited(full_case(), edit([](json& j) { j["checks"][0]["output_offsets"] = json::array({1ULL << 60}); })),
       "request field checks[0].output_offsets[0]: must be an integer in [0, 281474976710656]"},
      {"more output offsets than outputs", edited(full_case(), edit([](json& j) {
                                                    j["checks"][1]["output_offsets"] = json::array({0, 64});
                                                  })),
       "request field checks[1].output_offsets: has 2 offsets for 1 output buffers"},
      {"one output file named twice",
       edited(full_case(), edit([](json& j) { j["checks"][1]["output_files"][0] = "3.0.C.bin"; })),
       R"(request field checks[1].output_files: names "3.0.C.bin" twice)"},
      {"a count of zero", edited(full_case(), edit([](json& j) { j["buffers"][2]["count"] = 0; })),
       "request field buffers[2].count: must be an integer in [1, "},
      {"a size beyond an int", edited(full_case(), edit([](json& j) { j["sizes"][0] = 2147483648LL; })),
       "request field sizes[0]: must be an integer in [-2147483648, 2147483647]"},
      {"a tolerance left out", edited(full_case(), edit([](json& j) { j.erase("tolerance"); })),
       "request field tolerance: missing"},
      {"timing without min_samples", edited(full_case(), edit([](json& j) { j["timing"].erase("min_samples"); })),
       "request field timing.min_samples: missing"},
      {"timing whose max is below its min", edited(full_case(), edit([](json& j) { j["timing"]["max_samples"] = 2; })),
       "request field timing.max_samples: is below min_samples"},
      {"an int buffer filled from a float distribution",
       edited(typed_case(), edit([](json& j) { j["buffers"][1]["dist"]["kind"] = "uniform"; })),
       "request field buffers[1].dist: a uniform distribution cannot fill an int32 buffer"},
      {"int data with a fraction", edited(typed_case(), edit([](json& j) { j["buffers"][0]["data"][1] = 0.5; })),
       "request field buffers[0].data[1]: must be an integer in [-2147483648, 2147483647]"},
      {"an element type of no known name",
       edited(typed_case(), edit([](json& j) { j["buffers"][0]["type"] = "int64"; })),
       "request field buffers[0].type: must be one of \"float32\", \"int32\""},
      {"an input that starts zeroed", edited(typed_case(), edit([](json& j) { j["buffers"][3]["start"] = "zero"; })),
       "request field buffers[3].start: must be \"poison\" unless the buffer is an output"},
      {"an inout buffer without a distribution",
       edited(typed_case(), edit([](json& j) { j["buffers"][3]["dist"] = nullptr; })),
       "request field buffers[3].dist: is required for an input or inout buffer"},
      {"an inout buffer without an output file",
       edited(typed_case(), edit([](json& j) { j["checks"][0]["output_files"].erase(1); })),
       "request field checks[0].output_files: has 1 names for 2 output buffers"},
      {"scalars left out", edited(typed_case(), edit([](json& j) { j.erase("scalars"); })),
       "request field scalars: missing"},
      {"a request of no known type", R"({"type":"pause"})",
       R"(request field type: unknown request type "pause" (expected "case", "end" or "load"))"},
  }));
  CAPTURE(what, line);
  CHECK(contains(request_error(line), expected));
}

TEST_CASE("a timing answer's kernel launches round-trip and a runner that sends none has none", "[wire]") {
  const timing_answer t = ok_timing(judge_wire::stop_reason::precision);
  REQUIRE(t.kernels.size() == 1);
  const auto decoded = std::get<timing_answer>(decode_answer(encode(t)));
  CHECK(decoded.kernels == t.kernels);
  CHECK(decoded.kernels[0].blocks() == 64 * 32);
  CHECK(decoded.kernels[0].threads_per_block() == 256);

  nlohmann::json older = nlohmann::json::parse(encode(t));
  older.erase("kernels");
  CHECK(std::get<timing_answer>(decode_answer(older.dump())).kernels.empty());

  nlohmann::json flat = nlohmann::json::parse(encode(t));
  flat["kernels"][0]["grid"] = {64, 32};
  CHECK(contains(answer_error(flat.dump()), "grid must have three extents"));
  nlohmann::json empty_block = nlohmann::json::parse(encode(t));
  empty_block["kernels"][0]["block"] = {0, 1, 1};
  CHECK(contains(answer_error(empty_block.dump()), "kernels"));
  nlohmann::json too_many = nlohmann::json::parse(encode(t));
  for (int k = 0; k < 8; ++k) too_many["kernels"].push_back(too_many["kernels"][0]);
  CHECK(contains(answer_error(too_many.dump()), "at most 8 launches"));
}

TEST_CASE("a timing answer's phase seconds round-trip, default to 0, and a forged figure is refused", "[wire]") {
  const timing_answer t = ok_timing(judge_wire::stop_reason::precision);
  const auto decoded = std::get<timing_answer>(decode_answer(encode(t)));
  CHECK(decoded.inputs_s == 0.125);
  CHECK(decoded.reference_s == 1.5);

  nlohmann::json older = nlohmann::json::parse(encode(t));
  older.erase("inputs_s");
  older.erase("reference_s");
  const auto from_older = std::get<timing_answer>(decode_answer(older.dump()));
  CHECK(from_older.inputs_s == 0);
  CHECK(from_older.reference_s == 0);

  for (const nlohmann::json forged : {nlohmann::json(-1.0), nlohmann::json(1e300), nlohmann::json("1")}) {
    nlohmann::json bad = nlohmann::json::parse(encode(t));
    bad["reference_s"] = forged;
    CAPTURE(forged.dump());
    CHECK(contains(answer_error(bad.dump()), "reference_s"));
  }
}

TEST_CASE("a check answer's phase seconds round-trip, default to 0, and a forged figure is refused", "[wire]") {
  const check_answer a = full_check();
  const auto decoded = std::get<check_answer>(decode_answer(encode(a)));
  CHECK(decoded.inputs_s == 0.25);
  CHECK(decoded.outputs_s == 0.0625);

  nlohmann::json older = nlohmann::json::parse(encode(a));
  older.erase("inputs_s");
  older.erase("outputs_s");
  const auto from_older = std::get<check_answer>(decode_answer(older.dump()));
  CHECK(from_older.inputs_s == 0);
  CHECK(from_older.outputs_s == 0);

  for (const char* field : {"inputs_s", "outputs_s"})
    for (const nlohmann::json forged : {nlohmann::json(-1.0), nlohmann::json(1e300), nlohmann::json("1")}) {
      nlohmann::json bad = nlohmann::json::parse(encode(a));
      bad[field] = forged;
      CAPTURE(field, forged.dump());
      CHECK(contains(answer_error(bad.dump()), field));
    }
}

TEST_CASE("floats of a first mismatch travel as exact text", "[wire]") {
  const float value = GENERATE(0.1f, -3.4028235e38f, 1.17549435e-38f, 1e-45f, 16777217.0f);
  timing_answer t = failed_timing();
  t.first_mismatch->got = value;
  const auto decoded = std::get<timing_answer>(decode_answer(encode(t)));
  CAPTURE(float_text(value));
  CHECK(decoded.first_mismatch->got == value);
  CHECK(float_text(std::numeric_limits<float>::quiet_NaN()) == "nan");
  CHECK(float_text(-std::numeric_limits<float>::infinity()) == "-inf");
}

TEST_CASE("the poison values are one quiet NaN and -1.7e38, recognised bit for bit", "[wire]") {
  CHECK(poison_value(poison_kind::big) == -1.7e38f);
  CHECK(std::isnan(poison_value(poison_kind::nan)));
  CHECK(is_poison(poison_value(poison_kind::nan)));
  CHECK(is_poison(poison_value(poison_kind::big)));
  CHECK_FALSE(is_poison(std::numeric_limits<float>::quiet_NaN()));
  CHECK_FALSE(is_poison(-1.7e38f * 1.0000001f));
  CHECK(poison_for_check(0) == poison_kind::nan);
  CHECK(poison_for_check(1) == poison_kind::big);
}

TEST_CASE("every wire name maps back to its value", "[wire]") {
  for (const auto& n : wire_names<call_status>::table) CHECK(from_string<call_status>(to_string(n.value)) == n.value);
  for (const auto& n : wire_names<judge_data::distribution_kind>::table)
    CHECK(from_string<judge_data::distribution_kind>(n.name) == n.value);
  CHECK_FALSE(from_string<timing_method>("nvtx"));
  CHECK(std::string(type_of(answer{no_device_answer{}})) == "hello");
  CHECK(std::string(type_of(answer{timing_answer{}})) == "timing");
  CHECK(std::string(type_of(answer{denied_answer{}})) == "denied");
}

TEST_CASE("int buffers travel as JSON integers, with their type, start and the case's float parameters", "[wire]") {
  const std::string line = encode(request{typed_case()});
  CHECK(contains(line, R"("type":"int32")"));
  CHECK(contains(line, R"("data":[-2147483648,-1,2147483647])"));
  CHECK(contains(line, R"("start":"zero")"));
  CHECK(contains(line, R"("role":"inout")"));
  CHECK(contains(line, R"("kind":"uniform_int")"));
  const auto decoded = std::get<case_request>(decode_request(line));
  REQUIRE(decoded.scalars.size() == 2);
  CHECK(decoded.scalars[1] == -0.5f);
  CHECK(judge_data::int_of_word((*decoded.buffers[0].data)[0]) == INT32_MIN);
}
