// The tensor cores' dense TF32 peak of a device, from its compute capability, SM count and clock: the
// ceiling of a solution whose machine code uses tensor cores (grading/plausibility.hpp), as the FP32
// peak (SMs × 128 FMA/clock × 2 × max SM clock, from the probe) is the ceiling of one that does not.
#pragma once

#include "judge/run/device_info.hpp"

#include <string_view>

namespace judge {

/// Dense TF32 multiply-adds per clock per SM for compute capability `cc` ("9.0"), 0 when not known here
/// (no TF32 before 8.0; later ones not yet measured against a datasheet). Each rate is the vendor's
/// datasheet peak divided by SMs × boost clock × 2:
///   8.0  A100 SXM:  156 TFLOPS  / (108 SMs × 1410 MHz × 2) = 512   (NVIDIA A100 Tensor Core GPU Architecture)
///   8.6  RTX 3090:  35.6 TFLOPS / (82 SMs × 1695 MHz × 2)  = 128   (NVIDIA Ampere GA102 GPU Architecture)
///   8.9  RTX 4090:  82.6 TFLOPS / (128 SMs × 2520 MHz × 2) = 128   (NVIDIA Ada GPU Architecture)
///   9.0  H100 SXM5: 494.7 TFLOPS / (132 SMs × 1830 MHz × 2) = 1024 (NVIDIA H100 Tensor Core GPU datasheet)
/// Dense, not the 2:4-sparse figure the datasheets also quote: a solution's kernel does dense work.
inline int tf32_fma_per_clock_per_sm(std::string_view cc) {
  if (cc == "8.0") return 512;
  if (cc == "8.6" || cc == "8.9") return 128;
  if (cc == "9.0") return 1024;
  return 0;
}

/// [GFLOPS] SMs × TF32 FMA/clock/SM × 2 × max SM clock; 0 when the rate or the device's figures are unknown.
inline double tf32_tensor_peak_gflops(const device_info& d) {
  return d.sms * tf32_fma_per_clock_per_sm(d.cc) * 2.0 * d.clock_max_mhz / 1000.0;
}

} // namespace judge
