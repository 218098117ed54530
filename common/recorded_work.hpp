// The device work of one call of solve(), as the recording runner saw it issued, in a form another
// process can issue again: the replaying runner, which loads only the solution's device code (the
// fatbins its compile kept) and never its host code, times this work and checks its outputs
// (docs/security.md, "Timing by replay"). Part of the runner protocol (common/wire.hpp); the codec is
// common/recorded_work_json.hpp.
//
// A recording is a claim by a process that ran learner host code, so nothing in it is trusted: the
// replaying runner checks every reference (a kernel must be in the solution's own device code, a copy
// must stay inside the memory it names) and every timed output against the problem's reference on
// fresh inputs. Work that is not what solve() did can only be slower or wrong, never faster and right.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace judge_wire {

/// What a device address points into.
enum class region_kind {
  buffer,     ///< one of the judge's buffers of the call (index: signature order of the pointer parameters)
  allocation, ///< memory solve() allocated (index into recorded_work::allocations)
  global,     ///< a __device__ or __constant__ variable of the solution's device code (by name)
};

/// A place in device memory, relative to what holds it, so that it means the same in any process.
struct device_address {
  region_kind kind = region_kind::buffer;
  std::int64_t index = 0; ///< buffer or allocation index; 0 for globals
  std::string global;     ///< the variable's name in the device code (mangled), for globals
  /// [B] from the region's start: may lie a little before it or at its end (a pointer one past it)
  std::int64_t offset = 0;
};

/// An 8-byte device pointer inside a block of bytes (kernel parameters, a copied host buffer): `at` is
/// where it sits, `target` where it points.
struct relocation {
  std::uint64_t at = 0; ///< [B] from the block's start, a multiple of 8
  device_address target;
};

/// cudaMalloc, cudaMallocAsync: replayed as one allocation of the same size, kept for the whole case.
struct recorded_allocation {
  std::uint64_t bytes = 0;
};

/// A launch attribute (cudaLaunchKernelExC), by the runtime's id, with its value's bytes.
struct launch_attribute {
  int id = 0;
  std::string value; ///< the value union's bytes, as the runtime held them
};

struct recorded_launch {
  std::string kernel; ///< the kernel's name in the device code (mangled)
  std::uint32_t grid[3] = {1, 1, 1};
  std::uint32_t block[3] = {1, 1, 1};
  std::uint64_t shared_bytes = 0; ///< [B] dynamic shared memory per block
  std::vector<launch_attribute> attributes;
  std::string parameters; ///< the parameter block, laid out as the kernel's parameter info says
  std::vector<relocation> relocations;
};

/// cudaMemset: `bytes` bytes at `target`, each set to `value`.
struct recorded_memset {
  device_address target;
  int value = 0;
  std::uint64_t bytes = 0;
};

/// cudaMemset2D, and cudaMemset3D as one of these per slice: `height` rows of `width` bytes, `pitch`
/// bytes apart, from `target`, each byte set to `value`.
struct recorded_memset_2d {
  device_address target;
  int value = 0;
  std::uint64_t pitch = 0;  ///< [B] >= width
  std::uint64_t width = 0;  ///< [B]
  std::uint64_t height = 0; ///< rows
};

enum class copy_direction { host_to_device, device_to_device, device_to_host };

/// cudaMemcpy and its symbol forms. Host to device copies carry the host bytes as solve() passed them
/// (they cannot depend on the inputs unless host code read the device first, which a device-to-host copy
/// before them shows); device to host copies are replayed into a buffer of the replaying runner's own.
struct recorded_copy {
  copy_direction direction = copy_direction::host_to_device;
  std::optional<device_address> target; ///< absent for device to host
  std::optional<device_address> source; ///< absent for host to device
  std::uint64_t bytes = 0;
  std::string host_bytes;              ///< host to device: the data, `bytes` long
  std::vector<relocation> relocations; ///< device pointers inside host_bytes
};

/// cudaFuncSetAttribute (by the runtime's cudaFuncAttribute id) or cudaFuncSetCacheConfig
/// (attribute -1, value the cache configuration).
struct recorded_function_attribute {
  std::string kernel;
  int attribute = 0;
  int value = 0;
};

using recorded_step =
    std::variant<recorded_launch, recorded_memset, recorded_copy, recorded_function_attribute, recorded_memset_2d>;

/// cudaDeviceSetLimit as the solution left it: the device heap that in-kernel malloc() draws from, the
/// per-thread stack, the printf buffer. Absent: the driver's default. Set before any recorded work.
struct recorded_device_limits {
  std::optional<std::uint64_t> malloc_heap_bytes;
  std::optional<std::uint64_t> stack_bytes;
  std::optional<std::uint64_t> printf_fifo_bytes;
};

/// State solve() keeps from call to call that the recording does not carry (beyond
/// recording_limits::max_state_bytes): a replay that goes wrong then says so instead of blaming the code.
struct uncarried_state {
  std::string what; ///< "device variable table" or "an allocation of an earlier call"
  std::uint64_t bytes = 0;
};

/// Everything one call of solve() asked of the device, in the order it asked.
struct recorded_work {
  std::vector<recorded_allocation> allocations;
  /// The device state solve() found when the call began and that earlier calls or the solution's static
  /// constructors left: its function attributes, the contents of its device variables and of the
  /// allocations the call uses that earlier calls made. Issued before every sample, untimed, and before
  /// that sample's inputs exist. Restoration only: function attributes and copies from the host into
  /// the solution's allocations and device variables, never a launch, a memset or a copy from the
  /// device (which could compute from inputs, untimed); the replay refuses anything else.
  std::vector<recorded_step> preamble;
  std::vector<recorded_step> steps; ///< the call's own work: what is timed
  /// Host code read device memory back (a device-to-host copy) before it issued more work: that work may
  /// depend on what it read, which a replay cannot reproduce. Said, so that a replay that goes wrong
  /// can say why.
  bool reads_back_before_more_work = false;
  recorded_device_limits limits;
  std::vector<uncarried_state> uncarried; ///< at most max_uncarried entries
};

/// Bounds a recording must keep to be replayed; beyond them the recording runner says the call cannot
/// be replayed instead of sending it, and the replaying runner refuses a recording that breaks them.
namespace recording_limits {
/// [B] the recording file, checked while it is read (by the judge, which moves it without parsing it,
/// and by the replaying runner, which parses it): bytes travel as hex, so twice max_host_bytes, and room
/// for the rest (4096 launches of up to a few KiB of parameters each).
constexpr std::uint64_t max_file_bytes = 160ull << 20;
/// [B] state carried from earlier calls (device variables and allocations, the smallest first), within
/// max_host_bytes: a table built on the first call, a counter or barrier words inside a scratch buffer.
constexpr std::uint64_t max_state_bytes = 48ull << 20;
constexpr std::size_t max_uncarried = 16;
constexpr std::size_t max_steps = 4096;
constexpr std::size_t max_allocations = 1024;
constexpr std::uint64_t max_host_bytes = 64ull << 20;     ///< [B] over all host-to-device copies
constexpr std::uint64_t max_read_back_bytes = 1ull << 30; ///< [B] over all device-to-host copies
constexpr std::size_t max_parameter_bytes = 32768;        ///< [B] per launch (CUDA's own limit is 32764)
/// [B] over all launches of a call: with the host bytes (both travel as hex) and the steps' own fields,
/// a recording the recorder writes stays inside max_file_bytes, so an honest call the replay cannot take
/// is "not timed" with its reason, never a recording the replaying runner refuses.
constexpr std::uint64_t max_parameter_total_bytes = 12ull << 20;
constexpr std::size_t max_attribute_bytes = 64; ///< [B] per launch attribute value
/// [B] the largest device heap, stack or printf buffer a recording may ask for (cudaDeviceSetLimit)
constexpr std::uint64_t max_device_limit_bytes = 16ull << 30;
} // namespace recording_limits

} // namespace judge_wire
