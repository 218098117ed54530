#include "harness/record/work_recorder.hpp"

#include "common/demangle.hpp"
#include "harness/cuda/driver_api.hpp"

#include <algorithm>
#include <cstring>
#include <set>
#include <utility>
#include <vector>

namespace judge_harness {
namespace {

using judge_wire::copy_direction;
using judge_wire::device_address;
using judge_wire::recorded_copy;
using judge_wire::recorded_function_attribute;
using judge_wire::recorded_launch;
using judge_wire::recorded_memset;
using judge_wire::region_kind;
using judge_wire::relocation;
namespace limits = judge_wire::recording_limits;

/// [B] the state a recording carries over from earlier calls, device variables and the allocations the
/// call uses together, the smallest first: a table built on the first call, a counter, a barrier's
/// words. A scratch buffer larger than what is left is the call's own to fill; it is named in the
/// recording (uncarried), so that a replay that goes wrong without it says so.
constexpr std::uint64_t max_state_bytes = limits::max_state_bytes;

/// [B] a pointer this far outside a judge's buffer still means that buffer: its guards lie there, and a
/// kernel that indexes from A - 1 passes such a pointer.
constexpr std::int64_t buffer_slack = 4096;

/// Launch attributes a replay issues as they were. The access policy window (persisting L2, which would
/// survive the judge's flush) and events (which name objects of the recording process) are not among them.
bool replayable_attribute(cudaLaunchAttributeID id) {
  switch (id) {
  case cudaLaunchAttributeIgnore:
  case cudaLaunchAttributeCooperative:
  case cudaLaunchAttributeClusterDimension:
  case cudaLaunchAttributeClusterSchedulingPolicyPreference:
  case cudaLaunchAttributeProgrammaticStreamSerialization:
  case cudaLaunchAttributePriority:
  case cudaLaunchAttributeMemSyncDomainMap:
  case cudaLaunchAttributeMemSyncDomain:
  case cudaLaunchAttributePreferredClusterDimension:
  case cudaLaunchAttributePreferredSharedMemoryCarveout:
    return true;
  default:
    return false;
  }
}

/// A word that could be a user-space address of a CUDA allocation: device allocations sit far above 4 GiB
/// in the unified address space, and most floats and int pairs read as 64-bit words do not.
bool plausible_address(std::uint64_t word) { return word >= (1ull << 32) && word < (1ull << 47); }

} // namespace

work_recorder& work_recorder::instance() {
  static work_recorder* recorder = new work_recorder(); // never destroyed: exit handlers may still call in
  return *recorder;
}

void work_recorder::begin(std::vector<judge_region> buffers) {
  const std::lock_guard<std::mutex> lock(m_mutex);
  m_buffers = std::move(buffers);
  m_current = recording{};
  m_read_back = false;
  m_host_bytes = 0;
  m_read_back_bytes = 0;
  m_parameter_bytes = 0;
  for (auto& [address, a] : m_allocations) a.index = -1;
  if (m_sticky_unsupported) refuse(*m_sticky_unsupported);
  m_current.work.limits = m_limits;
  // The state earlier calls left: function attributes, then the contents of every device variable (a
  // table a first call copied into __constant__ memory, say), replayed once before the samples.
  for (const auto& [key, value] : m_function_attributes)
    m_current.work.preamble.push_back(recorded_function_attribute{key.first, key.second, value});
  // Device variables, the smallest first (a table a first call copied into __constant__ memory, say).
  std::vector<variable*> by_size_variables;
  for (variable& v : m_variables) {
    void* address = nullptr;
    if (cudaGetSymbolAddress(&address, v.host_shadow) != cudaSuccess) {
      cudaGetLastError(); // the lookup's own error, not the solution's
      v.address = 0;
      continue;
    }
    v.address = reinterpret_cast<CUdeviceptr>(address);
    if (v.bytes > 0) by_size_variables.push_back(&v);
  }
  std::stable_sort(by_size_variables.begin(), by_size_variables.end(),
                   [](const variable* a, const variable* b) { return a->bytes < b->bytes; });
  m_state_bytes = 0;
  for (variable* v : by_size_variables) {
    if (m_state_bytes + v->bytes > max_state_bytes) {
      note_uncarried("device variable " + judge_symbols::demangled(v->name), v->bytes);
      continue;
    }
    std::string contents(v->bytes, '\0');
    if (cudaMemcpy(contents.data(), reinterpret_cast<const void*>(v->address), v->bytes, cudaMemcpyDeviceToHost) !=
        cudaSuccess) {
      cudaGetLastError();
      continue;
    }
    m_state_bytes += v->bytes;
    m_host_bytes += v->bytes;
    recorded_copy copy;
    copy.direction = copy_direction::host_to_device;
    copy.target = device_address{region_kind::global, 0, v->name, 0};
    copy.bytes = v->bytes;
    copy.relocations = relocations_of(contents, 0, contents.size(), "device variable " + v->name);
    copy.host_bytes = std::move(contents);
    m_current.work.preamble.push_back(std::move(copy));
  }
  m_allocation_contents.clear();
  // The smallest first: state is small (a counter, a barrier's words, a table), a scratch buffer large.
  // In address order, a sort's 16 MiB of scratch keys, allocated at a lower address, took the whole
  // budget, and its 4.7 MB of look-back words and tile counter started every replayed sample as the
  // sample before had left them: an illegal address in the timed runs of a solution the checked calls
  // had accepted.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> by_size; // (bytes, address)
  for (const auto& [address, a] : m_allocations) by_size.emplace_back(a.bytes, address);
  std::sort(by_size.begin(), by_size.end());
  m_too_large_for_state.clear();
  for (const auto& [bytes, address] : by_size) {
    const allocation& a = m_allocations.at(address);
    if (a.bytes == 0) continue;
    if (m_state_bytes + a.bytes > max_state_bytes) {
      m_too_large_for_state.insert(address); // named in the recording if the call uses it
      continue;
    }
    std::string contents(a.bytes, '\0');
    if (cudaMemcpy(contents.data(), reinterpret_cast<const void*>(address), a.bytes, cudaMemcpyDeviceToHost) !=
        cudaSuccess) {
      cudaGetLastError();
      continue;
    }
    m_state_bytes += a.bytes;
    m_allocation_contents.emplace(address, std::move(contents));
  }
  m_recording = true;
}

void work_recorder::carry_allocation_state() {
  // An allocation's contents may point to another allocation, which then is used too: until no more.
  std::set<std::uint64_t> carried;
  for (bool more = true; more && !m_current.not_replayable;) {
    more = false;
    for (auto& [address, contents] : m_allocation_contents) {
      const auto it = m_allocations.find(address);
      if (it == m_allocations.end() || it->second.index < 0 || carried.count(address)) continue;
      carried.insert(address);
      more = true;
      if (m_host_bytes + contents.size() > limits::max_host_bytes) continue;
      m_host_bytes += contents.size();
      recorded_copy copy;
      copy.direction = copy_direction::host_to_device;
      copy.target = device_address{region_kind::allocation, it->second.index, "", 0};
      copy.bytes = contents.size();
      copy.relocations = relocations_of(contents, 0, contents.size(), "an allocation of an earlier call");
      copy.host_bytes = std::move(contents);
      m_current.work.preamble.push_back(std::move(copy));
    }
  }
  m_allocation_contents.clear();
}

recording work_recorder::end() {
  const std::lock_guard<std::mutex> lock(m_mutex);
  m_recording = false;
  carry_allocation_state();
  for (const std::uint64_t address : m_too_large_for_state) {
    const auto it = m_allocations.find(address);
    if (it != m_allocations.end() && it->second.index >= 0)
      note_uncarried("an allocation of an earlier call", it->second.bytes);
  }
  std::vector<std::pair<std::int64_t, std::size_t>> used;
  for (const auto& [address, a] : m_allocations)
    if (a.index >= 0) used.emplace_back(a.index, a.bytes);
  // Allocations freed during the call were given their index when used; every index gets its size.
  for (const auto& [index, bytes] : used) m_current.work.allocations[static_cast<std::size_t>(index)].bytes = bytes;
  recording done = std::move(m_current);
  m_current = recording{};
  m_buffers.clear();
  return done;
}

void work_recorder::note_uncarried(const std::string& what, std::uint64_t bytes) {
  if (m_current.work.uncarried.size() < limits::max_uncarried)
    m_current.work.uncarried.push_back({what.substr(0, 256), bytes});
}

void work_recorder::refuse(const std::string& why) {
  if (!m_current.not_replayable) m_current.not_replayable = why;
}

void work_recorder::add_step(judge_wire::recorded_step step) {
  if (m_current.not_replayable) return;
  if (m_current.work.steps.size() + m_current.work.preamble.size() >= limits::max_steps) {
    refuse("solve() issues more than " + std::to_string(limits::max_steps) + " launches, copies and memsets");
    return;
  }
  if (m_read_back) m_current.work.reads_back_before_more_work = true;
  m_current.work.steps.push_back(std::move(step));
}

std::optional<device_address> work_recorder::resolve(std::uint64_t pointer) {
  const auto p = static_cast<std::int64_t>(pointer);
  // Inside a buffer, its end included, first.
  for (std::size_t i = 0; i < m_buffers.size(); ++i) {
    const auto base = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(m_buffers[i].base));
    if (p >= base && p <= base + static_cast<std::int64_t>(m_buffers[i].bytes))
      return device_address{region_kind::buffer, static_cast<std::int64_t>(i), "", p - base};
  }
  // The allocation that starts at or below the pointer; a pointer one past its end still means it.
  auto it = m_allocations.upper_bound(pointer);
  if (it != m_allocations.begin()) {
    --it;
    if (pointer <= it->first + it->second.bytes) {
      allocation& a = it->second;
      if (a.index < 0) {
        if (m_current.work.allocations.size() >= limits::max_allocations) {
          refuse("solve() uses more than " + std::to_string(limits::max_allocations) + " allocations");
          return std::nullopt;
        }
        a.index = static_cast<std::int64_t>(m_current.work.allocations.size());
        m_current.work.allocations.push_back({a.bytes});
      }
      return device_address{region_kind::allocation, a.index, "", static_cast<std::int64_t>(pointer - it->first)};
    }
  }
  for (const variable& v : m_variables)
    if (v.address != 0 && pointer >= v.address && pointer <= v.address + v.bytes)
      return device_address{region_kind::global, 0, v.name, static_cast<std::int64_t>(pointer - v.address)};
  // Last, a little outside a buffer (in its guards): no other memory is there.
  for (std::size_t i = 0; i < m_buffers.size(); ++i) {
    const auto base = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(m_buffers[i].base));
    const auto end = base + static_cast<std::int64_t>(m_buffers[i].bytes);
    if (p >= base - buffer_slack && p <= end + buffer_slack)
      return device_address{region_kind::buffer, static_cast<std::int64_t>(i), "", p - base};
  }
  return std::nullopt;
}

bool work_recorder::is_cuda_pointer(std::uint64_t pointer) {
  unsigned int type = 0;
  // The driver's query leaves the runtime's last error, which belongs to the solution, alone.
  return driver().cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, static_cast<CUdeviceptr>(pointer)) ==
         CUDA_SUCCESS;
}

std::vector<relocation> work_recorder::relocations_of(const std::string& bytes, std::size_t begin, std::size_t end,
                                                      const std::string& what) {
  std::vector<relocation> found;
  for (std::size_t at = begin; at + 8 <= end; at += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, bytes.data() + at, sizeof word);
    if (!plausible_address(word)) continue;
    if (const auto target = resolve(word)) {
      found.push_back({at, *target});
      continue;
    }
    if (is_cuda_pointer(word)) {
      refuse(what + " holds a pointer (0x" +
             [&] {
               char text[32];
               std::snprintf(text, sizeof text, "%llx", static_cast<unsigned long long>(word));
               return std::string(text);
             }() +
             ") to memory the judge did not see solve() allocate with cudaMalloc or cudaMallocAsync "
             "(managed or pinned host memory, or a library's)");
      return {};
    }
  }
  return found;
}

std::string work_recorder::kernel_name(CUkernel kernel) {
  const char* name = nullptr;
  if (driver().cuKernelGetName(&name, kernel) != CUDA_SUCCESS || name == nullptr) return "";
  return name;
}

void work_recorder::allocated(void* pointer, std::size_t bytes) {
  if (!m_learner_active || pointer == nullptr) return;
  const std::lock_guard<std::mutex> lock(m_mutex);
  m_allocations[reinterpret_cast<std::uint64_t>(pointer)] = allocation{bytes, -1};
}

void work_recorder::freed(void* pointer) {
  if (pointer == nullptr) return;
  const std::lock_guard<std::mutex> lock(m_mutex);
  const auto it = m_allocations.find(reinterpret_cast<std::uint64_t>(pointer));
  if (it == m_allocations.end()) return;
  // A recording keeps the allocations it used; the address may be handed out again.
  if (m_recording && it->second.index >= 0)
    m_current.work.allocations[static_cast<std::size_t>(it->second.index)].bytes = it->second.bytes;
  m_allocations.erase(it);
}

void work_recorder::variable_registered(const void* host_shadow, const char* device_name, std::size_t bytes) {
  if (!m_learner_active || device_name == nullptr) return;
  const std::lock_guard<std::mutex> lock(m_mutex);
  m_variables.push_back({device_name, bytes, host_shadow, 0});
}

void work_recorder::launched(CUkernel kernel, dim3 grid, dim3 block, void** args, std::size_t shared_bytes,
                             const cudaLaunchAttribute* attributes, unsigned attribute_count, const char* api) {
  if (!recording_now()) return;
  const std::string name = kernel_name(kernel);
  const std::lock_guard<std::mutex> lock(m_mutex);
  if (name.empty()) {
    refuse(std::string(api) + " launched a kernel whose name the driver does not know");
    return;
  }
  const std::string shown = judge_symbols::demangled(name);
  recorded_launch launch;
  launch.kernel = name;
  launch.grid[0] = grid.x;
  launch.grid[1] = grid.y;
  launch.grid[2] = grid.z;
  launch.block[0] = block.x;
  launch.block[1] = block.y;
  launch.block[2] = block.z;
  launch.shared_bytes = shared_bytes;
  for (unsigned i = 0; i < attribute_count; ++i) {
    const cudaLaunchAttribute& a = attributes[i];
    if (!replayable_attribute(a.id)) {
      refuse("the launch of " + shown + " sets launch attribute " + std::to_string(static_cast<int>(a.id)) +
             ", which a replay does not reproduce");
      return;
    }
    if (a.id == cudaLaunchAttributeIgnore) continue;
    std::string value(sizeof a.val, '\0');
    std::memcpy(value.data(), &a.val, sizeof a.val);
    value.resize(std::min(value.size(), limits::max_attribute_bytes));
    launch.attributes.push_back({static_cast<int>(a.id), std::move(value)});
  }
  // The parameter block as the kernel's own parameter info lays it out.
  struct parameter {
    std::size_t offset, size;
  };
  std::vector<parameter> layout;
  std::size_t total = 0;
  for (std::size_t i = 0;; ++i) {
    std::size_t offset = 0, size = 0;
    if (driver().cuKernelGetParamInfo(kernel, i, &offset, &size) != CUDA_SUCCESS) break;
    layout.push_back({offset, size});
    total = std::max(total, offset + size);
  }
  if (total > limits::max_parameter_bytes) {
    refuse("the launch of " + shown + " passes more than " + std::to_string(limits::max_parameter_bytes) +
           " bytes of parameters");
    return;
  }
  if (m_parameter_bytes + total > limits::max_parameter_total_bytes) {
    refuse("solve()'s launches pass more than " + std::to_string(limits::max_parameter_total_bytes >> 20) +
           " MiB of kernel parameters in one call");
    return;
  }
  m_parameter_bytes += total;
  launch.parameters.assign(total, '\0');
  for (std::size_t i = 0; i < layout.size(); ++i) {
    if (args == nullptr || args[i] == nullptr) {
      refuse("the launch of " + shown + " passes no value for parameter " + std::to_string(i));
      return;
    }
    std::memcpy(launch.parameters.data() + layout[i].offset, args[i], layout[i].size);
  }
  for (std::size_t i = 0; i < layout.size(); ++i) {
    std::vector<relocation> found =
        relocations_of(launch.parameters, layout[i].offset, layout[i].offset + layout[i].size,
                       "parameter " + std::to_string(i + 1) + " of the launch of " + shown);
    launch.relocations.insert(launch.relocations.end(), found.begin(), found.end());
  }
  add_step(std::move(launch));
}

void work_recorder::launched_function(const void* function, dim3 grid, dim3 block, void** args,
                                      std::size_t shared_bytes, const cudaLaunchAttribute* attributes,
                                      unsigned attribute_count, const char* api) {
  if (!recording_now()) return;
  cudaKernel_t kernel = nullptr;
  if (cudaGetKernel(&kernel, function) != cudaSuccess || kernel == nullptr) {
    cudaGetLastError();
    const std::lock_guard<std::mutex> lock(m_mutex);
    refuse(std::string(api) + " launched a function the runtime does not know as a kernel");
    return;
  }
  launched(reinterpret_cast<CUkernel>(kernel), grid, block, args, shared_bytes, attributes, attribute_count, api);
}

std::optional<device_address> work_recorder::device_target(const void* pointer, std::size_t bytes, const char* what) {
  const auto address = resolve(reinterpret_cast<std::uint64_t>(pointer));
  if (!address) {
    refuse(std::string(what) + " of " + std::to_string(bytes) +
           " bytes touches memory the judge did not see solve() allocate with cudaMalloc or cudaMallocAsync");
    return std::nullopt;
  }
  return address;
}

void work_recorder::memset(void* target, int value, std::size_t bytes) {
  if (!recording_now()) return;
  const std::lock_guard<std::mutex> lock(m_mutex);
  if (const auto address = device_target(target, bytes, "a cudaMemset"))
    add_step(recorded_memset{*address, value, bytes});
}

void work_recorder::memset_2d(void* target, std::size_t pitch, int value, std::size_t width, std::size_t height) {
  if (!recording_now() || width == 0 || height == 0) return;
  const std::lock_guard<std::mutex> lock(m_mutex);
  const std::size_t extent = pitch * (height - 1) + width;
  const auto address = device_target(target, extent, "a cudaMemset2D");
  if (!address) return;
  add_step(judge_wire::recorded_memset_2d{*address, value, pitch, width, height});
}

void work_recorder::device_limit(cudaLimit limit, std::size_t bytes) {
  if (!m_learner_active) return;
  const std::lock_guard<std::mutex> lock(m_mutex);
  switch (limit) {
  case cudaLimitMallocHeapSize:
    m_limits.malloc_heap_bytes = bytes;
    break;
  case cudaLimitStackSize:
    m_limits.stack_bytes = bytes;
    break;
  case cudaLimitPrintfFifoSize:
    m_limits.printf_fifo_bytes = bytes;
    break;
  default:
    break; // the others (launch pending counts, L2 fetch granularity) change no result
  }
}

void work_recorder::copied(void* target, const void* source, std::size_t bytes, cudaMemcpyKind kind) {
  if (!recording_now() || bytes == 0) return;
  // The unified address space tells where each side is, whatever kind the call named: a copy "to the
  // device" from a device pointer (which the runtime accepts) must not be read on the host here.
  const auto on_device = [](const void* p) {
    unsigned int type = 0;
    return driver().cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, reinterpret_cast<CUdeviceptr>(p)) ==
               CUDA_SUCCESS &&
           type == CU_MEMORYTYPE_DEVICE;
  };
  const bool to_device = on_device(target);
  const bool from_device = on_device(source);
  kind = to_device ? (from_device ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
                   : (from_device ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
  if (kind == cudaMemcpyHostToHost) return; // no device work
  const std::lock_guard<std::mutex> lock(m_mutex);
  recorded_copy copy;
  copy.bytes = bytes;
  if (kind == cudaMemcpyHostToDevice) {
    copy.direction = copy_direction::host_to_device;
    copy.target = device_target(target, bytes, "a cudaMemcpy to the device");
    if (!copy.target) return;
    if (m_host_bytes + bytes > limits::max_host_bytes) {
      refuse("solve() copies more than " + std::to_string(limits::max_host_bytes >> 20) +
             " MiB from the host to the device");
      return;
    }
    m_host_bytes += bytes;
    copy.host_bytes.assign(static_cast<const char*>(source), bytes);
    copy.relocations = relocations_of(copy.host_bytes, 0, bytes, "the host data of a cudaMemcpy");
  } else if (kind == cudaMemcpyDeviceToDevice) {
    copy.direction = copy_direction::device_to_device;
    copy.target = device_target(target, bytes, "a cudaMemcpy on the device");
    copy.source = copy.target ? device_target(source, bytes, "a cudaMemcpy on the device") : std::nullopt;
    if (!copy.source) return;
  } else {
    copy.direction = copy_direction::device_to_host;
    copy.source = device_target(source, bytes, "a cudaMemcpy to the host");
    if (!copy.source) return;
    if (m_read_back_bytes + bytes > limits::max_read_back_bytes) {
      refuse("solve() copies more than " + std::to_string(limits::max_read_back_bytes >> 20) +
             " MiB from the device to the host");
      return;
    }
    m_read_back_bytes += bytes;
  }
  add_step(std::move(copy));
  if (kind == cudaMemcpyDeviceToHost) m_read_back = true;
}

void work_recorder::copied_to_symbol(const void* symbol, const void* source, std::size_t bytes, std::size_t offset,
                                     cudaMemcpyKind kind) {
  if (!recording_now()) return;
  void* address = nullptr;
  if (cudaGetSymbolAddress(&address, symbol) != cudaSuccess) {
    cudaGetLastError();
    return; // the real call failed the same way, and the solution sees its error
  }
  copied(static_cast<char*>(address) + offset, source, bytes, kind);
}

void work_recorder::copied_from_symbol(void* target, const void* symbol, std::size_t bytes, std::size_t offset,
                                       cudaMemcpyKind kind) {
  if (!recording_now()) return;
  void* address = nullptr;
  if (cudaGetSymbolAddress(&address, symbol) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  copied(target, static_cast<char*>(address) + offset, bytes, kind);
}

void work_recorder::function_attribute(const void* function, int attribute, int value) {
  if (!m_learner_active) return;
  cudaKernel_t kernel = nullptr;
  if (cudaGetKernel(&kernel, function) != cudaSuccess || kernel == nullptr) {
    cudaGetLastError();
    return;
  }
  const std::string name = kernel_name(reinterpret_cast<CUkernel>(kernel));
  if (name.empty()) return;
  const std::lock_guard<std::mutex> lock(m_mutex);
  m_function_attributes[{name, attribute}] = value;
  if (recording_now()) add_step(recorded_function_attribute{name, attribute, value});
}

void work_recorder::unsupported(const char* api, bool sticky) {
  if (!m_learner_active) return;
  const std::string why = std::string("solve() calls ") + api +
                          ", whose device work the judge cannot replay to time it (docs/security.md lists "
                          "what a replay reproduces)";
  const std::lock_guard<std::mutex> lock(m_mutex);
  if (sticky && !m_sticky_unsupported) m_sticky_unsupported = why;
  if (recording_now()) refuse(why);
}

} // namespace judge_harness
