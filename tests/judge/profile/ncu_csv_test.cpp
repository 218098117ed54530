#include "catch.hpp"

#include "judge/profile/ncu_csv.hpp"

#include <string>

#if JUDGE_CATCH_MAJOR >= 3
using Catch::Approx; // Catch2 2.13 declares it globally
#endif

namespace {

// `ncu --import FILE --csv --page raw`: a header, a row of units, a row per launch; ncu's own lines and a
// learner's prints before it.
const std::string raw_page =
    "==PROF== Connected to process 4242 (/cache/matmul/runner-1/runner)\n"
    "hello from solve()\n"
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
    "\"Grid Size\",\"Device\",\"CC\",\"dram__bytes.sum\",\"gpu__time_duration.sum\","
    "\"sm__throughput.avg.pct_of_peak_sustained_elapsed\",\"device__attribute_display_name\",\"lts__t_sector_hit_rate."
    "pct\"\n"
    "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"Mbyte\",\"usecond\",\"%\",\"\",\"%\"\n"
    "\"0\",\"4242\",\"runner\",\"127.0.0.1\",\"matmul_row_per_thread_x(const float *, const float *, float *, int, "
    "int, "
    "int)\",\"1\",\"7\",\"(32, 8, 1)\",\"(32, 64, 1)\",\"0\",\"9.0\",\"12.58\",\"1,234.5\",\"12.5\",\"NVIDIA "
    "H200\",\"n/a\"\n"
    "\"1\",\"4242\",\"runner\",\"127.0.0.1\",\"add_bias(float *, int)\",\"1\",\"7\",\"(256, 1, 1)\",\"(4, 1, "
    "1)\",\"0\","
    "\"9.0\",\"0.5\",\"3\",\"1\",\"NVIDIA H200\",\"97.5\"\n";

} // namespace

TEST_CASE("the raw page gives one launch per row with every metric in base units", "[ncu_csv]") {
  const auto launches = judge::parse_ncu_csv(raw_page);
  REQUIRE(launches.size() == 2);
  const judge::ncu_launch& first = launches[0];
  CHECK(first.id == "0");
  CHECK(first.name == "matmul_row_per_thread_x(const float *, const float *, float *, int, int, int)");
  CHECK(first.block == "(32, 8, 1)");
  CHECK(first.grid == "(32, 64, 1)");
  CHECK(first.metrics.at("dram__bytes.sum") == Approx(12.58e6));
  CHECK(first.metrics.at("gpu__time_duration.sum") == Approx(1234.5e-6)); // thousands separator, microseconds
  CHECK(first.metrics.at("sm__throughput.avg.pct_of_peak_sustained_elapsed") == Approx(12.5));
  CHECK(first.metrics.count("lts__t_sector_hit_rate.pct") == 0);     // "n/a" is not measured
  CHECK(first.metrics.count("device__attribute_display_name") == 0); // text is no figure
  CHECK(first.metrics.count("Block Size") == 0);                     // nor is the launch's own description
  CHECK(launches[1].name == "add_bias(float *, int)");
  CHECK(launches[1].metrics.at("lts__t_sector_hit_rate.pct") == Approx(97.5));
}

TEST_CASE("the long form gives one launch per ID with a value per metric row", "[ncu_csv]") {
  const std::string text =
      "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
      "\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
      "\"0\",\"1\",\"runner\",\"h\",\"k(int)\",\"1\",\"7\",\"(128, 1, 1)\",\"(8, 1, 1)\",\"0\",\"9.0\",\"Command line "
      "profiler metrics\",\"dram__bytes.sum\",\"Kbyte\",\"2,048\"\n"
      "\"0\",\"1\",\"runner\",\"h\",\"k(int)\",\"1\",\"7\",\"(128, 1, 1)\",\"(8, 1, 1)\",\"0\",\"9.0\",\"Command line "
      "profiler metrics\",\"gpu__time_duration.sum\",\"nsecond\",\"4,096\"\n"
      "\"1\",\"1\",\"runner\",\"h\",\"k(int)\",\"1\",\"7\",\"(128, 1, 1)\",\"(8, 1, 1)\",\"0\",\"9.0\",\"Command line "
      "profiler metrics\",\"dram__bytes.sum\",\"byte\",\"100\"\n";
  const auto launches = judge::parse_ncu_csv(text);
  REQUIRE(launches.size() == 2);
  CHECK(launches[0].metrics.at("dram__bytes.sum") == Approx(2.048e6));
  CHECK(launches[0].metrics.at("gpu__time_duration.sum") == Approx(4.096e-6));
  CHECK(launches[1].metrics.at("dram__bytes.sum") == Approx(100));
  CHECK(launches[1].metrics.size() == 1);
}

TEST_CASE("ncu's units scale to bytes, seconds and per second", "[ncu_csv]") {
  CHECK(judge::ncu_unit_scale("byte") == 1);
  CHECK(judge::ncu_unit_scale("Gbyte") == Approx(1e9));
  CHECK(judge::ncu_unit_scale("msecond") == Approx(1e-3));
  CHECK(judge::ncu_unit_scale("Tbyte/second") == Approx(1e12));
  CHECK(judge::ncu_unit_scale("cycle/nsecond") == Approx(1e9));
  CHECK(judge::ncu_unit_scale("GHz") == Approx(1e9));
  CHECK(judge::ncu_unit_scale("%") == 1);
  CHECK(judge::ncu_unit_scale("sector") == 1);
}

TEST_CASE("text without ncu's header is refused, and a header alone has no launch", "[ncu_csv]") {
  CHECK_THROWS_AS(judge::parse_ncu_csv("==ERROR== the application returned an error\n"), judge::ncu_csv_error);
  CHECK(judge::parse_ncu_csv("\"ID\",\"Kernel Name\",\"dram__bytes.sum\"\n\"\",\"\",\"byte\"\n").empty());
}
