// The replaying runner's half of "timing by replay" (docs/security.md): the solution's device code,
// loaded from the fatbins its compile kept (never its host code), and a recording of one call of
// solve() bound to it, ready to be issued again on any set of the judge's buffers.
#pragma once

#include "common/recorded_work.hpp"
#include "common/wire.hpp"
#include "harness/replay/recording_check.hpp"

#include <cuda.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace judge_harness {

/// The modules of the solution's device code, one per fatbin file (a translation unit each).
class device_code {
public:
  /// Loads every file; throws std::runtime_error naming one the driver refuses.
  explicit device_code(const std::vector<std::string>& fatbin_files);
  ~device_code();
  device_code(const device_code&) = delete;
  device_code& operator=(const device_code&) = delete;

  /// The kernel of that (mangled) name in the first module that has it, or nullptr when none has.
  CUfunction kernel(const std::string& name) const;
  /// The device variable of that name in the first module that has it: its address and size; {0, 0}
  /// when none has.
  std::pair<CUdeviceptr, std::size_t> variable(const std::string& name) const;

private:
  std::vector<CUmodule> m_modules;
};

/// What `code` and a case whose pointer parameters are `buffers` offer a recording (check_recording).
replay_device device_of(const device_code& code, const std::vector<judge_wire::buffer_spec>& buffers);

class replay_program {
public:
  /// Binds `work` to `code` for a case whose pointer parameters are `buffers`: checks every field first
  /// (check_recording, before any CUDA call), then finds every kernel and variable, sets the device
  /// limits solve() set, allocates the solution's allocations and keeps the state to restore on the
  /// device. Throws replay_refusal. Made after the judge's buffers of the timing exist, so that memory
  /// the solution's own allocations leave too little of is the solution's "not timed", not the judge's
  /// failure.
  replay_program(const judge_wire::recorded_work& work, const device_code& code,
                 const std::vector<judge_wire::buffer_spec>& buffers);
  ~replay_program();
  replay_program(const replay_program&) = delete;
  replay_program& operator=(const replay_program&) = delete;

  /// Issues the preamble (function attributes, the contents of device variables and of the solution's
  /// allocations as the recorded call found them) with `buffers` as the judge's buffers; before every
  /// sample, untimed.
  /// Returns the driver's error in words, or "".
  std::string prepare(void* const* buffers);
  /// Enqueues the call's work on the legacy default stream with `buffers` as the judge's buffers (the
  /// pointer parameters in signature order). Returns the driver's error in words, or "".
  std::string issue(void* const* buffers);

  /// The recording held device-to-host copies followed by more work (recorded_work's flag).
  bool reads_back_before_more_work() const noexcept { return m_reads_back; }

private:
  struct bound_launch {
    CUfunction function = nullptr;
    CUlaunchConfig config{};
    std::vector<CUlaunchAttribute> attributes;
    std::string parameters; ///< patched before every launch
    std::vector<void*> parameter_pointers;
    std::vector<judge_wire::relocation> relocations;
    std::string name;
  };
  struct bound_step {
    enum class kind { launch, memset, memset_2d, copy, attribute } what = kind::launch;
    std::size_t launch = 0; ///< into m_launches
    judge_wire::device_address target, source;
    std::uint64_t bytes = 0;
    int value = 0;
    judge_wire::copy_direction direction = judge_wire::copy_direction::host_to_device;
    std::string host_bytes; ///< patched before every copy
    std::vector<judge_wire::relocation> relocations;
    CUfunction function = nullptr; ///< attribute
    int attribute = 0;
    std::uint64_t pitch = 0, height = 0; ///< memset_2d (bytes: its width)
    /// A restoring copy whose bytes mean the same for every set of buffers: kept on the device once and
    /// copied from there before each sample (0: copied from host_bytes).
    CUdeviceptr device_image = 0;
  };

  bound_step bind(const judge_wire::recorded_step& step, const device_code& code);
  /// The address `a` means with `buffers` as the judge's buffers.
  CUdeviceptr address(const judge_wire::device_address& a, void* const* buffers) const;
  void patch(std::string& bytes, const std::vector<judge_wire::relocation>& relocations, void* const* buffers) const;
  std::string run(std::vector<bound_step>& steps, void* const* buffers);

  const device_code& m_code;
  std::vector<judge_wire::buffer_spec> m_buffers;
  std::vector<void*> m_allocations;
  std::vector<std::uint64_t> m_allocation_bytes;
  std::vector<bound_launch> m_launches;
  std::vector<bound_step> m_preamble;
  std::vector<bound_step> m_steps;
  std::vector<char> m_read_back; ///< where device-to-host copies land
  std::vector<void*> m_images;   ///< the device copies of restored state
  bool m_reads_back = false;
  /// The state put back before each sample, on the device where it does not depend on the buffers.
  void keep_on_device(bound_step& restoring);
  void release() noexcept;
};

} // namespace judge_harness
