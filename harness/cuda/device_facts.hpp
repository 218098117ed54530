// What the runner tells the judge about its GPU in "hello".
#pragma once

#include <cstdint>
#include <string>

namespace judge_harness {

struct device_facts {
  std::string name;              ///< "NVIDIA H200"
  std::string cc;                ///< compute capability, "9.0"
  int cc_major = 0;              ///< 9 for "9.0"
  int cc_minor = 0;              ///< 0 for "9.0"
  int sms = 0;                   ///< streaming multiprocessors
  std::int64_t l2_bytes = 0;     ///< [B]
  std::int64_t memory_bytes = 0; ///< [B] global memory
  double clock_rate_mhz = 0;     ///< [MHz] the SM clock CUDA reports (cudaDevAttrClockRate)
  std::string uuid;              ///< "GPU-1a2b3c4d-...", as nvidia-smi writes it: the GPU, whatever its index
};

/// Reads the facts of CUDA device `device`; throws cuda_error when CUDA cannot.
device_facts query_device(int device);

} // namespace judge_harness
