#include "catch.hpp"
#include "text_match.hpp"

#include "judge/grading/hints.hpp"

#include <algorithm>
#include <string>

using judge_test::contains;

namespace {

judge_wire::kernel_launch launch(const std::string& name, std::int64_t blocks, std::int64_t threads, int registers,
                                 std::int64_t shared = 0) {
  judge_wire::kernel_launch k;
  k.name = name + "(float const*, float const*, float*, int, int, int)";
  k.grid[0] = blocks;
  k.grid[1] = k.grid[2] = 1;
  k.block[0] = threads;
  k.block[1] = k.block[2] = 1;
  k.static_shared_bytes = shared;
  k.registers = registers;
  return k;
}

judge::case_result timed_case(const std::string& name, std::vector<std::int64_t> sizes,
                              std::vector<judge_wire::kernel_launch> launches, double pct_of_peak = 50) {
  judge::case_result c;
  c.name = name;
  c.sizes = std::move(sizes);
  c.shape = name;
  c.v = judge::verdict::accepted;
  c.timing.emplace();
  c.timing->median_ms = 1.0;
  c.timing->host_median_ms = 1.01;
  c.timing->launches = std::move(launches);
  c.pct_of_peak = pct_of_peak;
  return c;
}

/// An accepted matmul solution on an H200-like device: one shared-memory kernel that fills the SMs with
/// 8 outputs per thread. No rule fires on it; each test changes one figure.
judge::solution_result good_solution() {
  judge::solution_result r;
  r.v = judge::verdict::accepted;
  r.speed_unit = "GFLOPS";
  r.device.cc = "9.0";
  r.device.sms = 132;
  r.kernels = {{"matmul_register_2d(float const*, float const*, float*, int, int, int)", "sm_90", 64, 8192, 0, 0, 0}};
  // 4096 × 4096 outputs over 2048 blocks of 256 threads: 32 outputs per thread; 64 registers, 256 threads:
  // 4 blocks per SM, 50% occupancy (not below it).
  r.cases = {timed_case("square_4096", {4096, 4096, 4096}, {launch("matmul_register_2d", 2048, 256, 64, 8192)})};
  return r;
}

std::vector<std::string> fired(const judge::solution_result& r, std::vector<std::int64_t> outputs = {}) {
  if (outputs.empty())
    for (const auto& c : r.cases) outputs.push_back(c.sizes.size() >= 2 ? c.sizes[0] * c.sizes[1] : 0);
  std::vector<std::string> ids;
  for (const judge::hint& h : judge::hints_for({r, outputs, judge::sm_limits_for(r.device.cc)})) ids.push_back(h.id);
  return ids;
}

bool has(const std::vector<std::string>& ids, const std::string& id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

judge::hint hint_of(const judge::solution_result& r, const std::string& id) {
  std::vector<std::int64_t> outputs;
  for (const auto& c : r.cases) outputs.push_back(c.sizes.size() >= 2 ? c.sizes[0] * c.sizes[1] : 0);
  for (const judge::hint& h : judge::hints_for({r, outputs, judge::sm_limits_for(r.device.cc)}))
    if (h.id == id) return h;
  FAIL("no hint " << id);
  return {};
}

} // namespace

TEST_CASE("a tiled, register-blocked kernel that fills the GPU gets no hint", "[hints]") {
  CHECK(fired(good_solution()).empty());
}

TEST_CASE("every rule has an id, a trigger and a lesson", "[hints]") {
  REQUIRE(judge::hint_rules().size() >= 7);
  for (const judge::hint_rule& rule : judge::hint_rules()) {
    CAPTURE(rule.id);
    CHECK(std::string(rule.trigger).size() > 10);
    CHECK(std::string(rule.lesson).size() > 20);
    CHECK(rule.evidence);
  }
}

TEST_CASE("spill bytes from ptxas fire the spills hint with the kernel and its figures", "[hints]") {
  judge::solution_result r = good_solution();
  r.kernels[0].spill_store_bytes = 496;
  r.kernels[0].spill_load_bytes = 480;
  const judge::hint h = hint_of(r, "spills");
  CHECK(contains(h.evidence, "matmul_register_2d: 496 bytes spill stores, 480 bytes spill loads"));
  CHECK(contains(h.lesson, "__launch_bounds__"));
  r.kernels[0].spill_store_bytes = r.kernels[0].spill_load_bytes = 0;
  r.kernels[0].local_bytes = 128; // a local array is no spill
  CHECK_FALSE(has(fired(r), "spills"));
}

TEST_CASE("occupancy below half, limited by registers, fires the register-occupancy hint", "[hints]") {
  judge::solution_result r = good_solution();
  r.cases[0].timing->launches[0].registers = 128; // 4096 per warp: 16 warps per SM, 2 blocks, 25%
  const judge::hint h = hint_of(r, "register_limited_occupancy");
  CHECK(contains(h.evidence, "128 registers per thread × 256 threads per block → 2 block(s) per SM, 25% occupancy"));
  r.cases[0].timing->launches[0].registers = 64; // 50%: not below half
  CHECK_FALSE(has(fired(r), "register_limited_occupancy"));
}

TEST_CASE("occupancy is not guessed for an unknown GPU", "[hints]") {
  judge::solution_result r = good_solution();
  r.cases[0].timing->launches[0].registers = 128;
  r.device.cc = "7.5";
  CHECK_FALSE(has(fired(r), "register_limited_occupancy"));
}

TEST_CASE("fewer blocks than SMs on a timed case fires the wave hint", "[hints]") {
  judge::solution_result r = good_solution();
  r.cases.push_back(timed_case("small_256", {256, 256, 256}, {launch("matmul_register_2d", 64, 256, 64, 8192)}));
  const judge::hint h = hint_of(r, "under_one_wave");
  CHECK(contains(h.evidence, "case small_256"));
  CHECK(contains(h.evidence, "64 blocks on 132 SMs, 0.12 waves"));
  r.cases[1].timing->launches[0].grid[0] = 528; // 4 blocks of 256 threads at 64 registers per SM: one wave
  CHECK_FALSE(has(fired(r), "under_one_wave"));
}

TEST_CASE("more blocks than SMs but under 0.9 of one wave fires the wave hint", "[hints]") {
  judge::solution_result r = good_solution();
  // 400 blocks for 132 SMs × 4 block slots: a quarter of the slots idle for the whole launch.
  r.cases.push_back(timed_case("small_256", {256, 256, 256}, {launch("matmul_register_2d", 400, 256, 64, 8192)}));
  CHECK(contains(hint_of(r, "under_one_wave").evidence, "400 blocks on 132 SMs, 0.76 waves"));
  r.cases[1].timing->launches[0].grid[0] = 480; // 0.91 waves
  CHECK_FALSE(has(fired(r), "under_one_wave"));
}

TEST_CASE("right on aligned cases and wrong on a ragged one fires the tail hint", "[hints]") {
  judge::solution_result r = good_solution();
  judge::case_result ragged;
  ragged.name = "ragged_1001x513x777";
  ragged.shape = "1001x513x777";
  ragged.sizes = {1001, 513, 777};
  ragged.v = judge::verdict::wrong_answer;
  r.cases.push_back(ragged);
  r.v = judge::verdict::wrong_answer;
  const judge::hint h = hint_of(r, "ragged_tails");
  CHECK(contains(h.evidence, "right on square_4096"));
  CHECK(contains(h.evidence, "WA on ragged_1001x513x777"));
  r.cases[0].v = judge::verdict::wrong_answer; // wrong everywhere: not a tail problem
  CHECK_FALSE(has(fired(r), "ragged_tails"));
}

TEST_CASE("host time far above GPU time fires the host-overhead hint", "[hints]") {
  judge::solution_result r = good_solution();
  r.cases[0].timing->host_median_ms = 5.0;
  CHECK(contains(hint_of(r, "host_overhead").evidence, "5.000 ms on the host, 1.000 ms on the GPU"));
  r.cases[0].timing->host_median_ms = 2.0; // under twice the GPU time plus 50 us
  CHECK_FALSE(has(fired(r), "host_overhead"));
}

TEST_CASE("a matmul far from peak without shared memory fires the tiling hint", "[hints]") {
  judge::solution_result r = good_solution();
  r.kernels[0].static_shared_bytes = 0;
  r.cases[0].timing->launches[0].static_shared_bytes = 0;
  r.cases[0].pct_of_peak = 4.2;
  CHECK(contains(hint_of(r, "shared_memory_tiling").evidence, "4.2% of the FP32 peak"));
  r.cases[0].pct_of_peak = 35; // fast enough without it
  CHECK_FALSE(has(fired(r), "shared_memory_tiling"));
  r.cases[0].pct_of_peak = 4.2;
  r.speed_unit = "GB/s"; // a bandwidth-bound problem has nothing to tile
  CHECK_FALSE(has(fired(r), "shared_memory_tiling"));
}

TEST_CASE("shared memory with one output per thread fires the register-blocking hint", "[hints]") {
  judge::solution_result r = good_solution();
  // 4096 × 4096 outputs over 16384 blocks of 1024 threads: 1 per thread.
  r.cases[0].timing->launches[0] = launch("matmul_shared_tiled", 16384, 1024, 32, 8192);
  CHECK(contains(hint_of(r, "register_blocking").evidence, "16777216 outputs over 16777216 threads, 1.0 per thread"));
  CHECK_FALSE(has(fired(r), "shared_memory_tiling"));
  CHECK_FALSE(has(fired(good_solution()), "register_blocking")); // 32 per thread
}

namespace {

/// Nsight Compute's digest of a kernel that no profiler rule fires on: coalesced, no bank conflicts,
/// FMA-bound at full occupancy, under the FP32 roof at 30% of it.
judge::kernel_digest clean_kernel() {
  judge::kernel_digest k;
  k.name = "matmul_register_2d(float const*, float const*, float*, int, int, int)";
  k.grid = "(16, 16, 1)";
  k.block = "(256, 1, 1)";
  k.duration_s = 1e-4;
  k.achieved_occupancy_pct = 45;
  k.theoretical_occupancy_pct = 50;
  k.load_sectors_per_request = 16; // float4 loads, coalesced
  k.store_sectors_per_request = 4;
  k.excess_global_sectors_pct = 2;
  k.shared_load_conflicts = 100;
  k.shared_store_conflicts = 0;
  k.shared_conflict_pct = 1;
  k.stalls = {{"math_pipe_throttle", 0.3}, {"long_scoreboard", 0.1}, {"barrier", 0.1}};
  k.arithmetic_intensity = 60;
  k.bound_by = judge::roof::fp32_compute;
  k.pct_of_roof = 30;
  return k;
}

std::vector<judge::hint> profiler_hints_of(const judge::solution_result& r, std::vector<judge::kernel_digest> kernels,
                                           bool tensor_cores_allowed = false) {
  judge::hint_facts facts{r, {}, judge::sm_limits_for(r.device.cc)};
  facts.profile = std::move(kernels);
  facts.profiled_case = "square_4096";
  facts.tensor_cores_allowed = tensor_cores_allowed;
  return judge::profiler_hints(facts);
}

std::vector<std::string> ids_of(const std::vector<judge::hint>& hints) {
  std::vector<std::string> ids;
  for (const judge::hint& h : hints) ids.push_back(h.id);
  return ids;
}

judge::hint profiler_hint(const judge::solution_result& r, const judge::kernel_digest& k, const std::string& id,
                          bool tensor_cores_allowed = false) {
  for (const judge::hint& h : profiler_hints_of(r, {k}, tensor_cores_allowed))
    if (h.id == id) return h;
  FAIL("no hint " << id);
  return {};
}

} // namespace

TEST_CASE("a clean profile fires no profiler rule, and no profile fires none either", "[hints]") {
  CHECK(profiler_hints_of(good_solution(), {clean_kernel()}, true).empty());
  CHECK(profiler_hints_of(good_solution(), {}, true).empty());
  for (const judge::hint_rule& rule : judge::hint_rules())
    if (rule.source == judge::hint_source::profiler) CHECK(std::string(rule.trigger).rfind("Nsight Compute", 0) == 0);
}

TEST_CASE("excess global sectors fire the coalescing hint with the sectors per request", "[hints]") {
  judge::kernel_digest k = clean_kernel();
  k.excess_global_sectors_pct = 85;
  k.load_sectors_per_request = 16.5;
  k.store_sectors_per_request = 32;
  const judge::hint h = profiler_hint(good_solution(), k, "uncoalesced_global");
  CHECK(contains(h.evidence, "matmul_register_2d on square_4096: 85% of the global sectors moved are beyond what "
                             "coalesced accesses need; 16.5 sectors per global load request, 32.0 per store request"));
  CHECK(contains(h.lesson, "threadIdx.x walking down the rows"));
  k.excess_global_sectors_pct = 20; // a misaligned row's extra sector: not the lesson
  CHECK_FALSE(has(ids_of(profiler_hints_of(good_solution(), {k})), "uncoalesced_global"));
}

TEST_CASE("without the instrumented count, only more sectors per request than coalescing allows fires", "[hints]") {
  judge::kernel_digest k = clean_kernel();
  k.excess_global_sectors_pct.reset();
  k.load_sectors_per_request = 16; // float4, coalesced
  CHECK_FALSE(has(ids_of(profiler_hints_of(good_solution(), {k})), "uncoalesced_global"));
  k.store_sectors_per_request = 32;
  CHECK(contains(profiler_hint(good_solution(), k, "uncoalesced_global").evidence, "32.0 per store request"));
}

TEST_CASE("bank conflicts fire the padding hint", "[hints]") {
  judge::kernel_digest k = clean_kernel();
  k.shared_conflict_pct = 48;
  k.shared_load_conflicts = 3e6;
  const judge::hint h = profiler_hint(good_solution(), k, "shared_bank_conflicts");
  CHECK(contains(h.evidence, "48% of shared-memory wavefronts are bank conflicts (3000000 on loads, 0 on stores)"));
  CHECK(contains(h.lesson, "[32][33]"));
  k.shared_conflict_pct = 10;
  CHECK_FALSE(has(ids_of(profiler_hints_of(good_solution(), {k})), "shared_bank_conflicts"));
}

TEST_CASE("stalls on the shared-memory pipe fire the register-tile hint unless bank conflicts explain them",
          "[hints]") {
  judge::kernel_digest k = clean_kernel();
  k.stalls = {{"mio_throttle", 0.35}, {"short_scoreboard", 0.2}, {"long_scoreboard", 0.1}};
  const judge::hint h = profiler_hint(good_solution(), k, "shared_memory_pipe");
  CHECK(contains(h.evidence, "the shared-memory pipe 55% of their cycles (top stalls: mio_throttle 35%, "
                             "short_scoreboard 20%, long_scoreboard 10%)"));
  CHECK(contains(h.lesson, "register tile"));
  k.shared_conflict_pct = 40; // then padding is the lesson
  CHECK_FALSE(has(ids_of(profiler_hints_of(good_solution(), {k})), "shared_memory_pipe"));
  k.shared_conflict_pct = 1;
  k.stalls = {{"math_pipe_throttle", 0.4}, {"mio_throttle", 0.35}};
  CHECK_FALSE(has(ids_of(profiler_hints_of(good_solution(), {k})), "shared_memory_pipe"));
}

TEST_CASE("global-memory waits at low achieved occupancy fire the latency hint", "[hints]") {
  judge::kernel_digest k = clean_kernel();
  k.stalls = {{"long_scoreboard", 0.45}, {"barrier", 0.2}, {"mio_throttle", 0.1}};
  k.achieved_occupancy_pct = 23;
  k.theoretical_occupancy_pct = 25;
  const judge::hint h = profiler_hint(good_solution(), k, "latency_bound");
  CHECK(contains(h.evidence, "long scoreboard) 45% of their cycles at 23% achieved occupancy"));
  CHECK(contains(h.lesson, "double buffering"));
  k.achieved_occupancy_pct = 70; // enough warps to hide it
  CHECK_FALSE(has(ids_of(profiler_hints_of(good_solution(), {k})), "latency_bound"));
}

TEST_CASE("achieved occupancy far below the theoretical fires its hint", "[hints]") {
  judge::kernel_digest k = clean_kernel();
  k.achieved_occupancy_pct = 30;
  k.theoretical_occupancy_pct = 100;
  CHECK(contains(profiler_hint(good_solution(), k, "achieved_occupancy_gap").evidence,
                 "30% achieved occupancy of 100% theoretical (grid (16, 16, 1), block (256, 1, 1))"));
  k.achieved_occupancy_pct = 80;
  CHECK_FALSE(has(ids_of(profiler_hints_of(good_solution(), {k})), "achieved_occupancy_gap"));
}

TEST_CASE("compute-bound near the FP32 roof fires the tensor-core hint where the problem allows them", "[hints]") {
  judge::kernel_digest k = clean_kernel();
  k.pct_of_roof = 72;
  const judge::hint h = profiler_hint(good_solution(), k, "tensor_cores", true);
  CHECK(contains(h.evidence, "compute-bound at 72% of the FP32 roof (60.0 FLOP/B)"));
  CHECK(contains(h.lesson, "3xTF32"));
  CHECK_FALSE(has(ids_of(profiler_hints_of(good_solution(), {k}, false)), "tensor_cores"));
  k.tensor_pipe_used = true;
  CHECK_FALSE(has(ids_of(profiler_hints_of(good_solution(), {k}, true)), "tensor_cores"));
}

TEST_CASE("the profiler's rules fire only on a profiled result", "[hints]") {
  judge::solution_result r = good_solution();
  judge::hint_facts facts{r, {r.cases[0].sizes[0] * r.cases[0].sizes[1]}, judge::sm_limits_for(r.device.cc)};
  judge::kernel_digest k = clean_kernel();
  k.excess_global_sectors_pct = 85;
  facts.profile = {k};
  CHECK(has(ids_of(judge::hints_for(facts)), "uncoalesced_global"));
  facts.profile.clear();
  CHECK(judge::hints_for(facts).empty());
}

TEST_CASE("L1 hits without shared memory while warps wait on loads fire the staging hint", "[hints]") {
  judge::kernel_digest k = clean_kernel();
  k.l1_hit_pct = 88;
  k.shared_wavefronts = 0;
  k.stalls = {{"long_scoreboard", 0.31}, {"lg_throttle", 0.24}, {"not_selected", 0.2}};
  const judge::hint h = profiler_hint(good_solution(), k, "l1_reuse");
  CHECK(contains(h.evidence, "88% of global loads hit in L1 and no shared memory is used, while warps wait on loads "
                             "55% of their cycles"));
  CHECK(contains(h.lesson, "__syncthreads()"));
  k.shared_wavefronts = 1e6; // it stages through shared memory already
  CHECK_FALSE(has(ids_of(profiler_hints_of(good_solution(), {k})), "l1_reuse"));
  k.shared_wavefronts = 0;
  k.l1_hit_pct = 10;
  CHECK_FALSE(has(ids_of(profiler_hints_of(good_solution(), {k})), "l1_reuse"));
}

TEST_CASE("run-time errors only on cases larger than every accepted one fire the limits hint", "[hints]") {
  judge::solution_result r = good_solution();
  judge::case_result huge;
  huge.name = "n_int_max";
  huge.shape = "2147483647";
  huge.sizes = {2147483647};
  huge.v = judge::verdict::run_time_error;
  r.cases[0].sizes = {16777216};
  r.cases[0].shape = "16777216";
  r.cases.push_back(huge);
  r.v = judge::verdict::run_time_error;
  const judge::hint h = hint_of(r, "fails_only_when_large");
  CHECK(contains(h.evidence, "accepted up to square_4096 (16777216)"));
  CHECK(contains(h.evidence, "run-time error from n_int_max (2147483647)"));
  r.cases[1].sizes = {1000}; // a crash on a smaller case is not about limits
  CHECK_FALSE(has(fired(r), "fails_only_when_large"));
}
