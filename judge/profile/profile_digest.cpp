#include "judge/profile/profile_digest.hpp"

#include <algorithm>
#include <numeric>

namespace judge {
namespace {

/// Warp states as ncu names them (the "Warp State Statistics" section).
const char* const warp_states[] = {
    "barrier",         "branch_resolving",   "dispatch_stall",   "drain",        "imc_miss",     "lg_throttle",
    "long_scoreboard", "math_pipe_throttle", "membar",           "mio_throttle", "misc",         "no_instruction",
    "not_selected",    "selected",           "short_scoreboard", "sleeping",     "tex_throttle", "wait"};
/// Hopper's wait on warpgroup MMA: read when a report has it, not asked for (older GPUs lack the state).
const char* const hopper_states[] = {"gmma"};

const char* const stall_prefix = "smsp__average_warps_issue_stalled_";
const char* const stall_suffix = "_per_issue_active.ratio";

// The metric names the digest reads, each once.
const char* const sm_throughput = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
const char* const memory_throughput = "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed";
const char* const duration = "gpu__time_duration.sum";
const char* const achieved_occupancy = "sm__warps_active.avg.pct_of_peak_sustained_active";
const char* const theoretical_occupancy = "sm__maximum_warps_per_active_cycle_pct";
const char* const l1_hit = "l1tex__t_sector_hit_rate.pct";
const char* const l2_hit = "lts__t_sector_hit_rate.pct";
const char* const load_sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
const char* const load_requests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
const char* const store_sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
const char* const store_requests = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
const char* const global_sectors = "memory_l2_theoretical_sectors_global";
const char* const global_sectors_ideal = "memory_l2_theoretical_sectors_global_ideal";
const char* const shared_wavefronts = "memory_l1_wavefronts_shared";
const char* const shared_wavefronts_ideal = "memory_l1_wavefronts_shared_ideal";
const char* const shared_load_conflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
const char* const shared_store_conflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
const char* const shared_load_wavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
const char* const shared_store_wavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
// FP32 instructions executed by all threads, as rates per elapsed cycle (the form the roofline section
// collects on the H200) times the kernel's cycles; the plain totals where a report has those instead.
const char* const fadd = "sm__sass_thread_inst_executed_op_fadd_pred_on.sum";
const char* const fmul = "sm__sass_thread_inst_executed_op_fmul_pred_on.sum";
const char* const ffma = "sm__sass_thread_inst_executed_op_ffma_pred_on.sum";
const char* const fadd_rate = "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum.per_cycle_elapsed";
const char* const fmul_rate = "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum.per_cycle_elapsed";
const char* const ffma_rate = "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum.per_cycle_elapsed";
const char* const cycles = "smsp__cycles_elapsed.avg";
const char* const ffma_peak = "sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained";
const char* const sm_clock = "sm__cycles_elapsed.avg.per_second";
const char* const dram_bytes = "dram__bytes.sum";
const char* const dram_read = "dram__bytes_read.sum";
const char* const dram_write = "dram__bytes_write.sum";
const char* const dram_peak = "dram__bytes.sum.peak_sustained";
const char* const dram_clock = "dram__cycles_elapsed.avg.per_second";
const char* const tensor_pipe = "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active";
/// [%] of cycles: an FFMA kernel on the H200 reads up to 0.9% here (03_shared_tiled); tensor-core kernels far more
constexpr double tensor_pipe_in_use = 5;

class metric_view {
public:
  explicit metric_view(const ncu_launch& launch) : m_metrics(launch.metrics) {}
  std::optional<double> get(const std::string& name) const {
    const auto it = m_metrics.find(name);
    return it == m_metrics.end() ? std::nullopt : std::optional<double>(it->second);
  }
  /// a / b, when both are measured and b is not 0.
  std::optional<double> ratio(const std::string& a, const std::string& b) const {
    const auto x = get(a), y = get(b);
    return x && y && *y > 0 ? std::optional<double>(*x / *y) : std::nullopt;
  }

private:
  const std::map<std::string, double>& m_metrics;
};

std::vector<stall_share> all_stalls(const metric_view& m) {
  std::vector<stall_share> all;
  for (const char* state : warp_states)
    if (const auto v = m.get(std::string(stall_prefix) + state + stall_suffix)) all.push_back({state, *v});
  for (const char* state : hopper_states)
    if (const auto v = m.get(std::string(stall_prefix) + state + stall_suffix)) all.push_back({state, *v});
  const double total =
      std::accumulate(all.begin(), all.end(), 0.0, [](double sum, const stall_share& s) { return sum + s.share; });
  if (total <= 0) return {};
  std::vector<stall_share> stalls;
  for (const stall_share& s : all)
    if (s.reason != "selected" && s.share > 0) stalls.push_back({s.reason, s.share / total});
  std::stable_sort(stalls.begin(), stalls.end(),
                   [](const stall_share& a, const stall_share& b) { return a.share > b.share; });
  return stalls;
}

void add_roofline(const metric_view& m, const std::optional<roofline_peaks>& device, kernel_digest& d) {
  auto fma = m.get(ffma), add = m.get(fadd), mul = m.get(fmul);
  if (const auto n = m.get(cycles); !fma && !add && !mul && n) {
    auto total = [&](const char* rate) {
      const auto r = m.get(rate);
      return r ? std::optional<double>(*r * *n) : std::nullopt;
    };
    fma = total(ffma_rate), add = total(fadd_rate), mul = total(fmul_rate);
  }
  if (fma || add || mul) d.flops = 2 * fma.value_or(0) + add.value_or(0) + mul.value_or(0);
  d.dram_bytes = m.get(dram_bytes);
  if (const auto read = m.get(dram_read), write = m.get(dram_write); !d.dram_bytes && (read || write))
    d.dram_bytes = read.value_or(0) + write.value_or(0);
  if (d.flops && d.dram_bytes && *d.dram_bytes > 0) d.arithmetic_intensity = *d.flops / *d.dram_bytes;
  if (d.flops && d.duration_s && *d.duration_s > 0) d.achieved_flops_per_s = *d.flops / *d.duration_s;
  const auto fma_per_cycle = m.get(ffma_peak), sm_hz = m.get(sm_clock);
  const auto dram_per_cycle = m.get(dram_peak), dram_hz = m.get(dram_clock);
  roofline_peaks peaks = device.value_or(roofline_peaks{});
  if (fma_per_cycle && sm_hz) peaks.fp32_flops_per_s = 2 * *fma_per_cycle * *sm_hz;
  if (dram_per_cycle && dram_hz) peaks.dram_bytes_per_s = *dram_per_cycle * *dram_hz;
  if (peaks.fp32_flops_per_s <= 0 || peaks.dram_bytes_per_s <= 0) return;
  d.peaks = peaks;
  if (!d.arithmetic_intensity || !d.achieved_flops_per_s) return;
  const double memory_roof = *d.arithmetic_intensity * peaks.dram_bytes_per_s;
  d.bound_by = memory_roof < peaks.fp32_flops_per_s ? roof::dram_bandwidth : roof::fp32_compute;
  d.pct_of_roof = 100.0 * *d.achieved_flops_per_s / std::min(memory_roof, peaks.fp32_flops_per_s);
}

} // namespace

const std::vector<std::string>& profile_metrics() {
  static const std::vector<std::string> metrics = [] {
    std::vector<std::string> list = {sm_throughput,
                                     memory_throughput,
                                     duration,
                                     achieved_occupancy,
                                     theoretical_occupancy,
                                     l1_hit,
                                     l2_hit,
                                     load_sectors,
                                     load_requests,
                                     store_sectors,
                                     store_requests,
                                     global_sectors,
                                     global_sectors_ideal,
                                     shared_wavefronts,
                                     shared_wavefronts_ideal,
                                     shared_load_conflicts,
                                     shared_store_conflicts,
                                     shared_load_wavefronts,
                                     shared_store_wavefronts,
                                     fadd_rate,
                                     fmul_rate,
                                     ffma_rate,
                                     cycles,
                                     ffma_peak,
                                     sm_clock,
                                     dram_read,
                                     dram_write,
                                     dram_peak,
                                     dram_clock,
                                     tensor_pipe};
    for (const char* state : warp_states) list.push_back(std::string(stall_prefix) + state + stall_suffix);
    return list;
  }();
  return metrics;
}

kernel_digest digest_launch(const ncu_launch& launch, const std::optional<roofline_peaks>& device) {
  const metric_view m(launch);
  kernel_digest d;
  d.name = launch.name;
  d.grid = launch.grid;
  d.block = launch.block;
  d.duration_s = m.get(duration);
  d.compute_pct = m.get(sm_throughput);
  d.memory_pct = m.get(memory_throughput);
  d.achieved_occupancy_pct = m.get(achieved_occupancy);
  d.theoretical_occupancy_pct = m.get(theoretical_occupancy);
  d.l1_hit_pct = m.get(l1_hit);
  d.l2_hit_pct = m.get(l2_hit);
  d.load_sectors_per_request = m.ratio(load_sectors, load_requests);
  d.store_sectors_per_request = m.ratio(store_sectors, store_requests);
  if (const auto actual = m.get(global_sectors), ideal = m.get(global_sectors_ideal); actual && ideal && *actual > 0)
    d.excess_global_sectors_pct = 100.0 * std::max(0.0, *actual - *ideal) / *actual;
  d.shared_load_conflicts = m.get(shared_load_conflicts);
  d.shared_store_conflicts = m.get(shared_store_conflicts);
  const auto load_waves = m.get(shared_load_wavefronts), store_waves = m.get(shared_store_wavefronts);
  if (const auto instrumented = m.get(shared_wavefronts))
    d.shared_wavefronts = instrumented;
  else if (load_waves || store_waves)
    d.shared_wavefronts = load_waves.value_or(0) + store_waves.value_or(0);
  // The instrumented count (ideal wavefronts from each instruction's addresses) where ncu measured it;
  // else the hardware counters, which also count a wide (128-bit) access's extra wavefronts.
  if (const auto actual = m.get(shared_wavefronts), ideal = m.get(shared_wavefronts_ideal); actual && ideal) {
    if (*actual > 0) d.shared_conflict_pct = 100.0 * std::max(0.0, *actual - *ideal) / *actual;
  } else if ((d.shared_load_conflicts || d.shared_store_conflicts) && (load_waves || store_waves)) {
    const double waves = load_waves.value_or(0) + store_waves.value_or(0);
    const double conflicts = d.shared_load_conflicts.value_or(0) + d.shared_store_conflicts.value_or(0);
    if (waves > 0) d.shared_conflict_pct = 100.0 * std::min(conflicts, waves) / waves;
  }
  d.stalls = all_stalls(m);
  add_roofline(m, device, d);
  d.tensor_pipe_used = m.get(tensor_pipe).value_or(0) >= tensor_pipe_in_use;
  return d;
}

std::vector<kernel_digest> digest_launches(const std::vector<ncu_launch>& launches,
                                           const std::optional<roofline_peaks>& device) {
  std::vector<kernel_digest> kernels;
  for (const ncu_launch& l : launches) kernels.push_back(digest_launch(l, device));
  return kernels;
}

const kernel_digest* longest(const std::vector<kernel_digest>& kernels) {
  const kernel_digest* best = nullptr;
  for (const kernel_digest& k : kernels)
    if (!best || k.duration_s.value_or(0) > best->duration_s.value_or(0)) best = &k;
  return best;
}

} // namespace judge
