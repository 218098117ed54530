#include "catch.hpp"

#include "judge/grading/device_fit.hpp"

using namespace judge;

TEST_CASE("a case too large for the device's memory is named with its size, and one that fits is not", "[device_fit]") {
  const problem_spec spec = load_problem(JUDGE_TEST_DATA_DIR "/spec/problems/matmul_tiny");
  test_case c;
  c.name = "huge";
  c.sizes = {{"M", 100000}, {"N", 100000}, {"K", 100000}}; // three 40 GB buffers
  device_info h200;
  h200.name = "NVIDIA H200";
  h200.memory_bytes = 150'000'000'000;
  h200.l2_bytes = 62'914'560;
  const std::string why = device_memory_shortfall(spec, c, h200);
  CAPTURE(why);
  CHECK(why.find("case huge") != std::string::npos);
  CHECK(why.find("GiB") != std::string::npos);
  CHECK(why.find("NVIDIA H200") != std::string::npos);

  c.sizes = {{"M", 1024}, {"N", 512}, {"K", 1024}};
  CHECK(device_memory_shortfall(spec, c, h200).empty());
  device_info unknown;
  c.sizes = {{"M", 100000}, {"N", 100000}, {"K", 100000}};
  CHECK(device_memory_shortfall(spec, c, unknown).empty());
}
