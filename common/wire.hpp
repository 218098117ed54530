// The runner protocol (docs/architecture.md, "Runner protocol") as plain data: every message the judge
// and a runner exchange, and the names and bit patterns both must agree on. One set of types for both
// programs; common/wire_json.hpp is the one codec that turns them into JSON lines and back.
// Host code only, no CUDA runtime: included by harness sources (g++ and nvcc) and by the judge.
#pragma once

#include "common/datagen.h"
#include "common/recorded_work.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace judge_wire {

/// Sent in "hello"; a judge refuses a runner that speaks another version.
constexpr int protocol_version = 7;

// ---------------------------------------------------------------------------------------------------
// Names. Every enum that travels is spelled by one table here, used by the codec and by anything
// that shows the name.

/// The outcome of one call of solve(), as the runner observed it.
/// not_replayable: the work of solve() cannot be timed by replay (the error says why); foreign_kernel:
/// solve() launched a kernel that is not in the solution's own device code (a library's);
/// invalid_recording: the recording holds what the judge's recorder never writes (a forged field), which
/// the replaying runner refused before any CUDA call.
enum class call_status { ok, cuda_error, banned_library, stray_work, not_replayable, foreign_kernel, invalid_recording };
/// How the runner measures the GPU time of solve().
enum class timing_method { cupti, events };
/// Which side of a buffer a changed guard byte lies on.
enum class guard_side { before, after };
/// Why the runner stopped taking timed samples (when no failure stopped it).
enum class stop_reason { precision, budget, max_samples };
/// What an output buffer holds before solve() runs: something solve() must overwrite.
enum class poison_kind { nan, big };
/// input: generated, read-only; output: written by solve(); inout: generated, then overwritten in place
/// by solve() and compared as an output.
enum class buffer_role { input, output, inout };
/// What an output buffer holds when solve() starts: a poison value (so an element it fails to write is
/// caught), or zeros (a contract such as "the histogram arrives zeroed").
enum class output_start { poison, zero };
/// Where NVML's SM clock readings come from: NVML, or nowhere (every reading is 0).
enum class clock_source { nvml, none };

template <typename E> struct enum_name {
  E value;
  const char* name;
};

/// The wire's name table of enum E (specialised below for every enum that travels; empty otherwise, so
/// that to_string and from_string take part only for those).
template <typename E> struct wire_names {};

template <> struct wire_names<call_status> {
  static constexpr enum_name<call_status> table[] = {{call_status::ok, "ok"},
                                                     {call_status::cuda_error, "cuda_error"},
                                                     {call_status::banned_library, "banned_library"},
                                                     {call_status::stray_work, "stray_work"},
                                                     {call_status::not_replayable, "not_replayable"},
                                                     {call_status::foreign_kernel, "foreign_kernel"},
                                                     {call_status::invalid_recording, "invalid_recording"}};
};
template <> struct wire_names<region_kind> {
  static constexpr enum_name<region_kind> table[] = {
      {region_kind::buffer, "buffer"}, {region_kind::allocation, "allocation"}, {region_kind::global, "global"}};
};
template <> struct wire_names<copy_direction> {
  static constexpr enum_name<copy_direction> table[] = {{copy_direction::host_to_device, "host_to_device"},
                                                        {copy_direction::device_to_device, "device_to_device"},
                                                        {copy_direction::device_to_host, "device_to_host"}};
};
template <> struct wire_names<timing_method> {
  static constexpr enum_name<timing_method> table[] = {{timing_method::cupti, "cupti"},
                                                       {timing_method::events, "events"}};
};
template <> struct wire_names<guard_side> {
  static constexpr enum_name<guard_side> table[] = {{guard_side::before, "before"}, {guard_side::after, "after"}};
};
template <> struct wire_names<stop_reason> {
  static constexpr enum_name<stop_reason> table[] = {{stop_reason::precision, "precision"},
                                                     {stop_reason::budget, "budget"},
                                                     {stop_reason::max_samples, "max_samples"}};
};
template <> struct wire_names<poison_kind> {
  static constexpr enum_name<poison_kind> table[] = {{poison_kind::nan, "nan"}, {poison_kind::big, "big"}};
};
template <> struct wire_names<buffer_role> {
  static constexpr enum_name<buffer_role> table[] = {
      {buffer_role::input, "input"}, {buffer_role::output, "output"}, {buffer_role::inout, "inout"}};
};
template <> struct wire_names<output_start> {
  static constexpr enum_name<output_start> table[] = {{output_start::poison, "poison"}, {output_start::zero, "zero"}};
};
template <> struct wire_names<judge_data::element_type> {
  static constexpr enum_name<judge_data::element_type> table[] = {{judge_data::element_type::float32, "float32"},
                                                                  {judge_data::element_type::int32, "int32"}};
};
template <> struct wire_names<clock_source> {
  static constexpr enum_name<clock_source> table[] = {{clock_source::nvml, "nvml"}, {clock_source::none, "none"}};
};
/// Distribution kinds travel by these names (the generator itself lives in datagen.h).
template <> struct wire_names<judge_data::distribution_kind> {
  static constexpr enum_name<judge_data::distribution_kind> table[] = {
      {judge_data::distribution_kind::uniform, "uniform"},
      {judge_data::distribution_kind::normal, "normal"},
      {judge_data::distribution_kind::constant, "constant"},
      {judge_data::distribution_kind::cancel, "cancel"},
      {judge_data::distribution_kind::uniform_int, "uniform_int"},
      {judge_data::distribution_kind::ramp, "ramp"},
      {judge_data::distribution_kind::offsets, "offsets"},
      {judge_data::distribution_kind::sparse, "sparse"},
      {judge_data::distribution_kind::spike, "spike"},
      {judge_data::distribution_kind::alternating, "alternating"},
      {judge_data::distribution_kind::special, "special"}};
};

/// The wire name of `value`: "ok", "cupti", "uniform", ...
template <typename E, typename = decltype(wire_names<E>::table)> const char* to_string(E value) {
  for (const enum_name<E>& n : wire_names<E>::table)
    if (n.value == value) return n.name;
  return "?";
}

/// The value named `name`, or nullopt when no value has that name.
template <typename E, typename = decltype(wire_names<E>::table)> std::optional<E> from_string(std::string_view name) {
  for (const enum_name<E>& n : wire_names<E>::table)
    if (name == n.name) return n.value;
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------------
// Poison values: the runner fills outputs with them, the judge recognises them in a wrong output.

/// The bits of a poison value: a quiet NaN with a payload no arithmetic produces, and a huge negative
/// finite number (for solutions that test for NaN).
constexpr std::uint32_t poison_bits(poison_kind poison) {
  return poison == poison_kind::nan ? 0x7FC0DEADu : 0xFEFFC99Eu; // 0xFEFFC99E is -1.7e38f
}

/// The poison value itself, as a float.
inline float poison_value(poison_kind poison) {
  const std::uint32_t bits = poison_bits(poison);
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

/// Whether `value` is one of the poison values, bit for bit.
inline bool is_poison(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits == poison_bits(poison_kind::nan) || bits == poison_bits(poison_kind::big);
}

/// The poison of checked call `k`: the two kinds alternate, so an output that happens to hold one of
/// them is caught by the other.
constexpr poison_kind poison_for_check(std::size_t k) { return k % 2 == 0 ? poison_kind::nan : poison_kind::big; }

// ---------------------------------------------------------------------------------------------------
// Requests (judge → runner, on the runner's stdin).

/// One pointer parameter of solve(), in signature order.
struct buffer_spec {
  std::string name;
  buffer_role role = buffer_role::input;
  std::size_t count = 0;                        ///< elements (32 bits each, whatever the type)
  std::optional<judge_data::distribution> dist; ///< generated buffers only, and required for them
  /// Generated buffers only: explicit data, replacing generation. 32-bit elements: an int32 buffer's
  /// values are held as their bits (judge_data::word_of_int) and travel as JSON integers.
  std::optional<std::vector<float>> data;
  judge_data::element_type type = judge_data::element_type::float32;
  output_start start = output_start::poison; ///< outputs only: what solve() finds in the buffer

  /// Read-only for solve(): an input whose bits must be unchanged after the call.
  bool is_input() const noexcept { return role == buffer_role::input; }
  /// Filled before the call from `dist` or `data`: inputs and inout buffers.
  bool is_generated() const noexcept { return role != buffer_role::output; }
  /// Compared with a reference after the call: outputs and inout buffers.
  bool is_result() const noexcept { return role != buffer_role::input; }
};

/// Whether `name` may name a file the runner creates: one plain name (letters, digits, '.', '_', '-';
/// not "." or "..", at most 128 characters), so it can only mean a file right inside the scratch folder.
inline bool is_simple_file_name(std::string_view name) {
  if (name.empty() || name.size() > 128 || name == "." || name == "..") return false;
  for (const char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
          c == '-'))
      return false;
  return true;
}

/// One checked call: the seed its inputs are generated from (the only seed a runner receives: one-way
/// for hidden cases, so it reveals nothing about other cases), the poison its outputs start as, and
/// the files its outputs go to.
struct check_spec {
  std::uint64_t seed = 0;
  poison_kind poison = poison_kind::nan;
  /// One simple file name (is_simple_file_name) per output buffer, in signature order, chosen by the
  /// judge: the runner creates exactly these, new, in its scratch folder.
  std::vector<std::string> output_files;
  /// A file (a simple name, like output_files) the recording runner writes this call's device work to,
  /// as recorded_work JSON, for the replaying runner to time; absent: the call is not recorded.
  std::optional<std::string> record_file;
  /// Where each output goes instead when the judge shares an output window with the runner (its
  /// --output-window): a byte offset into the window per output buffer, in the order of output_files,
  /// each a multiple of 64. Empty: the outputs go to their files. The names still say which outputs the
  /// answer reports ready.
  std::vector<std::uint64_t> output_offsets;
};

/// A float32 element passes when |got - ref| <= atol + rtol * |ref|; an int32 element must equal its
/// reference. The judge resolves both numbers per case (docs/problem-format.md: the problem's tolerance,
/// a case's own `tolerance`, `tolerance.sum`). A case's `compare: exact` travels as atol = rtol = 0, which
/// against the runner's float reference is exactly the judge's rule: equal floats, −0.0 equal to 0.0.
struct tolerance_spec {
  double atol = 1e-5;
  double rtol = 1e-5;
};

/// How to time a case. The inputs of every timed call come from a seed the runner draws at that moment
/// (getrandom), sent nowhere: no one, the solution included, knows a sample's inputs before it runs.
struct timing_spec {
  double budget_s = 3.0; ///< [s] wall time after which sampling stops adapting
  /// never fewer samples, whatever the precision: the rule's first look at the median's precision (it looks
  /// every judge_timing::precision_look_every kept samples), so that a slow, steady call stops as soon as
  /// its median is known (docs/timing.md)
  int min_samples = 16;
  double min_s = 0.1;    ///< [s] never a shorter sampling phase (clock and placement effects show over time)
  int max_samples = 2000;
  /// [fraction] stop once the median of the kept samples is this precise: the half-width of its 95%
  /// confidence interval, relative (judge_stats::median_relative_half_width; docs/timing.md says why 0.25%).
  double target_precision = 0.0025;
  bool cold_l2 = true;
  /// [s] on the machine's monotonic clock (CLOCK_MONOTONIC, std::chrono::steady_clock, the same in every
  /// process) when a timing on this GPU last ended, in any runner of the judge that holds the GPU's lock;
  /// absent: none that it knows of. The clock a warm-up waits for is the GPU's, not the process's.
  std::optional<double> last_timing_end_s;
};

/// "case": run `checks` checked calls, then, if every one was ok and `timing` is set, time the case.
struct case_request {
  std::string name;
  std::int64_t case_index = 0;
  std::vector<int> sizes;           ///< the int parameters of solve(), in signature order
  std::vector<float> scalars;       ///< the float parameters of solve(), in signature order
  std::vector<buffer_spec> buffers; ///< the pointer parameters of solve(), in signature order
  std::vector<check_spec> checks;
  tolerance_spec tolerance;
  std::optional<timing_spec> timing; ///< absent: not timed
  /// The work to time, for the replaying runner (docs/security.md): a file (a simple name) in its scratch
  /// folder holding recorded_work JSON, which the judge moved there from the recording runner's without
  /// reading it; with timing only, never with checks.
  std::optional<std::string> replay_file;
};

/// "end": answer "done" and exit 0.
struct end_request {};

/// "load": to a runner started with --load-on-request, which has set up CUDA and waits for this before it
/// loads the solution (whose static constructors are learner code): load it now and say hello.
struct load_request {};

using request = std::variant<case_request, end_request, load_request>;

// ---------------------------------------------------------------------------------------------------
// Answers (runner → judge, on fd 3).

/// "hello" from a runner that found its GPU.
struct hello_answer {
  int protocol = protocol_version;
  std::string device;            ///< "NVIDIA H200"
  std::string cc;                ///< compute capability, "9.0"
  int sms = 0;                   ///< streaming multiprocessors
  std::int64_t l2_bytes = 0;     ///< [B]
  std::int64_t memory_bytes = 0; ///< [B] global memory
  double clock_max_mhz = 0;      ///< [MHz] NVML's maximum SM clock, else CUDA's clock rate
  timing_method method = timing_method::cupti;
  std::optional<std::string> timing_fallback_reason; ///< why "events", when it is
  clock_source clock = clock_source::none;
  std::optional<std::string> clock_unavailable_reason; ///< why no NVML clock, when there is none
};

/// "hello" from a runner that found no CUDA device; it exits 3 after sending it.
struct no_device_answer {
  int protocol = protocol_version;
  std::string error; ///< "no CUDA device: ..."
};

struct input_modification {
  std::string name;
  std::int64_t index = 0; ///< first element whose bits changed
};

/// A changed byte in a guard region around a buffer.
struct guard_violation {
  guard_side side = guard_side::after;
  /// [B] distance from the buffer's edge: on the `after` side, bytes between the end of the buffer and
  /// the changed byte (0 = the first byte past the end); on the `before` side, bytes between the changed
  /// byte and the start (1 = the byte right before the start).
  std::size_t offset = 0;
};

struct named_guard_violation {
  std::string name;
  guard_violation violation;
};

/// "check": what one checked call did. Its outputs are in files; whether they are right is the
/// judge's to decide.
struct check_answer {
  std::string case_name;
  std::size_t check = 0;
  call_status status = call_status::ok;
  std::optional<std::string> error; ///< what went wrong, when status is not ok
  /// The check's output_files that the runner has written (raw little-endian float32), as named in the
  /// request: the runner names no path of its own.
  std::vector<std::string> outputs;
  std::vector<input_modification> inputs_modified;
  std::vector<named_guard_violation> guard_violations;
  std::vector<std::string> banned_loaded; ///< banned names, e.g. "cublas"
  std::vector<std::string> stray_threads;
  double host_ms = 0.0; ///< [ms]
  /// With record_file: whether the file was written, or why the call's work cannot be replayed (an API
  /// the replay does not reproduce, a pointer to memory it did not see allocated).
  bool recorded = false;
  std::optional<std::string> not_replayable;
  /// [s] host wall time of the runner's work around the call, so that the judge can say where a checked
  /// call went: making its buffers, its inputs and their pristine copies and poisoning its outputs
  /// (inputs_s), and copying its outputs to the host, into the output window or their files (outputs_s). Optional on
  /// the wire.
  double inputs_s = 0;
  double outputs_s = 0;
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

/// One kernel launch of learner code as CUPTI recorded it during a timed sample: where the judge's
/// occupancy and wave figures come from.
struct kernel_launch {
  std::string name; ///< demangled where CUPTI could, else the symbol
  std::int64_t grid[3] = {0, 0, 0};
  std::int64_t block[3] = {0, 0, 0};
  std::int64_t dynamic_shared_bytes = 0; ///< [B] per block
  std::int64_t static_shared_bytes = 0;  ///< [B] per block
  std::int64_t registers = 0;            ///< per thread

  std::int64_t blocks() const { return grid[0] * grid[1] * grid[2]; }
  std::int64_t threads_per_block() const { return block[0] * block[1] * block[2]; }
  bool operator==(const kernel_launch& o) const {
    for (int d = 0; d < 3; ++d)
      if (grid[d] != o.grid[d] || block[d] != o.block[d]) return false;
    return name == o.name && dynamic_shared_bytes == o.dynamic_shared_bytes &&
           static_shared_bytes == o.static_shared_bytes && registers == o.registers;
  }
};

/// At most this many launches travel in a timing answer (distinct by name and configuration).
constexpr std::size_t max_kernel_launches = 8;

/// "timing": the timed samples of one case, and what the runner's own checks of them found.
struct timing_answer {
  std::string case_name;
  call_status status = call_status::ok;
  std::optional<std::string> error; ///< what went wrong, when status is not ok
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
  std::optional<judge_wire::stop_reason> stop_reason; ///< absent when a failure stopped the timing
  /// The learner's kernels of one timed sample (CUPTI only; empty with events). Added in protocol 3 as
  /// an optional field: a runner that does not send it has no launches.
  std::vector<kernel_launch> kernels;
  /// A replay's: its recording said host code read the device back before more work
  /// (recorded_work::reads_back_before_more_work), and which state it could not carry
  /// (recorded_work::uncarried, in words, or ""), so that a replay that goes wrong says why.
  bool replay_reads_back = false;
  std::string replay_uncarried;
  /// [s] host wall time of the work around the calls, warm-up included, so that the judge can say where a
  /// case's timing went: making each call's inputs and their pristine copies (inputs_s), and running the
  /// problem's GPU reference and comparing every buffer with it (reference_s). Optional on the wire.
  double inputs_s = 0;
  double reference_s = 0;
};

/// "done": the answer to "end".
struct done_answer {};

/// "held": from a runner started with --load-on-request, once it has set up CUDA, its context and the
/// system-call filter, before it waits for "load" (or "end"). Nothing of its start is left to run: the
/// judge may time another runner's work from here on without this start beside it.
struct held_answer {};

/// "error": the runner itself failed (a request it cannot read, an unwritable scratch folder); it exits 2.
struct error_answer {
  std::string error;
};

/// "denied": the runner's system-call filter (harness/runner/syscall_filter.cpp) stopped a call of
/// learner code; it may come in place of any answer, and the runner exits 4 after sending it.
struct denied_answer {
  std::string call; ///< the system call, "clone"
  std::string rule; ///< the rule it broke, in a learner's words: "no new processes (threads are fine)"
};

using answer = std::variant<hello_answer, no_device_answer, check_answer, timing_answer, done_answer, error_answer,
                            denied_answer, held_answer>;

/// The "type" of an answer, for messages: "hello", "check", ...
inline const char* type_of(const answer& a) {
  constexpr const char* types[] = {"hello", "hello", "check", "timing", "done", "error", "denied", "held"};
  static_assert(std::variant_size_v<answer> == sizeof types / sizeof types[0], "a type for every answer");
  return types[a.index()];
}

} // namespace judge_wire
