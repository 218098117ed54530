#include "catch.hpp"

#include "common/no_device.hpp"
#include "judge/run/device_probe.hpp"

#include <cstdlib>

using namespace judge;

TEST_CASE("the probe's report of an H200 becomes device facts", "[probe]") {
  const auto r = parse_probe_output(
      R"({"device":"NVIDIA H200","cc":"9.0","sms":132,"l2_bytes":62914560,)"
      R"("memory_bytes":150754820096,"clock_max_mhz":1980,"fp32_peak_gflops":66908,"copy_gbps":4248,)"
      R"("memcpy_gbps":4222,"kernel_copy_gbps":4248,"dram_peak_gbps":4814})");
  REQUIRE(r.device);
  CHECK(r.device->name == "NVIDIA H200");
  CHECK(r.device->sms == 132);
  CHECK(r.device->memory_bytes == 150754820096);
  CHECK(r.device->measured_bandwidth_gbps == 4248);
  CHECK(r.device->dram_peak_gbps == 4814);
  CHECK(bandwidth_peak(*r.device) == 4814); // what bandwidth percentages divide by
  CHECK(r.error.empty());
}

TEST_CASE("no device and unreadable probe output are errors, not devices", "[probe]") {
  const auto none = parse_probe_output(R"({"error":"no CUDA device: CUDA driver version is insufficient"})");
  CHECK_FALSE(none.device);
  CHECK(none.no_device);
  CHECK(none.error == "CUDA driver version is insufficient");
  const auto failed = parse_probe_output(R"({"error":"cudaSetDevice(device) failed: out of memory"})");
  CHECK_FALSE(failed.device);
  CHECK_FALSE(failed.no_device);
  CHECK(failed.error == "cudaSetDevice(device) failed: out of memory");
  const auto garbage = parse_probe_output("Segmentation fault");
  CHECK_FALSE(garbage.device);
  CHECK_FALSE(garbage.no_device);
  CHECK(garbage.error.find("unexpected") != std::string::npos);
}

TEST_CASE("solutions are compiled for the GPU present unless JUDGE_ARCHS says otherwise", "[probe]") {
  ::unsetenv("JUDGE_ARCHS");
  probe_result r;
  device_info d;
  d.cc = "8.6";
  r.device = d;
  const auto tools = toolchain_for(r);
  REQUIRE(tools.archs.size() == 1);
  CHECK(tools.archs[0] == "86");
  // Hopper's own target, as LeetGPU compiles for its H100 and H200.
  r.device->cc = "9.0";
  CHECK(toolchain_for(r).archs == std::vector<std::string>{"90a"});
  CHECK(toolchain_for(probe_result{}).archs == default_toolchain().archs);
}

TEST_CASE("without an NVIDIA driver no device means no NVIDIA GPU was found, not an old driver", "[probe]") {
  const std::string words = "CUDA driver version is insufficient for CUDA runtime version";
  CHECK(judge_device::no_device_reason(words, false) == "no NVIDIA GPU was found: no NVIDIA driver is loaded on this machine");
  CHECK(judge_device::no_device_reason(words, true) == "the CUDA runtime says: " + words);
}
