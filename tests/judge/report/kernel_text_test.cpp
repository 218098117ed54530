#include "catch.hpp"
#include "text_match.hpp"

#include "judge/report/kernel_text.hpp"
#include "judge/report/report_json.hpp"
#include "judge/report/report_terminal.hpp"

using judge_test::contains;
#if JUDGE_CATCH_MAJOR >= 3
using Catch::Approx; // Catch2 2.13 declares it globally
#endif
using namespace judge;

namespace {

judge_wire::kernel_launch tiled_launch() {
  judge_wire::kernel_launch k;
  k.name = "matmul_shared_tiled(float const*, float const*, float*, int, int, int)";
  k.grid[0] = 64;
  k.grid[1] = 32;
  k.grid[2] = 1;
  k.block[0] = 16;
  k.block[1] = 16;
  k.block[2] = 1;
  k.static_shared_bytes = 8192;
  k.registers = 32;
  return k;
}

/// An accepted solution on a 132-SM device of compute capability 9.0, one kernel, one timed case.
solution_result tiled_solution() {
  solution_result r;
  r.path = "solutions/matmul/alice.cu";
  r.v = verdict::accepted;
  r.speed_unit = "GFLOPS";
  r.device.cc = "9.0";
  r.device.sms = 132;
  r.kernels = {{tiled_launch().name, "sm_90", 32, 8192, 0, 0, 0}};
  case_result c;
  c.name = "square_2048";
  c.shape = "2048x2048x2048";
  c.sizes = {2048, 2048, 2048};
  c.v = verdict::accepted;
  c.timing.emplace();
  c.timing->median_ms = 1;
  c.timing->launches = {tiled_launch()};
  r.cases = {c};
  r.hints = {{"register_blocking", "compute several outputs per thread", "case square_2048: 1.0 per thread"}};
  return r;
}

} // namespace

TEST_CASE("a solution's block names its kernels, their launch, occupancy and waves, and its hints", "[report]") {
  const std::string text = render_solution(tiled_solution(), "cuBLAS", terminal_style{});
  CHECK(contains(text, "matmul_shared_tiled (sm_90): 32 registers, 8192 B shared, 0 B local, no spills"));
  // 256 threads, 32 registers: 8 blocks per SM, 64 of 64 warps; 2048 blocks / (8 × 132) = 1.94 waves.
  CHECK(contains(text, "grid 64x32x1 block 16x16x1, 8192 B shared, 32 registers → 8 block(s)/SM, 100% occupancy "
                       "(limited by warps), 1.94 waves"));
  CHECK(contains(text, "hint [register_blocking]: case square_2048: 1.0 per thread"));
  CHECK_FALSE(contains(text, "compute several outputs per thread"));
  CHECK(contains(render_solution(tiled_solution(), "cuBLAS", terminal_style{}, true), "compute several outputs"));
}

TEST_CASE("occupancy on a GPU whose limits the judge does not know is unknown, not guessed", "[report]") {
  device_info device;
  device.cc = "7.5";
  device.sms = 40;
  const std::string text = launch_text(tiled_launch(), device);
  CHECK(contains(text, "occupancy unknown"));
  CHECK_FALSE(contains(text, "block(s)/SM"));
}

TEST_CASE("the JSON report carries kernels, launches with occupancy, and hints", "[report]") {
  const nlohmann::json j = to_json(tiled_solution());
  REQUIRE(j.at("kernels").size() == 1);
  CHECK(j["kernels"][0]["registers"] == 32);
  CHECK(j["kernels"][0]["static_shared_bytes"] == 8192);
  const nlohmann::json& launch = j.at("cases").at(0).at("launches").at(0);
  CHECK(launch["grid"] == nlohmann::json({64, 32, 1}));
  CHECK(launch["occupancy"]["blocks_per_sm"] == 8);
  CHECK(launch["occupancy"]["limited_by"] == "warps");
  CHECK(launch["occupancy"]["waves"].get<double>() == Approx(2048.0 / 1056.0));
  REQUIRE(j.at("hints").size() == 1);
  CHECK(j["hints"][0]["id"] == "register_blocking");
  solution_result unknown = tiled_solution();
  unknown.device.cc = "";
  CHECK(to_json(unknown)["cases"][0]["launches"][0]["occupancy"].is_null());
}

TEST_CASE("a solution compiled but not run still shows what ptxas said of its kernels", "[report]") {
  solution_result r = tiled_solution();
  r.compiled_only = true;
  r.cases.clear();
  r.hints.clear();
  r.kernels[0].spill_store_bytes = 24;
  r.kernels[0].spill_load_bytes = 16;
  const std::string text = render_solution(r, "cuBLAS", terminal_style{});
  CHECK(contains(text, "matmul_shared_tiled (sm_90): 32 registers, 8192 B shared, 0 B local, spills 24 B stored, 16 B "
                       "loaded"));
}
