#include "judge/report/kernel_text.hpp"
#include "judge/base/kernel_label.hpp"

#include "judge/grading/hints.hpp"
#include "judge/grading/occupancy.hpp"

#include <fmt/format.h>

namespace judge {
namespace {

std::string resources_text(const kernel_resources& k) {
  const std::string spills =
      k.spill_store_bytes || k.spill_load_bytes
          ? fmt::format("spills {} B stored, {} B loaded", k.spill_store_bytes, k.spill_load_bytes)
          : "no spills";
  return fmt::format("{} ({}): {} registers, {} B shared, {} B local, {}\n", kernel_label(k.name), k.arch, k.registers,
                     k.static_shared_bytes, k.local_bytes, spills);
}

/// The timed case with the most work: where launch figures matter most.
const case_result* largest_timed(const solution_result& r) {
  const case_result* largest = nullptr;
  for (const case_result& c : r.cases)
    if (c.timing && !c.timing->launches.empty() && (!largest || c.flops + c.bytes > largest->flops + largest->bytes))
      largest = &c;
  return largest;
}

} // namespace

std::string launch_text(const judge_wire::kernel_launch& k, const device_info& device) {
  std::string text = fmt::format("{} grid {}x{}x{} block {}x{}x{}, {} B shared, {} registers", kernel_label(k.name),
                                 k.grid[0], k.grid[1], k.grid[2], k.block[0], k.block[1], k.block[2],
                                 k.static_shared_bytes + k.dynamic_shared_bytes, k.registers);
  const std::optional<sm_limits> sm = sm_limits_for(device.cc);
  if (!sm) return text + fmt::format(": occupancy unknown (no SM limits for compute capability '{}')", device.cc);
  const occupancy o = launch_occupancy(k, *sm);
  text += fmt::format(" → {} block(s)/SM, {:.0f}% occupancy (limited by {})", o.blocks_per_sm, 100.0 * o.fraction,
                      limiter_name(o.limiter));
  if (device.sms > 0 && o.blocks_per_sm > 0)
    text += fmt::format(", {:.2f} waves", waves(k.blocks(), o.blocks_per_sm, device.sms));
  return text;
}

std::string kernels_text(const solution_result& r, bool explain) {
  std::string out;
  if (!r.kernels.empty()) {
    out += "  kernels (ptxas):\n";
    for (const kernel_resources& k : r.kernels) out += "    " + resources_text(k);
  }
  const case_result* largest = largest_timed(r);
  for (const case_result& c : r.cases) {
    if (!c.timing || c.timing->launches.empty() || (!explain && &c != largest)) continue;
    out += fmt::format("  launches on {} ({}):\n", c.name, c.shape);
    for (const auto& launch : c.timing->launches) out += "    " + launch_text(launch, r.device) + "\n";
  }
  for (const hint& h : r.hints) {
    out += fmt::format("  hint [{}]: {}\n", h.id, h.evidence);
    if (explain) out += fmt::format("    → {}\n", h.lesson);
  }
  return out;
}

} // namespace judge
