// The replaying runner's check of a recording before any CUDA call: a recording was written by a process
// that ran learner host code, so it is hostile input to the process that holds the clock. Every field
// is checked against what the replaying runner allocated and what the recorder
// (harness/record/work_recorder.cpp) can write: sizes, offsets, counts, launch and function attribute
// kinds and values, launch dimensions. What no recorder writes is an invalid recording (the learner's
// run-time error); what the recorder writes but this device cannot replay is not_replayable; a kernel
// that is not the solution's is foreign_kernel.
//
// Plain C++ without the CUDA driver (cuda.h only for the attribute numbers), so that the CPU tests and
// the fuzz target (tests/fuzz/) drive it with a device described by plain data.
#pragma once

#include "common/recorded_work.hpp"
#include "common/wire.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace judge_harness {

/// Why a recording cannot be replayed: not_replayable, foreign_kernel (a library's kernel) or
/// invalid_recording (a field no recorder writes).
class replay_refusal : public std::runtime_error {
public:
  replay_refusal(judge_wire::call_status status, const std::string& why) : std::runtime_error(why), m_status(status) {}
  judge_wire::call_status status() const noexcept { return m_status; }

private:
  judge_wire::call_status m_status;
};

/// A kernel's parameters as its own parameter info lays them out: (offset, size) in bytes, in order.
using parameter_layout = std::vector<std::pair<std::size_t, std::size_t>>;

/// What the replaying runner has to bind a recording to.
struct replay_device {
  std::vector<std::uint64_t> buffer_bytes; ///< [B] the judge's buffers of the case, in signature order
  /// The layout of the solution's kernel of that (mangled) name; nullopt when its code has none.
  std::function<std::optional<parameter_layout>(const std::string&)> kernel;
  /// [B] the size of the solution's device variable of that name; nullopt when its code has none.
  std::function<std::optional<std::uint64_t>(const std::string&)> variable;
  std::uint64_t shared_bytes_optin = 227u * 1024; ///< [B] dynamic shared memory a block may opt in to
  std::uint64_t memory_bytes = 0;                 ///< [B] the device's memory
};

/// One launch attribute as the driver takes it: its id and the 64-byte value union, rebuilt from the
/// fields that id means (every other byte zero), never copied from the recording.
struct checked_attribute {
  int id = 0;
  std::array<unsigned char, 64> value{};
};

/// Throws replay_refusal for anything `work` may not ask of `device`; returns when it may be bound.
void check_recording(const judge_wire::recorded_work& work, const replay_device& device);

/// The launch's attributes, checked (check_recording has run) and rebuilt.
std::vector<checked_attribute> checked_attributes(const judge_wire::recorded_launch& launch);

/// [B] how far outside one of the judge's buffers a recorded pointer may point and still mean it (its
/// guards lie there: a kernel indexing from A - 1 passes such a pointer); the recorder's own bound.
constexpr std::int64_t buffer_slack_bytes = 4096;

} // namespace judge_harness
