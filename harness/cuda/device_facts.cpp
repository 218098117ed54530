#include "harness/cuda/device_facts.hpp"

#include "harness/cuda/cuda_check.hpp"

#include <cstdio>

namespace judge_harness {
namespace {

/// The 16 bytes of a UUID as nvidia-smi writes them: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx.
std::string uuid_text(const cudaUUID_t& uuid) {
  std::string text = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
    char hex[3];
    std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned>(static_cast<unsigned char>(uuid.bytes[i])));
    text += hex;
  }
  return text;
}

} // namespace

device_facts query_device(int device) {
  cudaDeviceProp properties{};
  JUDGE_CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
  int clock_khz = 0;
  int l2_bytes = 0;
  JUDGE_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));
  JUDGE_CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));

  device_facts facts;
  facts.name = properties.name;
  facts.cc = std::to_string(properties.major) + "." + std::to_string(properties.minor);
  facts.cc_major = properties.major;
  facts.cc_minor = properties.minor;
  facts.sms = properties.multiProcessorCount;
  facts.l2_bytes = l2_bytes;
  facts.memory_bytes = static_cast<std::int64_t>(properties.totalGlobalMem);
  facts.clock_rate_mhz = clock_khz / 1000.0;
  facts.uuid = uuid_text(properties.uuid);
  return facts;
}

} // namespace judge_harness
