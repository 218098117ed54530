#include "catch.hpp"
#include "text_match.hpp"

#include "hints.hpp"

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
  r.cases[1].timing->launches[0].grid[0] = 132;
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
