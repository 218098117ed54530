#include "judge/profile/profile_text.hpp"

#include "judge/base/text.hpp"

#include <fmt/format.h>

namespace judge {
namespace {

constexpr const char* not_measured = "not measured";
constexpr std::size_t shown_stalls = 3;

std::string pct(const std::optional<double>& v) { return v ? fmt::format("{:.0f}%", *v) : not_measured; }

std::string of_peak(const std::optional<double>& v) { return v ? fmt::format("{:.0f}% of peak", *v) : not_measured; }

std::string one_decimal(const std::optional<double>& v) { return v ? fmt::format("{:.1f}", *v) : not_measured; }

nlohmann::json or_null(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

std::string stalls_line(const kernel_digest& k) {
  if (k.stalls.empty()) return not_measured;
  std::string text;
  for (std::size_t i = 0; i < k.stalls.size() && i < shown_stalls; ++i)
    text += fmt::format("{}{} {:.0f}%", text.empty() ? "" : ", ", k.stalls[i].reason, 100 * k.stalls[i].share);
  return text + " of warp cycles";
}

std::string roofline_line(const kernel_digest& k) {
  if (!k.arithmetic_intensity) return not_measured;
  std::string text = fmt::format("{:.2f} FLOP per DRAM byte", *k.arithmetic_intensity);
  if (k.achieved_flops_per_s) text += fmt::format(", {:.0f} GFLOP/s", *k.achieved_flops_per_s / 1e9);
  if (!k.bound_by || !k.pct_of_roof || !k.peaks) return text + "; the device's roofs were not measured";
  const double ridge = k.peaks->fp32_flops_per_s / k.peaks->dram_bytes_per_s;
  return text +
         fmt::format("; under the {} roof (ridge at {:.1f} FLOP/B: {:.0f} GFLOP/s, {:.0f} GB/s), at {:.0f}% of it",
                     roof_name(*k.bound_by), ridge, k.peaks->fp32_flops_per_s / 1e9, k.peaks->dram_bytes_per_s / 1e9,
                     *k.pct_of_roof);
}

std::string global_line(const kernel_digest& k) {
  std::string text = fmt::format("{} sectors per load request, {} per store request",
                                 one_decimal(k.load_sectors_per_request), one_decimal(k.store_sectors_per_request));
  if (k.excess_global_sectors_pct)
    text += fmt::format("; {:.0f}% of sectors beyond the coalesced ideal", *k.excess_global_sectors_pct);
  return text;
}

std::string shared_line(const kernel_digest& k) {
  if (!k.shared_load_conflicts && !k.shared_store_conflicts && !k.shared_conflict_pct) return not_measured;
  std::string text =
      fmt::format("bank conflicts {} on loads, {} on stores",
                  k.shared_load_conflicts ? fmt::format("{:.0f}", *k.shared_load_conflicts) : not_measured,
                  k.shared_store_conflicts ? fmt::format("{:.0f}", *k.shared_store_conflicts) : not_measured);
  if (k.shared_conflict_pct) text += fmt::format(" ({:.0f}% of wavefronts beyond the ideal)", *k.shared_conflict_pct);
  return text;
}

} // namespace

const char* roof_name(roof r) { return r == roof::dram_bandwidth ? "DRAM bandwidth" : "FP32 compute"; }

std::string kernel_digest_text(const kernel_digest& k, const std::string& indent) {
  std::string out = fmt::format("{}{}  grid {} block {}, {}\n", indent, k.name, k.grid, k.block,
                                k.duration_s ? time_text(*k.duration_s * 1e3) : std::string(not_measured));
  const std::string in = indent + "  ";
  auto line = [&](const char* label, const std::string& text) { out += fmt::format("{}{:<18}{}\n", in, label, text); };
  line("speed of light", fmt::format("compute {}, memory {}", of_peak(k.compute_pct), of_peak(k.memory_pct)));
  line("occupancy",
       fmt::format("achieved {} of theoretical {}", pct(k.achieved_occupancy_pct), pct(k.theoretical_occupancy_pct)));
  line("caches", fmt::format("L1 hit {}, L2 hit {}", pct(k.l1_hit_pct), pct(k.l2_hit_pct)));
  line("global access", global_line(k));
  line("shared memory", shared_line(k));
  line("warp stalls", stalls_line(k));
  line("roofline", roofline_line(k));
  if (k.tensor_pipe_used) line("tensor cores", "in use (their FLOPs are not in the roofline's FP32 count)");
  return out;
}

nlohmann::json kernel_digest_json(const kernel_digest& k) {
  nlohmann::json stalls = nlohmann::json::array();
  for (std::size_t i = 0; i < k.stalls.size() && i < shown_stalls; ++i)
    stalls.push_back({{"reason", k.stalls[i].reason}, {"share", k.stalls[i].share}});
  nlohmann::json roofline = {
      {"flops", or_null(k.flops)},
      {"dram_bytes", or_null(k.dram_bytes)},
      {"arithmetic_intensity", or_null(k.arithmetic_intensity)},
      {"achieved_flops_per_s", or_null(k.achieved_flops_per_s)},
      {"fp32_peak_flops_per_s", k.peaks ? nlohmann::json(k.peaks->fp32_flops_per_s) : nullptr},
      {"dram_peak_bytes_per_s", k.peaks ? nlohmann::json(k.peaks->dram_bytes_per_s) : nullptr},
      {"bound_by", k.bound_by ? nlohmann::json(*k.bound_by == roof::dram_bandwidth ? "dram" : "fp32") : nullptr},
      {"pct_of_roof", or_null(k.pct_of_roof)}};
  return {{"name", k.name},
          {"grid", k.grid},
          {"block", k.block},
          {"duration_s", or_null(k.duration_s)},
          {"compute_pct_of_peak", or_null(k.compute_pct)},
          {"memory_pct_of_peak", or_null(k.memory_pct)},
          {"achieved_occupancy_pct", or_null(k.achieved_occupancy_pct)},
          {"theoretical_occupancy_pct", or_null(k.theoretical_occupancy_pct)},
          {"l1_hit_pct", or_null(k.l1_hit_pct)},
          {"l2_hit_pct", or_null(k.l2_hit_pct)},
          {"global_load_sectors_per_request", or_null(k.load_sectors_per_request)},
          {"global_store_sectors_per_request", or_null(k.store_sectors_per_request)},
          {"excess_global_sectors_pct", or_null(k.excess_global_sectors_pct)},
          {"shared_load_bank_conflicts", or_null(k.shared_load_conflicts)},
          {"shared_store_bank_conflicts", or_null(k.shared_store_conflicts)},
          {"shared_conflict_pct", or_null(k.shared_conflict_pct)},
          {"top_stalls", stalls},
          {"roofline", roofline},
          {"tensor_pipe_used", k.tensor_pipe_used}};
}

std::string ncu_failure_text(const ncu_result& r) {
  switch (r.outcome) {
  case ncu_outcome::ok:
    return "";
  case ncu_outcome::no_permission:
    return "Nsight Compute may not read the GPU's performance counters as this user (ERR_NVGPUCTRPERM): an "
           "administrator can allow it (NVreg_RestrictProfilingToAdminUsers=0, see "
           "https://developer.nvidia.com/ERR_NVGPUCTRPERM)";
  case ncu_outcome::timed_out:
    return "Nsight Compute did not finish: " + r.detail;
  case ncu_outcome::no_kernels:
    return "Nsight Compute profiled no kernel: solve() launched none of its own (kernels named judge_* are the "
           "judge's and are left out)";
  case ncu_outcome::failed:
    return "Nsight Compute failed: " + r.detail;
  }
  return "";
}

} // namespace judge
