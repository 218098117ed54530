#include "judge/grading/plausibility.hpp"

#include "catch.hpp"

#include <optional>

#if JUDGE_CATCH_MAJOR >= 3
using Catch::Approx; // Catch2 2.13 declares it globally
#endif

using namespace judge;

namespace {

/// An H200-like device: 60000 GFLOPS FP32, 4800 GB/s DRAM peak, 4000 GB/s copy measured, 50 MiB L2;
/// compute capability 9.0, 132 SMs at 2000 MHz: a dense TF32 tensor peak of 132 × 1024 × 2 × 2 GHz.
constexpr double h200_tf32_gflops = 132 * 1024 * 2 * 2000 / 1000.0; // 540672

device_info h200() {
  device_info d;
  d.name = "NVIDIA H200";
  d.cc = "9.0";
  d.sms = 132;
  d.clock_max_mhz = 2000;
  d.l2_bytes = 50 << 20;
  d.fp32_peak_gflops = 60000;
  d.dram_peak_gbps = 4800;
  d.measured_bandwidth_gbps = 4000;
  return d;
}

/// A 4096³ matmul: 2·n³ FLOP, 12·n² bytes (far less than its FLOP floor needs).
case_work matmul_4096() { return {2.0 * 4096 * 4096 * 4096, 12.0 * 4096 * 4096, true, false, false}; }

/// The same with tensor cores allowed and the solution's code using them (`uses`; nullopt: not known).
case_work matmul_4096_tensor(std::optional<bool> uses) {
  case_work work = matmul_4096();
  work.tensor_cores_allowed = true;
  work.uses_tensor_cores = uses;
  return work;
}

/// A vector addition of n floats: no FLOP floor worth the name, 12·n bytes.
case_work vector_add(double n) { return {n, 12.0 * n, true, false, false}; }

} // namespace

TEST_CASE("a matmul timed above its FP32 floor is plausible", "[plausibility]") {
  const double floor_ms = 2.0 * 4096 * 4096 * 4096 / 60000e9 * 1e3; // 2.29 ms
  CHECK_FALSE(implausible(floor_ms * 1.01, matmul_4096(), h200()));
  CHECK_FALSE(implausible(floor_ms * 3, matmul_4096(), h200()));
}

TEST_CASE("a matmul timed below its FP32 floor is flagged with the figures", "[plausibility]") {
  const double floor_ms = 2.0 * 4096 * 4096 * 4096 / 60000e9 * 1e3;
  const std::optional<implausible_time> flagged = implausible(0.0086, matmul_4096(), h200());
  REQUIRE(flagged);
  CHECK(flagged->median_ms == 0.0086);
  CHECK(flagged->floor_ms == Approx(floor_ms));
  CHECK(flagged->ceiling == speed_ceiling::fp32_peak);
  CHECK(flagged->work == 2.0 * 4096 * 4096 * 4096);
  CHECK(flagged->peak == 60000);
  // A time of zero (no GPU work seen at all) is below any floor.
  CHECK(implausible(0.0, matmul_4096(), h200()));
}

TEST_CASE("tensor-core code where tensor cores are allowed is held to the TF32 tensor peak", "[plausibility]") {
  const double flops = 2.0 * 4096 * 4096 * 4096;
  const double floor_ms = flops / (h200_tf32_gflops * 1e9) * 1e3; // 0.254 ms
  const case_work work = matmul_4096_tensor(true);
  CHECK_FALSE(implausible(0.5, work, h200())); // below the FP32 floor (2.29 ms), above the TF32 one
  CHECK_FALSE(implausible(floor_ms * 1.01, work, h200()));
  const std::optional<implausible_time> flagged = implausible(floor_ms * 0.9, work, h200());
  REQUIRE(flagged);
  CHECK(flagged->ceiling == speed_ceiling::tf32_tensor_peak);
  CHECK(flagged->peak == Approx(h200_tf32_gflops));
  CHECK(flagged->work == flops);
  CHECK(flagged->floor_ms == Approx(floor_ms));
}

TEST_CASE("FP32 code keeps the FP32 floor even where tensor cores are allowed", "[plausibility]") {
  const std::optional<implausible_time> flagged = implausible(0.5, matmul_4096_tensor(false), h200());
  REQUIRE(flagged);
  CHECK(flagged->ceiling == speed_ceiling::fp32_peak);
  CHECK(flagged->peak == 60000);
}

TEST_CASE("tensor-core code where tensor cores are forbidden keeps the FP32 floor", "[plausibility]") {
  case_work work = matmul_4096();
  work.uses_tensor_cores = true;
  const std::optional<implausible_time> flagged = implausible(0.5, work, h200());
  REQUIRE(flagged);
  CHECK(flagged->ceiling == speed_ceiling::fp32_peak);
}

TEST_CASE("code the build could not inspect gets the looser floor where tensor cores are allowed", "[plausibility]") {
  const case_work work = matmul_4096_tensor(std::nullopt);
  CHECK_FALSE(implausible(0.5, work, h200()));
  const std::optional<implausible_time> flagged = implausible(0.1, work, h200());
  REQUIRE(flagged);
  CHECK(flagged->ceiling == speed_ceiling::tf32_tensor_peak);
}

TEST_CASE("without a known tensor rate for the device there is no FLOP floor, only the DRAM one", "[plausibility]") {
  const case_work work = matmul_4096_tensor(true);
  device_info volta = h200();
  volta.cc = "7.0";                           // tensor cores, but no TF32
  CHECK_FALSE(implausible(0.1, work, volta)); // below both FLOP floors of the H200, above the DRAM one
  // 12·4096² B = 201 MB, less 50 MiB of L2, at 4800 GB/s: 31 µs.
  const std::optional<implausible_time> flagged = implausible(0.001, work, volta);
  REQUIRE(flagged);
  CHECK(flagged->ceiling == speed_ceiling::dram_peak);
  CHECK(flagged->work == 12.0 * 4096 * 4096 - (50 << 20));
  CHECK(flagged->floor_ms == Approx((12.0 * 4096 * 4096 - (50 << 20)) / 4800e9 * 1e3));
}

TEST_CASE("a memory-bound case is held to the bytes that must cross DRAM", "[plausibility]") {
  const double n = 1 << 28; // 3.2 GB of traffic
  const double dram_bytes = 12.0 * n - (50 << 20);
  const double floor_ms = dram_bytes / 4800e9 * 1e3;
  CHECK_FALSE(implausible(floor_ms * 1.05, vector_add(n), h200()));
  const std::optional<implausible_time> flagged = implausible(floor_ms * 0.5, vector_add(n), h200());
  REQUIRE(flagged);
  CHECK(flagged->ceiling == speed_ceiling::dram_peak);
  CHECK(flagged->work == dram_bytes);
  CHECK(flagged->peak == 4800);
}

TEST_CASE("a case that fits in L2 has no DRAM floor", "[plausibility]") {
  // 12 MB of traffic fits in 50 MiB of L2: however fast, it may be honest.
  CHECK_FALSE(implausible(0.0001, vector_add(1 << 20), h200()));
}

TEST_CASE("with a warm L2 twice its size may be served without DRAM", "[plausibility]") {
  const double n = 1 << 24; // 201 MB
  case_work warm = vector_add(n);
  warm.cold_l2 = false;
  const std::optional<implausible_time> flagged = implausible(0.0001, warm, h200());
  REQUIRE(flagged);
  CHECK(flagged->work == 12.0 * n - 2.0 * (50 << 20));
}

TEST_CASE("without a DRAM peak the floor uses 1.25 times the measured copy bandwidth", "[plausibility]") {
  device_info d = h200();
  d.dram_peak_gbps = 0;
  const std::optional<implausible_time> flagged = implausible(0.0001, vector_add(1 << 28), d);
  REQUIRE(flagged);
  CHECK(flagged->ceiling == speed_ceiling::measured_bandwidth);
  CHECK(flagged->peak == 5000);
}

TEST_CASE("of two broken floors the higher one is reported", "[plausibility]") {
  // 1e12 FLOP at 60000 GFLOPS: 16.7 ms; 1e10 bytes at 4800 GB/s: about 2 ms.
  const std::optional<implausible_time> flagged = implausible(0.001, {1e12, 1e10, true, false}, h200());
  REQUIRE(flagged);
  CHECK(flagged->ceiling == speed_ceiling::fp32_peak);
}

TEST_CASE("a device whose ceilings are unknown flags nothing", "[plausibility]") {
  device_info unknown;
  CHECK_FALSE(implausible(0.0, matmul_4096(), unknown));
}

TEST_CASE("each ceiling has one stored name that reads back", "[plausibility]") {
  for (speed_ceiling c : {speed_ceiling::fp32_peak, speed_ceiling::dram_peak, speed_ceiling::measured_bandwidth,
                          speed_ceiling::tf32_tensor_peak}) {
    CAPTURE(ceiling_name(c));
    CHECK(ceiling_from_name(ceiling_name(c)) == c);
  }
  CHECK(std::string(ceiling_name(speed_ceiling::fp32_peak)) == "fp32_peak");
  CHECK(std::string(ceiling_name(speed_ceiling::tf32_tensor_peak)) == "tf32_tensor_peak");
  CHECK_FALSE(ceiling_from_name("tensor_peak"));
}
