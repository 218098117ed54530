// The table of hint rules (hints.hpp). To add one: an id, the figure that fires it, the lesson, and an
// evidence function that names the figures; then a test that fires it and one that does not
// (tests/judge/grading/hints_test.cpp).
#include "judge/grading/feedback.hpp"
#include "judge/grading/hints.hpp"
#include "judge/grading/case_size.hpp"
#include "judge/base/kernel_label.hpp"
#include "judge/problem/problem.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace judge {
namespace {

// Thresholds, each the point where the lesson starts to pay.
constexpr double low_occupancy = 0.5;        ///< register-limited occupancy below this is worth raising
constexpr double low_pct_of_peak = 20.0;     ///< [%] a matmul-like kernel without tiling stays below this
constexpr double few_outputs_per_thread = 4; ///< below this, each thread reuses too little of what it loads
constexpr std::size_t max_examples = 3;      ///< evidence names at most this many kernels or cases
/// Below this many waves (blocks over the SMs' block slots) a tenth or more of the GPU's block slots sit
/// idle for the whole launch: on the H200 the ladder's 128-thread tensor-core step fills 0.79 of one wave
/// on the ragged mission shape, 2D register tiling 0.32.
constexpr double partial_wave = 0.9;
// The profiler's thresholds (docs/profile.md): each well clear of what the right code measures.
constexpr double excess_sectors_pct = 30;    ///< [%] a misaligned row costs 1 sector in 5 (20%); a column walk 28 in 32
constexpr double coalesced_max_sectors = 16; ///< a warp reading 16 B per thread, coalesced, needs 16 sectors
constexpr double bank_conflict_pct = 20;     ///< [%] of shared wavefronts beyond the ideal
constexpr double shared_pipe_share = 0.30;   ///< of warp cycles waiting on the shared-memory (MIO) pipe
constexpr double memory_wait_share = 0.20;   ///< of warp cycles waiting on global memory (long scoreboard)
constexpr double low_achieved_occupancy = 50;    ///< [%] below this, few warps are left to hide latency
constexpr double occupancy_gap = 0.7;            ///< achieved below this fraction of theoretical
constexpr double min_theoretical_occupancy = 20; ///< [%] below this the gap is the launch's, not the run's
constexpr double near_fp32_roof = 50;            ///< [%] of the FP32 roof
constexpr double l1_reuse_hit_pct = 50;          ///< [%] L1 hit rate: most loads re-read what the SM already has
constexpr double memory_queue_share = 0.30;      ///< of warp cycles waiting on loads (long scoreboard, LSU queue)

/// "a; b; c", at most max_examples of them.
std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (std::size_t i = 0; i < items.size() && i < max_examples; ++i) text += (i ? "; " : "") + items[i];
  if (items.size() > max_examples) text += fmt::format("; and {} more", items.size() - max_examples);
  return text;
}

/// A kernel's name without its parameter list, as a learner wrote it.

bool timed_and_accepted(const case_result& c) { return c.v == verdict::accepted && c.timing.has_value(); }

bool matmul_like(const solution_result& r) { return r.speed_unit == unit_name(speed_unit::gflops); }

bool uses_shared_memory(const solution_result& r) {
  for (const kernel_resources& k : r.kernels)
    if (k.static_shared_bytes > 0) return true;
  for (const case_result& c : r.cases)
    if (c.timing)
      for (const auto& launch : c.timing->launches)
        if (launch.dynamic_shared_bytes > 0 || launch.static_shared_bytes > 0) return true;
  return false;
}

std::string spills(const hint_facts& f) {
  std::vector<std::string> found;
  for (const kernel_resources& k : f.result.kernels)
    if (k.spill_store_bytes > 0 || k.spill_load_bytes > 0)
      found.push_back(fmt::format("{}: {} bytes spill stores, {} bytes spill loads per thread at {} registers",
                                  kernel_label(k.name), k.spill_store_bytes, k.spill_load_bytes, k.registers));
  return joined(found);
}

std::string register_limited_occupancy(const hint_facts& f) {
  if (!f.sm) return "";
  std::vector<std::string> found;
  std::set<std::string> seen;
  for (const case_result& c : f.result.cases) {
    if (!timed_and_accepted(c)) continue;
    for (const auto& launch : c.timing->launches) {
      const occupancy o = launch_occupancy(launch, *f.sm);
      if (o.limiter != occupancy_limiter::registers || o.fraction >= low_occupancy) continue;
      if (!seen.insert(launch.name).second) continue;
      found.push_back(fmt::format("{}: {} registers per thread × {} threads per block → {} block(s) per SM, {:.0f}% "
                                  "occupancy, limited by registers",
                                  kernel_label(launch.name), launch.registers, launch.threads_per_block(),
                                  o.blocks_per_sm, 100.0 * o.fraction));
    }
  }
  return joined(found);
}

std::string under_one_wave(const hint_facts& f) {
  const int sms = f.result.device.sms;
  if (sms <= 0) return "";
  std::vector<std::string> found;
  for (const case_result& c : f.result.cases) {
    if (!timed_and_accepted(c)) continue;
    for (const auto& launch : c.timing->launches) {
      const double wave = f.sm ? waves(launch.blocks(), launch_occupancy(launch, *f.sm).blocks_per_sm, sms) : 0;
      if (launch.blocks() >= sms && !(f.sm && wave > 0 && wave < partial_wave)) continue;
      const std::string wave_count = f.sm ? fmt::format(", {:.2f} waves", wave) : "";
      found.push_back(fmt::format("case {} ({}): {} launches {} blocks on {} SMs{}", c.name, c.shape,
                                  kernel_label(launch.name), launch.blocks(), sms, wave_count));
      break;
    }
  }
  return joined(found);
}

std::string ragged_tails(const hint_facts& f) {
  const case_result* right = nullptr;
  const case_result* wrong = nullptr;
  for (const case_result& c : f.result.cases) {
    if (!right && aligned(c) && c.v == verdict::accepted) right = &c;
    if (!wrong && !c.sizes.empty() && !aligned(c) && (c.v == verdict::wrong_answer || c.v == verdict::run_time_error))
      wrong = &c;
  }
  if (!right || !wrong) return "";
  return fmt::format("right on {} ({}, every size a multiple of {}), {} on {} ({})", right->name, right->shape,
                     tail_free_multiple, short_name(wrong->v), wrong->name, wrong->shape);
}

std::string fails_only_when_large(const hint_facts& f) {
  const case_result* largest_right = nullptr;
  const case_result* smallest_crash = nullptr;
  for (const case_result& c : f.result.cases) {
    if (c.sizes.empty()) continue;
    if (c.v == verdict::accepted && (!largest_right || case_volume(c) > case_volume(*largest_right)))
      largest_right = &c;
    if (c.v == verdict::run_time_error && (!smallest_crash || case_volume(c) < case_volume(*smallest_crash)))
      smallest_crash = &c;
  }
  // Every crash is on a case larger than every accepted one: the code works, and one of its limits does not
  // grow with the input.
  if (!largest_right || !smallest_crash || case_volume(*smallest_crash) <= case_volume(*largest_right)) return "";
  return fmt::format("accepted up to {} ({}), run-time error from {} ({})", largest_right->name, largest_right->shape,
                     smallest_crash->name, smallest_crash->shape);
}

std::string host_overhead(const hint_facts& f) {
  std::vector<std::string> found;
  for (const case_result& c : f.result.cases)
    if (c.timing && host_time_dominates(*c.timing))
      found.push_back(fmt::format("case {}: solve() takes {:.3f} ms on the host, {:.3f} ms on the GPU", c.name,
                                  c.timing->host_median_ms, c.timing->median_ms));
  return joined(found);
}

std::string shared_memory_tiling(const hint_facts& f) {
  if (!matmul_like(f.result) || f.result.kernels.empty() || uses_shared_memory(f.result)) return "";
  const case_result* best = nullptr;
  for (const case_result& c : f.result.cases)
    if (timed_and_accepted(c) && c.pct_of_peak > 0 && (!best || c.pct_of_peak > best->pct_of_peak)) best = &c;
  if (!best || best->pct_of_peak >= low_pct_of_peak) return "";
  return fmt::format("at best {:.1f}% of the FP32 peak (case {}), and no kernel uses shared memory", best->pct_of_peak,
                     best->name);
}

std::string register_blocking(const hint_facts& f) {
  if (!matmul_like(f.result) || !uses_shared_memory(f.result)) return "";
  for (std::size_t i = 0; i < f.result.cases.size() && i < f.output_elements.size(); ++i) {
    const case_result& c = f.result.cases[i];
    if (!timed_and_accepted(c) || f.output_elements[i] <= 0 || c.timing->launches.empty()) continue;
    std::int64_t threads = 0;
    int registers = 0;
    for (const auto& launch : c.timing->launches) {
      threads += launch.blocks() * launch.threads_per_block();
      registers = std::max(registers, static_cast<int>(launch.registers));
    }
    const double per_thread = static_cast<double>(f.output_elements[i]) / static_cast<double>(threads);
    if (per_thread >= few_outputs_per_thread) return "";
    return fmt::format("case {}: {} outputs over {} threads, {:.1f} per thread, at {} registers per thread", c.name,
                       f.output_elements[i], threads, per_thread, registers);
  }
  return "";
}

// The profiler's rules: they read Nsight Compute's digest (hint_facts::profile) and fire on no graded
// result without one.

std::string short_kernel(const kernel_digest& k) { return kernel_label(k.name); }

std::string on_case(const hint_facts& f) { return f.profiled_case.empty() ? "" : " on " + f.profiled_case; }

/// Evidence of `rule` for each profiled kernel it fires on, joined.
template <typename Rule> std::string per_kernel(const hint_facts& f, Rule rule) {
  std::vector<std::string> found;
  std::set<std::string> seen;
  for (const kernel_digest& k : f.profile) {
    std::string why = rule(k);
    if (!why.empty() && seen.insert(k.name).second) found.push_back(short_kernel(k) + on_case(f) + ": " + why);
  }
  return joined(found);
}

std::string sectors_text(const kernel_digest& k) {
  std::string text;
  if (k.load_sectors_per_request)
    text += fmt::format("{:.1f} sectors per global load request", *k.load_sectors_per_request);
  if (k.store_sectors_per_request)
    text += fmt::format("{}{:.1f} per store request", text.empty() ? "" : ", ", *k.store_sectors_per_request);
  return text.empty() ? text : text + " (4 when the 32 threads of a warp read 32 consecutive floats)";
}

double share_of(const kernel_digest& k, const std::string& reason) {
  for (const stall_share& s : k.stalls)
    if (s.reason == reason) return s.share;
  return 0;
}

/// The top 3 stalls, as the digest shows them.
std::string stalls_text(const kernel_digest& k) {
  std::string text;
  for (std::size_t i = 0; i < k.stalls.size() && i < 3; ++i)
    text += fmt::format("{}{} {:.0f}%", text.empty() ? "" : ", ", k.stalls[i].reason, 100 * k.stalls[i].share);
  return text;
}

std::string uncoalesced_global(const hint_facts& f) {
  return per_kernel(f, [](const kernel_digest& k) -> std::string {
    if (k.excess_global_sectors_pct) {
      if (*k.excess_global_sectors_pct < excess_sectors_pct) return "";
      const std::string sectors = sectors_text(k);
      return fmt::format("{:.0f}% of the global sectors moved are beyond what coalesced accesses need{}",
                         *k.excess_global_sectors_pct, sectors.empty() ? "" : "; " + sectors);
    }
    // Without the instrumented count, only a figure no coalesced access reaches says so.
    if (k.load_sectors_per_request.value_or(0) <= coalesced_max_sectors &&
        k.store_sectors_per_request.value_or(0) <= coalesced_max_sectors)
      return "";
    return sectors_text(k);
  });
}

std::string l1_reuse(const hint_facts& f) {
  return per_kernel(f, [](const kernel_digest& k) -> std::string {
    if (!k.l1_hit_pct || *k.l1_hit_pct < l1_reuse_hit_pct || !k.shared_wavefronts || *k.shared_wavefronts > 0)
      return "";
    const double waiting = share_of(k, "long_scoreboard") + share_of(k, "lg_throttle");
    if (waiting < memory_queue_share) return "";
    return fmt::format("{:.0f}% of global loads hit in L1 and no shared memory is used, while warps wait on loads "
                       "{:.0f}% of their cycles (top stalls: {})",
                       *k.l1_hit_pct, 100 * waiting, stalls_text(k));
  });
}

std::string shared_bank_conflicts(const hint_facts& f) {
  return per_kernel(f, [](const kernel_digest& k) -> std::string {
    if (!k.shared_conflict_pct || *k.shared_conflict_pct < bank_conflict_pct) return "";
    return fmt::format("{:.0f}% of shared-memory wavefronts are bank conflicts ({:.0f} on loads, {:.0f} on stores)",
                       *k.shared_conflict_pct, k.shared_load_conflicts.value_or(0),
                       k.shared_store_conflicts.value_or(0));
  });
}

std::string shared_memory_pipe(const hint_facts& f) {
  return per_kernel(f, [](const kernel_digest& k) -> std::string {
    if (k.stalls.empty()) return "";
    const std::string& top = k.stalls.front().reason;
    const double shared_wait = share_of(k, "mio_throttle") + share_of(k, "short_scoreboard");
    if ((top != "mio_throttle" && top != "short_scoreboard") || shared_wait < shared_pipe_share) return "";
    // Bank conflicts also stall on this pipe: padding is then the lesson (shared_bank_conflicts).
    if (k.shared_conflict_pct.value_or(0) >= bank_conflict_pct) return "";
    return fmt::format("warps wait on the shared-memory pipe {:.0f}% of their cycles (top stalls: {})",
                       100 * shared_wait, stalls_text(k));
  });
}

std::string latency_bound(const hint_facts& f) {
  return per_kernel(f, [](const kernel_digest& k) -> std::string {
    const double wait = share_of(k, "long_scoreboard");
    if (wait < memory_wait_share || !k.achieved_occupancy_pct || *k.achieved_occupancy_pct >= low_achieved_occupancy)
      return "";
    return fmt::format("warps wait on global memory (long scoreboard) {:.0f}% of their cycles at {:.0f}% achieved "
                       "occupancy (top stalls: {})",
                       100 * wait, *k.achieved_occupancy_pct, stalls_text(k));
  });
}

std::string achieved_occupancy_gap(const hint_facts& f) {
  return per_kernel(f, [](const kernel_digest& k) -> std::string {
    if (!k.achieved_occupancy_pct || !k.theoretical_occupancy_pct) return "";
    if (*k.theoretical_occupancy_pct < min_theoretical_occupancy ||
        *k.achieved_occupancy_pct >= occupancy_gap * *k.theoretical_occupancy_pct)
      return "";
    return fmt::format("{:.0f}% achieved occupancy of {:.0f}% theoretical (grid {}, block {})",
                       *k.achieved_occupancy_pct, *k.theoretical_occupancy_pct, k.grid, k.block);
  });
}

std::string tensor_cores(const hint_facts& f) {
  if (!f.tensor_cores_allowed) return "";
  return per_kernel(f, [](const kernel_digest& k) -> std::string {
    if (k.tensor_pipe_used || k.bound_by != roof::fp32_compute || !k.pct_of_roof || *k.pct_of_roof < near_fp32_roof)
      return "";
    return fmt::format("compute-bound at {:.0f}% of the FP32 roof ({:.1f} FLOP/B), no tensor-core instructions",
                       *k.pct_of_roof, k.arithmetic_intensity.value_or(0));
  });
}

const std::vector<hint_rule> rules = {
    {"spills", "ptxas reports spill stores or loads (bytes > 0)",
     "the kernel keeps more values live than its registers hold, so some live in local memory (DRAM, through "
     "L1): fewer values per thread, or __launch_bounds__(threads, min blocks) and -maxrregcount only where "
     "occupancy is worth the spills",
     spills},
    {"register_limited_occupancy", "theoretical occupancy below 50%, limited by registers per thread",
     "registers per thread decide how many warps an SM holds: a smaller tile per thread, or "
     "__launch_bounds__(threads, blocks per SM) to make ptxas fit more blocks, raise occupancy",
     register_limited_occupancy},
    {"under_one_wave", "a timed case launches fewer blocks than the GPU has SMs, or fills under 0.9 of one wave",
     "the wave problem on small shapes: SMs (or block slots) without a block sit idle, and a launch lasts as "
     "long as its busiest SM; smaller tiles (more blocks), a tile whose blocks spread evenly over the SMs, or "
     "splitting the work along another dimension (split-K, stream-K) give every SM its share",
     under_one_wave},
    {"ragged_tails", "accepted on cases whose sizes are multiples of 32, wrong on a ragged case",
     "tail handling: the last tile of a ragged shape is partly outside the matrix; guard every load and store "
     "(row < M && col < N), and load zeros for the missing part of a tile",
     ragged_tails},
    {"fails_only_when_large",
     "accepted on some cases and a run-time error only on cases larger than every accepted one",
     "a limit that does not grow with the input: a block has at most 1024 threads; dynamic shared memory above "
     "48 KB needs cudaFuncSetAttribute and stops at 227 KB; an int index wraps past 2^31 - 1 (a grid-stride "
     "`i += stride` included: use size_t); a fixed buffer (__constant__, a local array) must hold the largest "
     "input the statement allows. Loop over work larger than a block, and size buffers from the arguments",
     fails_only_when_large},
    {"host_overhead", "host time of solve() more than twice its GPU time (plus 50 us)",
     "time outside kernels: cudaMalloc, cudaFree, copies or cudaDeviceSynchronize inside solve(); allocate once "
     "(a static buffer) and let the judge synchronise",
     host_overhead},
    {"shared_memory_tiling", "a matmul-like problem below 20% of the FP32 peak with no shared memory in any kernel",
     "every thread reads its operands from global memory; shared-memory tiling loads each tile once per block "
     "and reuses it from shared memory, cutting global traffic by the tile size",
     shared_memory_tiling},
    {"register_blocking", "shared memory in use but fewer than 4 outputs per thread",
     "register blocking: each thread computes several outputs (a 1-D or 2-D strip) held in registers, reusing "
     "each value it reads from shared memory several times",
     register_blocking},
    {"uncoalesced_global",
     "Nsight Compute: 30% or more of the global sectors beyond the coalesced ideal (or, unmeasured, more than 16 "
     "sectors per request)",
     "uncoalesced access: the 32 threads of a warp should touch consecutive addresses. The usual cause is "
     "threadIdx.x walking down the rows of a row-major matrix (each thread a different row, N floats apart): "
     "map threadIdx.x to the column index instead, so a warp reads one 128-byte stretch of a row",
     uncoalesced_global, hint_source::profiler},
    {"l1_reuse",
     "Nsight Compute: 50% or more of global loads hit in L1, no shared memory, and warps waiting on loads (long "
     "scoreboard, LSU queue) 30% or more of their cycles",
     "the threads of a block re-read through L1 what their neighbours already loaded, and wait for it: load each "
     "tile once into shared memory (__shared__, then __syncthreads()) and reuse it from there, where a load "
     "costs no trip through the memory pipeline",
     l1_reuse, hint_source::profiler},
    {"shared_bank_conflicts", "Nsight Compute: 20% or more of the shared-memory wavefronts are bank conflicts",
     "bank conflicts: threads of a warp hit different addresses in the same one of the 32 banks, and the access "
     "is replayed. A column of a [32][32] float tile lies in one bank: pad it to [32][33], or swizzle the index",
     shared_bank_conflicts, hint_source::profiler},
    {"shared_memory_pipe",
     "Nsight Compute: the top stall is the shared-memory pipe (mio_throttle, short_scoreboard), 30% or more of "
     "warp cycles, without bank conflicts",
     "the kernel is bound by shared-memory loads: each value read from shared memory should feed several FMAs. "
     "A register tile per thread (1-D, then 2-D: TM×TN outputs from TM+TN loads per step) and float4 shared "
     "loads cut the loads per FMA",
     shared_memory_pipe, hint_source::profiler},
    {"latency_bound",
     "Nsight Compute: 20% or more of warp cycles stalled on global memory (long scoreboard) at under 50% "
     "achieved occupancy",
     "memory latency is not hidden: too few warps, each waiting on its own loads. Put more work in flight: "
     "load the next tile while computing this one (double buffering, cp.async into shared memory), or free "
     "registers or shared memory for more resident warps",
     latency_bound, hint_source::profiler},
    {"achieved_occupancy_gap", "Nsight Compute: achieved occupancy below 70% of the theoretical (which is 20% or more)",
     "the SMs hold fewer warps than the launch allows: blocks finish unevenly (a partial last wave, or blocks "
     "with very different work) or the grid is too small to fill every SM; more, smaller blocks, or a grid "
     "that fills whole waves, close the gap",
     achieved_occupancy_gap, hint_source::profiler},
    {"tensor_cores",
     "Nsight Compute: compute-bound at 50% or more of the FP32 roof, no tensor-core instructions, and the "
     "problem allows tensor cores",
     "the FP32 pipes are near their roof: tensor cores (mma.sync or wmma with TF32, and 3xTF32 to keep FP32 "
     "accuracy) do several times the FLOPs per cycle",
     tensor_cores, hint_source::profiler},
};

} // namespace

const std::vector<hint_rule>& hint_rules() { return rules; }

} // namespace judge
