// The runner protocol, version 1 (docs/architecture.md): requests parsed from JSON lines, answers
// written as JSON lines. The only file of the harness that knows JSON.
#pragma once

#include "case_request.hpp"
#include "device_facts.hpp"
#include "guarded_buffer.hpp"
#include "solve_timer.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace judge_harness {

constexpr int protocol_version = 1;

/// A request the runner cannot read: the judge's fault, never the solution's.
class protocol_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

enum class request_kind { run_case, end };

struct request {
  request_kind kind = request_kind::end;
  case_request run_case; ///< when kind is run_case
};

/// Parses one request line; throws protocol_error naming the field that is wrong.
request parse_request(const std::string& line);

/// The outcome of a call of solve(), as the judge reads it.
enum class call_status { ok, cuda_error, banned_library, stray_work };
const char* to_string(call_status status);

struct hello_answer {
  device_facts device;
  double clock_max_mhz = 0; ///< [MHz] NVML's maximum SM clock, else CUDA's clock rate
  timing_method method = timing_method::cupti;
  std::string timing_fallback_reason; ///< why "events", when it is
  bool nvml_clock = false;            ///< clock_source "nvml" (else "none")
  std::string clock_unavailable_reason;
};

struct output_file {
  std::string name;
  std::string file;
};

struct input_modification {
  std::string name;
  std::int64_t index = 0; ///< first element whose bits changed
};

struct named_guard_violation {
  std::string name;
  guard_violation violation;
};

struct check_answer {
  std::string case_name;
  std::size_t check = 0;
  call_status status = call_status::ok;
  std::string error; ///< what went wrong, when status is not ok
  std::vector<output_file> outputs;
  std::vector<input_modification> inputs_modified;
  std::vector<named_guard_violation> guard_violations;
  std::vector<std::string> banned_loaded; ///< banned names, e.g. "cublas"
  std::vector<std::string> stray_threads;
  double host_ms = 0.0;      ///< [ms]
  bool context_lost = false; ///< not sent: the runner must exit(1) after answering
};

/// Where in the timing a fact was seen: warm-up call or timed sample number `sample`.
struct sample_place {
  bool warmup = false;
  std::int64_t sample = 0;
};

struct sample_mismatch {
  sample_place place;
  std::string buffer;
  std::int64_t index = 0;
  float got = 0.0f;
  float expected = 0.0f;
};

struct sample_input_modification {
  sample_place place;
  std::string buffer;
  std::int64_t index = 0;
};

struct timing_answer {
  std::string case_name;
  call_status status = call_status::ok;
  std::string error;
  timing_method method = timing_method::cupti;
  bool cold_l2 = true;
  std::vector<double> gpu_ms;         ///< [ms] per timed sample
  std::vector<double> host_ms;        ///< [ms] per timed sample: solve() + synchronisation, host wall time
  std::vector<unsigned> sm_clock_mhz; ///< [MHz] per timed sample, 0 without NVML
  std::vector<bool> throttled;        ///< per timed sample
  std::int64_t warmup_calls = 0;
  std::int64_t checked_samples = 0;    ///< calls checked against the GPU reference, warm-up included
  std::int64_t mismatched_samples = 0; ///< of those, calls with an output outside tolerance
  std::optional<sample_mismatch> first_mismatch;
  std::int64_t inputs_modified_samples = 0;
  std::optional<sample_input_modification> first_input_modification;
  bool other_streams_after_return = false;
  std::string stop_reason;   ///< "noise", "budget", "max_samples", or empty when stopped by a failure
  bool context_lost = false; ///< not sent: the runner must exit(1) after answering
};

std::string to_json_line(const hello_answer& hello);
std::string to_json_line(const check_answer& check);
std::string to_json_line(const timing_answer& timing);
/// {"type":"hello","error":"no CUDA device: ..."}
std::string no_device_hello_line(const std::string& reason);
std::string done_line();
/// {"type":"error","error":...}: the runner itself failed (bad request, unwritable scratch folder).
std::string error_line(const std::string& message);

} // namespace judge_harness
