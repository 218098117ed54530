// What one call of solve() asks of the device, written down so that another process can ask it again
// (common/recorded_work.hpp). The recording runner's runtime calls reach it through
// runtime_interposer.cpp: the runner exports its own definitions of the CUDA runtime calls that do
// device work, and the learner's shared object, loaded after, binds to them before libcudart.
//
// It lives in the process that runs learner host code, so it decides nothing: what it writes is a
// proposal that the replaying runner checks and times (docs/security.md, "Timing by replay").
#pragma once

#include "common/recorded_work.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace judge_harness {

/// One of the judge's buffers of the recorded call, in signature order of the pointer parameters.
struct judge_region {
  const void* base = nullptr;
  std::size_t bytes = 0;
};

/// A recording: the work, or why the call cannot be replayed.
struct recording {
  judge_wire::recorded_work work;
  std::optional<std::string> not_replayable;
};

class work_recorder {
public:
  /// The process's recorder: the interposed runtime calls are plain C functions.
  static work_recorder& instance();

  /// Learner code is running (the solution's static constructors, solve()): only allocations and
  /// settings made then are the solution's; the harness's own go through the same calls.
  void set_learner_active(bool active) noexcept { m_learner_active = active; }

  /// Starts recording the device work of one call of solve(), whose buffers are `buffers`.
  void begin(std::vector<judge_region> buffers);
  /// Ends it and hands the recording over.
  recording end();
  /// A call is being recorded and learner code is running: the harness's own calls around solve() (its
  /// checks for a device reset, its copies of the outputs) are no part of the recording.
  bool recording_now() const noexcept { return m_recording && m_learner_active; }

  // --- what the interposed runtime calls report (after the real call succeeded) --------------------
  void allocated(void* pointer, std::size_t bytes);
  void freed(void* pointer);
  void variable_registered(const void* host_shadow, const char* device_name, std::size_t bytes);
  void launched(CUkernel kernel, dim3 grid, dim3 block, void** args, std::size_t shared_bytes,
                const cudaLaunchAttribute* attributes, unsigned attribute_count, const char* api);
  /// A launch by the host stub's address (cudaLaunchKernel, cudaLaunchKernelExC, ...).
  void launched_function(const void* function, dim3 grid, dim3 block, void** args, std::size_t shared_bytes,
                         const cudaLaunchAttribute* attributes, unsigned attribute_count, const char* api);
  void memset(void* target, int value, std::size_t bytes);
  /// cudaMemset2D (and each slice of cudaMemset3D): `height` rows of `width` bytes, `pitch` apart.
  void memset_2d(void* target, std::size_t pitch, int value, std::size_t width, std::size_t height);
  /// cudaDeviceSetLimit by learner code: the heap, stack and printf buffer a replay sets the same.
  void device_limit(cudaLimit limit, std::size_t bytes);
  void copied(void* target, const void* source, std::size_t bytes, cudaMemcpyKind kind);
  void copied_to_symbol(const void* symbol, const void* source, std::size_t bytes, std::size_t offset,
                        cudaMemcpyKind kind);
  void copied_from_symbol(void* target, const void* symbol, std::size_t bytes, std::size_t offset, cudaMemcpyKind kind);
  void function_attribute(const void* function, int attribute, int value);
  /// A call whose device work a replay does not reproduce (cudaMemcpy2D, a graph launch, ...): the
  /// recording, if one is being made, says so by the call's name. `sticky`: its effect can outlive the
  /// call that made it (a texture object), so it counts even when made before recording.
  void unsupported(const char* api, bool sticky = false);

private:
  work_recorder() = default;

  struct allocation {
    std::size_t bytes = 0;
    std::int64_t index = -1; ///< in the recording, once the recording uses it
  };
  struct variable {
    std::string name;
    std::size_t bytes = 0;
    const void* host_shadow = nullptr;
    CUdeviceptr address = 0; ///< resolved at begin(); 0 when the runtime could not
  };

  /// Where `pointer` points, among the judge's buffers, the solution's live allocations and its device
  /// variables; nullopt when it is none of them. Needs m_mutex.
  std::optional<judge_wire::device_address> resolve(std::uint64_t pointer);
  /// The 8-byte slots of `bytes` that point into known memory; a slot that holds a CUDA pointer into
  /// memory the recorder does not know makes the recording not replayable. Needs m_mutex.
  std::vector<judge_wire::relocation> relocations_of(const std::string& bytes, std::size_t begin, std::size_t end,
                                                     const std::string& what);
  /// Whether the driver knows `pointer` as device, managed or registered host memory.
  static bool is_cuda_pointer(std::uint64_t pointer);
  /// The kernel's name, or "" (then the recording is not replayable).
  std::string kernel_name(CUkernel kernel);
  void refuse(const std::string& why); ///< needs m_mutex
  /// Names state the recording does not carry (recorded_work::uncarried). Needs m_mutex.
  void note_uncarried(const std::string& what, std::uint64_t bytes);
  /// Puts into the preamble what the allocations the call used held when it began. Needs m_mutex.
  void carry_allocation_state();
  void add_step(judge_wire::recorded_step step); ///< needs m_mutex
  /// A device address for a copy or a memset of `bytes` at `pointer`, or nullopt after refuse().
  std::optional<judge_wire::device_address> device_target(const void* pointer, std::size_t bytes, const char* what);

  std::mutex m_mutex;
  std::atomic<bool> m_learner_active{false};
  std::atomic<bool> m_recording{false};
  std::map<std::uint64_t, allocation> m_allocations; ///< by address: the solution's live allocations
  std::vector<variable> m_variables;
  /// Function attributes the solution has set so far, by (kernel, attribute): replayed before timing.
  std::map<std::pair<std::string, int>, int> m_function_attributes;
  std::optional<std::string> m_sticky_unsupported;

  std::vector<judge_region> m_buffers;
  recording m_current;
  bool m_read_back = false;
  /// What the live allocations held when the call began, by address (within max_state_bytes): the
  /// state a kernel may carry from call to call. Put into the preamble at end() for those the call used.
  std::map<std::uint64_t, std::string> m_allocation_contents;
  std::uint64_t m_host_bytes = 0;
  std::uint64_t m_read_back_bytes = 0;
  std::uint64_t m_parameter_bytes = 0; ///< [B] of every launch's parameters in this call
  std::uint64_t m_state_bytes = 0;     ///< [B] of max_state_bytes, taken at begin()
  /// Live allocations beyond the state budget at begin(): named in the recording if the call uses one.
  std::set<std::uint64_t> m_too_large_for_state;
  judge_wire::recorded_device_limits m_limits; ///< as learner code last set them
};

/// Runs the learner's code of one scope with work_recorder's learner flag set.
class learner_scope {
public:
  learner_scope() { work_recorder::instance().set_learner_active(true); }
  ~learner_scope() { work_recorder::instance().set_learner_active(false); }
  learner_scope(const learner_scope&) = delete;
  learner_scope& operator=(const learner_scope&) = delete;
};

} // namespace judge_harness
