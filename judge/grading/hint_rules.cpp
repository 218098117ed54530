// The table of hint rules (hints.hpp). To add one: an id, the figure that fires it, the lesson, and an
// evidence function that names the figures; then a test that fires it and one that does not
// (tests/judge/grading/hints_test.cpp).
#include "feedback.hpp"
#include "hints.hpp"
#include "problem_spec.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace judge {
namespace {

// Thresholds, each the point where the lesson starts to pay.
constexpr double low_occupancy = 0.5;        ///< register-limited occupancy below this is worth raising
constexpr double low_pct_of_peak = 20.0;     ///< [%] a matmul-like kernel without tiling stays below this
constexpr double few_outputs_per_thread = 4; ///< below this, each thread reuses too little of what it loads
constexpr std::int64_t alignment = 32;       ///< sizes that are multiples of this have no ragged tail
constexpr std::size_t max_examples = 3;      ///< evidence names at most this many kernels or cases

/// "a; b; c", at most max_examples of them.
std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (std::size_t i = 0; i < items.size() && i < max_examples; ++i) text += (i ? "; " : "") + items[i];
  if (items.size() > max_examples) text += fmt::format("; and {} more", items.size() - max_examples);
  return text;
}

/// A kernel's name without its parameter list, as a learner wrote it.
std::string kernel_label(const std::string& name) { return name.substr(0, name.find('(')); }

bool timed_and_accepted(const case_result& c) { return c.v == verdict::accepted && c.timing.has_value(); }

bool aligned(const case_result& c) {
  return !c.sizes.empty() &&
         std::all_of(c.sizes.begin(), c.sizes.end(), [](std::int64_t s) { return s % alignment == 0; });
}

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
      if (launch.blocks() >= sms) continue;
      const std::string wave_count =
          f.sm ? fmt::format(", {:.2f} waves",
                             waves(launch.blocks(), launch_occupancy(launch, *f.sm).blocks_per_sm, sms))
               : "";
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
                     alignment, short_name(wrong->v), wrong->name, wrong->shape);
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
    {"under_one_wave", "a timed case launches fewer blocks than the GPU has SMs",
     "the wave problem on small shapes: SMs without a block sit idle; smaller tiles (more blocks) or splitting "
     "the work along another dimension (split-K) give every SM a block",
     under_one_wave},
    {"ragged_tails", "accepted on cases whose sizes are multiples of 32, wrong on a ragged case",
     "tail handling: the last tile of a ragged shape is partly outside the matrix; guard every load and store "
     "(row < M && col < N), and load zeros for the missing part of a tile",
     ragged_tails},
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
};

} // namespace

const std::vector<hint_rule>& hint_rules() { return rules; }

} // namespace judge
