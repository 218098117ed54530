#include "catch.hpp"

#include "judge/profile/profile_digest.hpp"

#include <algorithm>
#include <string>

#if JUDGE_CATCH_MAJOR >= 3
using Catch::Approx; // Catch2 2.13 declares it globally
#endif

namespace {

std::string stall(const std::string& reason) {
  return "smsp__average_warps_issue_stalled_" + reason + "_per_issue_active.ratio";
}

/// A launch with every figure the digest reads, in base units: 1 ms, 2 GFLOP, 1 GB of DRAM traffic on a
/// device of 50 TFLOP/s FP32 and 5 TB/s (ridge at 10 FLOP/B).
judge::ncu_launch measured_launch() {
  judge::ncu_launch l;
  l.id = "0";
  l.name = "matmul_tiled(const float *, const float *, float *, int, int, int)";
  l.grid = "(32, 32, 1)";
  l.block = "(32, 32, 1)";
  l.metrics = {
      {"gpu__time_duration.sum", 1e-3},
      {"sm__throughput.avg.pct_of_peak_sustained_elapsed", 61.0},
      {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", 35.0},
      {"sm__warps_active.avg.pct_of_peak_sustained_active", 40.0},
      {"sm__maximum_warps_per_active_cycle_pct", 50.0},
      {"l1tex__t_sector_hit_rate.pct", 5.0},
      {"lts__t_sector_hit_rate.pct", 80.0},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 4000},
      {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 1000},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 3200},
      {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", 100},
      {"memory_l2_theoretical_sectors_global", 7200},
      {"memory_l2_theoretical_sectors_global_ideal", 5400},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 30},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", 10},
      {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 300},
      {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 100},
      // FP32 instructions per elapsed cycle over 2e6 cycles: 0.9e9 FMAs, 0.1e9 adds, 0.1e9 multiplies.
      {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum.per_cycle_elapsed", 450},
      {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum.per_cycle_elapsed", 50},
      {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum.per_cycle_elapsed", 50},
      {"smsp__cycles_elapsed.avg", 2e6},
      {"sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained", 12500},
      {"sm__cycles_elapsed.avg.per_second", 2e9},
      {"dram__bytes_read.sum", 0.75e9},
      {"dram__bytes_write.sum", 0.25e9},
      {"dram__bytes.sum.peak_sustained", 2500},
      {"dram__cycles_elapsed.avg.per_second", 2e9},
      {stall("long_scoreboard"), 6.0},
      {stall("barrier"), 2.0},
      {stall("selected"), 1.0},
      {stall("mio_throttle"), 0.5},
      {stall("wait"), 0.5},
  };
  return l;
}

} // namespace

TEST_CASE("a measured launch gives every figure of the digest", "[profile_digest]") {
  const judge::kernel_digest d = judge::digest_launch(measured_launch());
  CHECK(d.name == "matmul_tiled(const float *, const float *, float *, int, int, int)");
  CHECK(*d.duration_s == Approx(1e-3));
  CHECK(*d.compute_pct == Approx(61));
  CHECK(*d.memory_pct == Approx(35));
  CHECK(*d.achieved_occupancy_pct == Approx(40));
  CHECK(*d.theoretical_occupancy_pct == Approx(50));
  CHECK(*d.l1_hit_pct == Approx(5));
  CHECK(*d.l2_hit_pct == Approx(80));
  CHECK(*d.load_sectors_per_request == Approx(4));
  CHECK(*d.store_sectors_per_request == Approx(32));
  CHECK(*d.excess_global_sectors_pct == Approx(25)); // (7200 - 5400) / 7200
  CHECK(*d.shared_load_conflicts == Approx(30));
  CHECK(*d.shared_conflict_pct == Approx(10)); // 40 of 400 wavefronts
}

TEST_CASE("the stalls are shares of every warp state, largest first, issuing left out", "[profile_digest]") {
  const judge::kernel_digest d = judge::digest_launch(measured_launch());
  REQUIRE(d.stalls.size() == 4);
  CHECK(d.stalls[0].reason == "long_scoreboard");
  CHECK(d.stalls[0].share == Approx(0.6)); // 6 of 10 cycles per issued instruction
  CHECK(d.stalls[1].reason == "barrier");
  CHECK(d.stalls[1].share == Approx(0.2));
  CHECK(d.stalls[2].share == Approx(0.05));
  CHECK(d.stalls[3].share == Approx(0.05));
  CHECK(std::none_of(d.stalls.begin(), d.stalls.end(),
                     [](const judge::stall_share& s) { return s.reason == "selected"; }));
}

TEST_CASE("the roofline point is the FLOPs per DRAM byte against the lower roof", "[profile_digest]") {
  judge::kernel_digest d = judge::digest_launch(measured_launch());
  CHECK(*d.flops == Approx(2e9)); // 2 × 0.9 + 0.1 + 0.1 GFLOP
  CHECK(*d.arithmetic_intensity == Approx(2.0));
  CHECK(d.peaks->fp32_flops_per_s == Approx(50e12));
  CHECK(d.peaks->dram_bytes_per_s == Approx(5e12));
  // At 2 FLOP/B the DRAM roof is 10 TFLOP/s; 2 TFLOP/s achieved is 20% of it.
  CHECK(*d.bound_by == judge::roof::dram_bandwidth);
  CHECK(*d.pct_of_roof == Approx(20));

  judge::ncu_launch dense = measured_launch();
  dense.metrics["dram__bytes.sum"] = 1e8; // 20 FLOP/B: past the ridge, under the FP32 roof
  d = judge::digest_launch(dense);
  CHECK(*d.bound_by == judge::roof::fp32_compute);
  CHECK(*d.pct_of_roof == Approx(4)); // 2 of 50 TFLOP/s
}

TEST_CASE("a figure whose metrics are missing is not measured, and the device's roofs stand in", "[profile_digest]") {
  // The totals (not the rates the judge asks for) are read too: a report collected with other options.
  judge::ncu_launch l;
  l.name = "k(int)";
  l.metrics = {{"gpu__time_duration.sum", 1e-3},
               {"sm__sass_thread_inst_executed_op_ffma_pred_on.sum", 1e9},
               {"dram__bytes.sum", 1e9}};
  judge::kernel_digest d = judge::digest_launch(l);
  CHECK_FALSE(d.compute_pct);
  CHECK_FALSE(d.achieved_occupancy_pct);
  CHECK_FALSE(d.load_sectors_per_request);
  CHECK_FALSE(d.excess_global_sectors_pct);
  CHECK_FALSE(d.shared_conflict_pct);
  CHECK(d.stalls.empty());
  CHECK(*d.arithmetic_intensity == Approx(2.0));
  CHECK_FALSE(d.bound_by); // no roofs measured, none given
  d = judge::digest_launch(l, judge::roofline_peaks{60e12, 4e12});
  CHECK(*d.bound_by == judge::roof::dram_bandwidth);
  CHECK(*d.pct_of_roof == Approx(25)); // 2 TFLOP/s of 8
}

TEST_CASE("the instrumented shared wavefronts decide the bank conflicts where ncu measured them", "[profile_digest]") {
  judge::ncu_launch l = measured_launch();
  l.metrics["memory_l1_wavefronts_shared"] = 1000;
  l.metrics["memory_l1_wavefronts_shared_ideal"] = 250;
  CHECK(*judge::digest_launch(l).shared_conflict_pct == Approx(75));
}

TEST_CASE("every metric the digest reads is asked for once", "[profile_digest]") {
  const auto& metrics = judge::profile_metrics();
  for (const auto& [name, value] : measured_launch().metrics) {
    CAPTURE(name);
    CHECK(std::count(metrics.begin(), metrics.end(), name) == 1);
  }
  CHECK(std::count(metrics.begin(), metrics.end(), "memory_l1_wavefronts_shared_ideal") == 1);
}

TEST_CASE("the longest launch is the one the figures matter most for", "[profile_digest]") {
  std::vector<judge::kernel_digest> kernels(3);
  kernels[0].duration_s = 1e-5;
  kernels[1].duration_s = 3e-4;
  kernels[2].duration_s = 2e-4;
  CHECK(judge::longest(kernels) == &kernels[1]);
  CHECK(judge::longest({}) == nullptr);
}
