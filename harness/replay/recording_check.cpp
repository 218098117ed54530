#include "harness/replay/recording_check.hpp"

#include <cuda.h>

#include <algorithm>
#include <cstring>
#include <limits>

namespace judge_harness {
namespace {

using judge_wire::call_status;
using judge_wire::copy_direction;
using judge_wire::device_address;
using judge_wire::recorded_copy;
using judge_wire::recorded_function_attribute;
using judge_wire::recorded_launch;
using judge_wire::recorded_memset;
using judge_wire::recorded_memset_2d;
using judge_wire::recorded_step;
using judge_wire::region_kind;

[[noreturn]] void invalid(const std::string& where, const std::string& why) {
  throw replay_refusal(call_status::invalid_recording, "the recording's " + where + " " + why +
                                                           ", which the judge's recorder never writes");
}

std::string name_of(const device_address& a) {
  switch (a.kind) {
  case region_kind::buffer:
    return "buffer " + std::to_string(a.index);
  case region_kind::allocation:
    return "allocation " + std::to_string(a.index);
  case region_kind::global:
    return "device variable " + a.global;
  }
  return "memory";
}

/// Checks one recording against one device; `m_place` names the step being checked in messages.
class checker {
public:
  checker(const judge_wire::recorded_work& work, const replay_device& device) : m_work(work), m_device(device) {}

  void run() {
    if (m_work.allocations.size() > judge_wire::recording_limits::max_allocations)
      invalid("allocations", "are more than " + std::to_string(judge_wire::recording_limits::max_allocations));
    if (m_work.preamble.size() + m_work.steps.size() > judge_wire::recording_limits::max_steps)
      invalid("steps", "are more than " + std::to_string(judge_wire::recording_limits::max_steps));
    std::uint64_t allocated = 0;
    for (const judge_wire::recorded_allocation& a : m_work.allocations) {
      if (a.bytes > m_device.memory_bytes || allocated + a.bytes > m_device.memory_bytes)
        throw replay_refusal(call_status::not_replayable,
                             "solve() allocates more device memory (" + std::to_string(allocated + a.bytes) +
                                 " bytes) than the device has");
      allocated += a.bytes;
    }
    const auto& limits = m_work.limits;
    for (const auto& limit : {limits.malloc_heap_bytes, limits.stack_bytes, limits.printf_fifo_bytes})
      if (limit && *limit > judge_wire::recording_limits::max_device_limit_bytes)
        invalid("device limits", "ask for more than " +
                                     std::to_string(judge_wire::recording_limits::max_device_limit_bytes) + " bytes");
    std::uint64_t host_bytes = 0;
    for (const auto* list : {&m_work.preamble, &m_work.steps})
      for (const recorded_step& s : *list)
        if (const auto* c = std::get_if<recorded_copy>(&s)) host_bytes += c->host_bytes.size();
    if (host_bytes > judge_wire::recording_limits::max_host_bytes)
      invalid("copies", "carry more than " + std::to_string(judge_wire::recording_limits::max_host_bytes) +
                            " bytes from the host");
    for (std::size_t i = 0; i < m_work.preamble.size(); ++i) {
      m_place = "restoration step " + std::to_string(i + 1);
      check_restoration(m_work.preamble[i]);
    }
    for (std::size_t i = 0; i < m_work.steps.size(); ++i) {
      m_place = "step " + std::to_string(i + 1);
      std::visit([this](const auto& s) { check(s); }, m_work.steps[i]);
    }
  }

private:
  /// What runs before a sample, untimed, and before its inputs exist: restoration only.
  void check_restoration(const recorded_step& step) {
    if (const auto* a = std::get_if<recorded_function_attribute>(&step)) return check(*a);
    const auto* c = std::get_if<recorded_copy>(&step);
    if (c == nullptr || c->direction != copy_direction::host_to_device)
      invalid(m_place, "does device work before the timed window (only copies from the host into the solution's "
                       "allocations and device variables, and function attributes, restore state)");
    if (c->target->kind == region_kind::buffer)
      invalid(m_place, "writes one of the judge's buffers before the timed window");
    check(*c);
  }

  /// [B] the size of the memory `a` names; refuses an index or a name the case does not have.
  std::uint64_t size_of(const device_address& a) const {
    switch (a.kind) {
    case region_kind::buffer:
      if (a.index < 0 || static_cast<std::size_t>(a.index) >= m_device.buffer_bytes.size())
        invalid(m_place, "names buffer " + std::to_string(a.index) + " of " +
                             std::to_string(m_device.buffer_bytes.size()));
      return m_device.buffer_bytes[static_cast<std::size_t>(a.index)];
    case region_kind::allocation:
      if (a.index < 0 || static_cast<std::size_t>(a.index) >= m_work.allocations.size())
        invalid(m_place, "names allocation " + std::to_string(a.index) + " of " +
                             std::to_string(m_work.allocations.size()));
      return m_work.allocations[static_cast<std::size_t>(a.index)].bytes;
    case region_kind::global: {
      const std::optional<std::uint64_t> bytes = m_device.variable ? m_device.variable(a.global) : std::nullopt;
      if (!bytes)
        throw replay_refusal(call_status::not_replayable, "solve() uses device variable " + a.global +
                                                              ", which the solution's device code does not define");
      return *bytes;
    }
    }
    invalid(m_place, "names memory of no known kind");
  }

  /// A pointer the recorder resolved: inside its memory or one past its end, or a buffer's guards.
  void check_pointer(const device_address& a) const {
    const auto size = static_cast<std::int64_t>(std::min<std::uint64_t>(size_of(a), std::numeric_limits<std::int64_t>::max() / 4));
    const std::int64_t slack = a.kind == region_kind::buffer ? buffer_slack_bytes : 0;
    if (a.offset < -slack || a.offset > size + slack)
      invalid(m_place, "points " + std::to_string(a.offset) + " bytes into " + name_of(a) + " of " +
                           std::to_string(size) + " bytes");
  }

  /// `extent` bytes from `a` lie inside the memory `a` names.
  void check_inside(const device_address& a, std::uint64_t extent, const char* what) const {
    const std::uint64_t size = size_of(a);
    if (a.offset < 0 || static_cast<std::uint64_t>(a.offset) > size || extent > size - static_cast<std::uint64_t>(a.offset))
      invalid(m_place, std::string("has ") + what + " of " + std::to_string(extent) + " bytes at offset " +
                           std::to_string(a.offset) + " that reaches outside " + name_of(a) + " of " +
                           std::to_string(size) + " bytes");
  }

  void check_relocations(const std::vector<judge_wire::relocation>& relocations, std::size_t block_bytes) const {
    for (const judge_wire::relocation& r : relocations) {
      if (r.at % 8 != 0 || r.at > block_bytes || block_bytes - r.at < 8)
        invalid(m_place, "patches a pointer at byte " + std::to_string(r.at) + " of a block of " +
                             std::to_string(block_bytes));
      check_pointer(r.target);
    }
  }

  void check(const recorded_launch& l) {
    const std::optional<parameter_layout> layout = m_device.kernel ? m_device.kernel(l.kernel) : std::nullopt;
    if (!layout)
      throw replay_refusal(call_status::foreign_kernel,
                           "solve() launched " + l.kernel +
                               ", which is not in the device code compiled from your sources (a library's kernel?); "
                               "the judge times only kernels of your own");
    std::size_t total = 0;
    for (const auto& [offset, size] : *layout) total = std::max(total, offset + size);
    if (total != l.parameters.size())
      invalid(m_place, "passes " + std::to_string(l.parameters.size()) + " bytes of parameters to " + l.kernel +
                           ", which takes " + std::to_string(total));
    for (const judge_wire::relocation& r : l.relocations) {
      const bool in_a_parameter = std::any_of(layout->begin(), layout->end(), [&r](const auto& p) {
        return r.at >= p.first && r.at + 8 <= p.first + p.second && (r.at - p.first) % 8 == 0;
      });
      if (!in_a_parameter)
        invalid(m_place, "patches a pointer at byte " + std::to_string(r.at) + ", which is no 8-byte slot of a "
                                                                              "parameter of " + l.kernel);
    }
    check_relocations(l.relocations, l.parameters.size());
    const std::uint32_t max_block[3] = {1024, 1024, 64};
    const std::uint32_t max_grid[3] = {0x7fffffffu, 65535, 65535};
    std::uint64_t threads = 1;
    for (int d = 0; d < 3; ++d) {
      if (l.block[d] < 1 || l.block[d] > max_block[d] || l.grid[d] < 1 || l.grid[d] > max_grid[d])
        invalid(m_place, "launches " + l.kernel + " with a grid or block beyond CUDA's limits");
      threads *= l.block[d];
    }
    if (threads > 1024) invalid(m_place, "launches " + l.kernel + " with more than 1024 threads a block");
    if (l.shared_bytes > m_device.shared_bytes_optin)
      invalid(m_place, "asks for " + std::to_string(l.shared_bytes) + " bytes of dynamic shared memory, more than "
                                                                      "a block can have");
    std::vector<int> seen;
    for (const judge_wire::launch_attribute& a : l.attributes) {
      if (std::find(seen.begin(), seen.end(), a.id) != seen.end())
        invalid(m_place, "sets launch attribute " + std::to_string(a.id) + " twice");
      seen.push_back(a.id);
      check_attribute(a);
    }
  }

  void check_attribute(const judge_wire::launch_attribute& a) const {
    if (a.value.size() > 64) invalid(m_place, "has a launch attribute value of more than 64 bytes");
    unsigned char bytes[64] = {};
    std::memcpy(bytes, a.value.data(), a.value.size());
    const auto word = [&bytes](int k) {
      std::uint32_t w = 0;
      std::memcpy(&w, bytes + 4 * k, sizeof w);
      return w;
    };
    switch (a.id) {
    case CU_LAUNCH_ATTRIBUTE_COOPERATIVE:
    case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION:
      if (word(0) > 1) invalid(m_place, "sets a yes-or-no launch attribute to " + std::to_string(word(0)));
      return;
    case CU_LAUNCH_ATTRIBUTE_PRIORITY:
      return; // any int: the driver clamps it to the device's range
    case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
    case CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION:
      for (int k = 0; k < 3; ++k)
        if (word(k) < 1 || word(k) > 64) invalid(m_place, "sets a cluster extent of " + std::to_string(word(k)));
      return;
    case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
      if (word(0) > 2) invalid(m_place, "sets cluster scheduling policy " + std::to_string(word(0)));
      return;
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
      if (bytes[0] > 1 || bytes[1] > 1) invalid(m_place, "maps a memory synchronisation domain beyond 1");
      return;
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
      if (word(0) > 1) invalid(m_place, "sets memory synchronisation domain " + std::to_string(word(0)));
      return;
    case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
      if (word(0) > 100 && word(0) != 0xffffffffu)
        invalid(m_place, "sets a shared memory carveout of " + std::to_string(word(0)) + "%");
      return;
    default:
      // Events, access policy windows, graph node settings: handles of the recording process, or work a
      // replay does not reproduce.
      invalid(m_place, "sets launch attribute " + std::to_string(a.id));
    }
  }

  void check(const recorded_memset& m) const { check_inside(m.target, m.bytes, "a memset"); }

  void check(const recorded_memset_2d& m) const {
    if (m.height == 0 || m.width == 0) return check_inside(m.target, 0, "a 2D memset");
    if (m.width > m.pitch || m.height > (1ull << 31) || m.pitch > (1ull << 40))
      invalid(m_place, "has a 2D memset of " + std::to_string(m.height) + " rows of " + std::to_string(m.width) +
                           " bytes, " + std::to_string(m.pitch) + " apart");
    check_inside(m.target, m.pitch * (m.height - 1) + m.width, "a 2D memset");
  }

  void check(const recorded_copy& c) const {
    const bool to_device = c.direction != copy_direction::device_to_host;
    const bool from_device = c.direction != copy_direction::host_to_device;
    if (to_device != c.target.has_value() || from_device != c.source.has_value())
      invalid(m_place, "has a copy whose ends do not match its direction");
    if (c.bytes == 0) invalid(m_place, "has a copy of no bytes");
    if (c.direction == copy_direction::host_to_device) {
      if (c.host_bytes.size() != c.bytes) invalid(m_place, "has a copy whose host data is not `bytes` long");
      check_relocations(c.relocations, c.host_bytes.size());
    } else if (!c.host_bytes.empty() || !c.relocations.empty()) {
      invalid(m_place, "has host data on a copy that is not from the host");
    }
    if (c.target) check_inside(*c.target, c.bytes, "a copy");
    if (c.source) check_inside(*c.source, c.bytes, "a copy");
  }

  void check(const recorded_function_attribute& a) const {
    if (!m_device.kernel || !m_device.kernel(a.kernel))
      throw replay_refusal(call_status::foreign_kernel, "solve() sets an attribute of " + a.kernel +
                                                            ", which is not in the device code compiled from your "
                                                            "sources");
    switch (a.attribute) {
    case -1: // cudaFuncSetCacheConfig
      if (a.value < 0 || a.value > 3) invalid(m_place, "sets cache configuration " + std::to_string(a.value));
      return;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
      if (a.value < 0 || static_cast<std::uint64_t>(a.value) > m_device.shared_bytes_optin)
        invalid(m_place, "sets a dynamic shared memory size of " + std::to_string(a.value) + " bytes");
      return;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
      if (a.value < -1 || a.value > 100) invalid(m_place, "sets a shared memory carveout of " + std::to_string(a.value));
      return;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
      if (a.value < 0 || a.value > 64) invalid(m_place, "sets a cluster extent of " + std::to_string(a.value));
      return;
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
      if (a.value < 0 || a.value > 1) invalid(m_place, "sets a yes-or-no function attribute to " + std::to_string(a.value));
      return;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
      if (a.value < 0 || a.value > 2) invalid(m_place, "sets cluster scheduling policy " + std::to_string(a.value));
      return;
    default:
      invalid(m_place, "sets function attribute " + std::to_string(a.attribute));
    }
  }

  const judge_wire::recorded_work& m_work;
  const replay_device& m_device;
  std::string m_place;
};

} // namespace

void check_recording(const judge_wire::recorded_work& work, const replay_device& device) { checker(work, device).run(); }

std::vector<checked_attribute> checked_attributes(const judge_wire::recorded_launch& launch) {
  std::vector<checked_attribute> out;
  for (const judge_wire::launch_attribute& a : launch.attributes) {
    unsigned char bytes[64] = {};
    std::memcpy(bytes, a.value.data(), std::min<std::size_t>(a.value.size(), sizeof bytes));
    checked_attribute c;
    c.id = a.id;
    // Only the bytes the id's field occupies: the rest of the union is whatever the solution's struct held.
    std::size_t used = 4;
    if (a.id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION || a.id == CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION)
      used = 12;
    else if (a.id == CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP)
      used = 2;
    std::memcpy(c.value.data(), bytes, used);
    if (a.id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE || a.id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION) {
      const std::uint32_t yes = c.value[0] | c.value[1] | c.value[2] | c.value[3] ? 1u : 0u;
      std::memcpy(c.value.data(), &yes, sizeof yes);
    }
    out.push_back(c);
  }
  return out;
}

} // namespace judge_harness
