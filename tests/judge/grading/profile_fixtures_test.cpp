// The digest and the profiler's hints on real Nsight Compute captures of the matmul ladder and cuBLAS
// (tests/data/ncu/: one H200, ncu 2025.3.1, case aligned_1024x512x1024, `--set full --csv --page raw`,
// trimmed to the columns the digest reads). Each ladder step must get the hint that names its next step.
#include "catch.hpp"
#include "text_match.hpp"

#include "judge/base/file_input.hpp"
#include "judge/grading/hints.hpp"

#include <algorithm>

using judge_test::contains;

#if JUDGE_CATCH_MAJOR >= 3
using Catch::Approx; // Catch2 2.13 declares it globally
#endif

namespace {

judge::kernel_digest captured(const std::string& step) {
  const auto launches =
      judge::parse_ncu_csv(judge::read_file(std::filesystem::path(JUDGE_TEST_DATA_DIR) / "ncu" / (step + ".csv")));
  REQUIRE(launches.size() == 1);
  return judge::digest_launch(launches[0]);
}

std::vector<std::string> fired(const judge::kernel_digest& k, bool tensor_cores_allowed = false) {
  judge::solution_result r;
  r.v = judge::verdict::accepted;
  r.device.cc = "9.0";
  r.device.sms = 132;
  judge::hint_facts facts{r, {}, judge::sm_limits_for("9.0")};
  facts.profile = {k};
  facts.profiled_case = "aligned_1024x512x1024";
  facts.tensor_cores_allowed = tensor_cores_allowed;
  std::vector<std::string> ids;
  for (const judge::hint& h : judge::profiler_hints(facts)) ids.push_back(h.id);
  return ids;
}

bool has(const std::vector<std::string>& ids, const std::string& id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

} // namespace

TEST_CASE("the H200 capture of the row-per-thread kernel shows its uncoalesced access", "[profile_fixtures]") {
  const judge::kernel_digest k = captured("01_naive_row_per_thread_x");
  CHECK(contains(k.name, "matmul_row_per_thread_x"));
  CHECK(*k.duration_s == Approx(2.225056e-3));
  CHECK(*k.load_sectors_per_request == Approx(16.5));
  CHECK(*k.store_sectors_per_request == Approx(32.04).epsilon(0.01));
  CHECK(*k.excess_global_sectors_pct == Approx(84.85).epsilon(0.01));
  CHECK(k.stalls.front().reason == "lg_throttle");
  CHECK(*k.flops == Approx(2.0 * 1024 * 512 * 1024).epsilon(0.01)); // 2·M·N·K, from ncu's rates
  CHECK(*k.bound_by == judge::roof::fp32_compute);                  // 4 MB of inputs from DRAM, the rest from L2
  const auto ids = fired(k);
  CHECK(has(ids, "uncoalesced_global"));
  CHECK_FALSE(has(ids, "shared_bank_conflicts"));
  CHECK_FALSE(has(ids, "latency_bound"));
}

TEST_CASE("the H200 capture of the coalesced naive kernel points to shared-memory staging", "[profile_fixtures]") {
  const judge::kernel_digest k = captured("02_naive_coalesced");
  CHECK(*k.load_sectors_per_request == Approx(2.5));
  CHECK(*k.excess_global_sectors_pct == Approx(0).margin(0.5));
  CHECK(*k.l1_hit_pct == Approx(88.53));
  CHECK(*k.shared_wavefronts == 0);
  const auto ids = fired(k);
  CHECK(has(ids, "l1_reuse"));
  CHECK_FALSE(has(ids, "uncoalesced_global"));
}

TEST_CASE("the H200 capture of the shared-memory tiled kernel points to register tiles", "[profile_fixtures]") {
  const judge::kernel_digest k = captured("03_shared_tiled");
  CHECK(k.stalls.front().reason == "mio_throttle");
  CHECK(k.stalls.front().share == Approx(0.47).margin(0.01));
  CHECK(*k.shared_conflict_pct == Approx(0).margin(0.5)); // every wavefront is one the access needs
  CHECK_FALSE(k.tensor_pipe_used);
  const auto ids = fired(k);
  CHECK(has(ids, "shared_memory_pipe"));
  CHECK_FALSE(has(ids, "shared_bank_conflicts"));
  CHECK_FALSE(has(ids, "l1_reuse"));
  CHECK_FALSE(has(ids, "uncoalesced_global"));
}

TEST_CASE("the H200 capture of the 2-D register tile points to latency hiding and the partial wave",
          "[profile_fixtures]") {
  const judge::kernel_digest k = captured("05_register_2d");
  CHECK(*k.achieved_occupancy_pct == Approx(24.13));
  CHECK(*k.theoretical_occupancy_pct == Approx(62.5));
  CHECK(k.stalls.front().reason == "long_scoreboard");
  CHECK(*k.load_sectors_per_request == Approx(16)); // float4 loads, coalesced
  const auto ids = fired(k);
  CHECK(has(ids, "latency_bound"));
  CHECK(has(ids, "achieved_occupancy_gap"));
  CHECK_FALSE(has(ids, "uncoalesced_global"));
  CHECK_FALSE(has(ids, "shared_bank_conflicts"));
  CHECK_FALSE(has(ids, "shared_memory_pipe"));
}

TEST_CASE("the H200 capture of cuBLAS gets no lesson but tensor cores, and those only where allowed",
          "[profile_fixtures]") {
  const judge::kernel_digest k = captured("cublas");
  CHECK(*k.bound_by == judge::roof::fp32_compute);
  CHECK(*k.pct_of_roof > 50);
  CHECK(*k.pct_of_roof < 55);
  CHECK_FALSE(k.tensor_pipe_used);
  for (const char* id :
       {"uncoalesced_global", "l1_reuse", "shared_bank_conflicts", "shared_memory_pipe", "latency_bound"})
    CHECK_FALSE(has(fired(k), id));
  CHECK_FALSE(has(fired(k, false), "tensor_cores"));
  CHECK(has(fired(k, true), "tensor_cores"));
}
