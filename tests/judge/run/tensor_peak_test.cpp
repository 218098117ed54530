#include "judge/run/tensor_peak.hpp"

#include "catch.hpp"

#if JUDGE_CATCH_MAJOR >= 3
using Catch::Approx; // Catch2 2.13 declares it globally
#endif

using namespace judge;

TEST_CASE("the dense TF32 rate per SM follows the compute capability", "[tensor_peak]") {
  CHECK(tf32_fma_per_clock_per_sm("9.0") == 1024);
  CHECK(tf32_fma_per_clock_per_sm("8.0") == 512);
  CHECK(tf32_fma_per_clock_per_sm("8.6") == 128);
  CHECK(tf32_fma_per_clock_per_sm("8.9") == 128);
  CHECK(tf32_fma_per_clock_per_sm("7.0") == 0); // Volta's tensor cores have no TF32
  CHECK(tf32_fma_per_clock_per_sm("") == 0);
}

TEST_CASE("the TF32 tensor peak reproduces the datasheets it was derived from", "[tensor_peak]") {
  device_info h100;
  h100.cc = "9.0";
  h100.sms = 132;
  h100.clock_max_mhz = 1830;
  CHECK(tf32_tensor_peak_gflops(h100) == Approx(494700).epsilon(0.001)); // H100 SXM5: 494.7 TFLOPS dense
  device_info a100;
  a100.cc = "8.0";
  a100.sms = 108;
  a100.clock_max_mhz = 1410;
  CHECK(tf32_tensor_peak_gflops(a100) == Approx(156000).epsilon(0.001)); // A100: 156 TFLOPS dense
  device_info unknown;
  CHECK(tf32_tensor_peak_gflops(unknown) == 0);
}
