#include "catch.hpp"

#include "grade.hpp"

#include <fstream>
#include <unistd.h>

using namespace judge;

TEST_CASE("a case too large for the device's memory is named with its size, and one that fits is not", "[grade]") {
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

TEST_CASE("output files are read only when they hold exactly the expected element count", "[grade]") {
  const auto file = std::filesystem::temp_directory_path() / ("judge-grade-test-" + std::to_string(::getpid()) + ".bin");
  const float values[3] = {1.5f, -2.25f, 3.0f};
  std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(values), sizeof values);
  const auto read = read_floats(file, 3);
  REQUIRE(read);
  CHECK((*read)[1] == -2.25f);
  CHECK_FALSE(read_floats(file, 4));
  CHECK_FALSE(read_floats(file.string() + ".missing", 3));
  std::filesystem::remove(file);
}
