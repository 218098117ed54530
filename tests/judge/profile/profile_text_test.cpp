#include "catch.hpp"
#include "text_match.hpp"

#include "judge/profile/profile_text.hpp"

using judge_test::contains;

namespace {

judge::kernel_digest measured() {
  judge::kernel_digest k;
  k.name = "matmul_row_per_thread_x(const float *, const float *, float *, int, int, int)";
  k.grid = "(32, 128, 1)";
  k.block = "(32, 8, 1)";
  k.duration_s = 2.5e-3;
  k.compute_pct = 21.4;
  k.memory_pct = 88.6;
  k.achieved_occupancy_pct = 95;
  k.theoretical_occupancy_pct = 100;
  k.l1_hit_pct = 12;
  k.l2_hit_pct = 74;
  k.load_sectors_per_request = 16.5;
  k.store_sectors_per_request = 32;
  k.excess_global_sectors_pct = 84;
  k.shared_load_conflicts = 0;
  k.shared_store_conflicts = 0;
  k.stalls = {{"long_scoreboard", 0.62}, {"lg_throttle", 0.2}, {"wait", 0.05}, {"barrier", 0.01}};
  k.flops = 1.07e9;
  k.dram_bytes = 2.5e8;
  k.arithmetic_intensity = 4.28;
  k.achieved_flops_per_s = 4.3e11;
  k.peaks = judge::roofline_peaks{67e12, 4.8e12};
  k.bound_by = judge::roof::dram_bandwidth;
  k.pct_of_roof = 2.1;
  return k;
}

} // namespace

TEST_CASE("the digest says every figure in a line of its own", "[profile_text]") {
  const std::string text = judge::kernel_digest_text(measured());
  CHECK(contains(text, "matmul_row_per_thread_x(const float *, const float *, float *, int, int, int)  grid (32, 128, "
                       "1) block (32, 8, 1), 2.500 ms"));
  CHECK(contains(text, "speed of light    compute 21% of peak, memory 89% of peak"));
  CHECK(contains(text, "occupancy         achieved 95% of theoretical 100%"));
  CHECK(contains(text, "caches            L1 hit 12%, L2 hit 74%"));
  CHECK(contains(text, "global access     16.5 sectors per load request, 32.0 per store request; 84% of sectors "
                       "beyond the coalesced ideal"));
  CHECK(contains(text, "shared memory     bank conflicts 0 on loads, 0 on stores"));
  CHECK(contains(text, "warp stalls       long_scoreboard 62%, lg_throttle 20%, wait 5% of warp cycles"));
  CHECK(contains(text, "roofline          4.28 FLOP per DRAM byte, 430 GFLOP/s; under the DRAM bandwidth roof "
                       "(ridge at 14.0 FLOP/B: 67000 GFLOP/s, 4800 GB/s), at 2% of it"));
}

TEST_CASE("a figure ncu did not give is said to be not measured, in text and as null", "[profile_text]") {
  judge::kernel_digest k;
  k.name = "k(int)";
  const std::string text = judge::kernel_digest_text(k);
  CHECK(contains(text, "speed of light    compute not measured, memory not measured"));
  CHECK(contains(text, "warp stalls       not measured"));
  CHECK(contains(text, "roofline          not measured"));
  const nlohmann::json j = judge::kernel_digest_json(k);
  CHECK(j.at("compute_pct_of_peak").is_null());
  CHECK(j.at("roofline").at("bound_by").is_null());
  CHECK(j.at("top_stalls").empty());
}

TEST_CASE("the digest's JSON holds the same figures", "[profile_text]") {
  const nlohmann::json j = judge::kernel_digest_json(measured());
  CHECK(j.at("global_load_sectors_per_request") == 16.5);
  CHECK(j.at("top_stalls").at(0).at("reason") == "long_scoreboard");
  CHECK(j.at("top_stalls").size() == 3); // the fourth state is in the report file, not the digest
  CHECK(j.at("roofline").at("bound_by") == "dram");
  CHECK(j.at("roofline").at("arithmetic_intensity") == 4.28);
}

TEST_CASE("why there is no profile is said in words to act on", "[profile_text]") {
  judge::ncu_result r;
  r.outcome = judge::ncu_outcome::no_permission;
  CHECK(contains(judge::ncu_failure_text(r), "ERR_NVGPUCTRPERM"));
  r.outcome = judge::ncu_outcome::no_kernels;
  CHECK(contains(judge::ncu_failure_text(r), "judge_*"));
  r.outcome = judge::ncu_outcome::failed;
  r.detail = "exited with code 3";
  CHECK(contains(judge::ncu_failure_text(r), "Nsight Compute failed: exited with code 3"));
  r.outcome = judge::ncu_outcome::ok;
  CHECK(judge::ncu_failure_text(r).empty());
}
