// gpu_probe: one JSON line about CUDA device 0, for the judge's reports (percent of peak, hello
// checks) and for `judge device`. Exit status 0; 3 when there is no CUDA device; 1 when a CUDA call
// fails. With --bandwidth it also measures device-to-device copy bandwidth (copy_gbps: the better of
// cudaMemcpy and a copy kernel; both are reported).
#include "harness/cuda/cuda_check.hpp"
#include "harness/cuda/device_facts.hpp"
#include "harness/cuda/device_memory.hpp"
#include "harness/timing/event_timer.hpp"

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

namespace {

/// FP32 lanes (FMA units) per SM: 64 on Volta/Turing (7.x) and A100 (8.0), 128 on the consumer
/// Ampere and Ada parts (8.6, 8.7, 8.9), Hopper (9.0) and Blackwell (10.x, 12.x).
int fp32_lanes_per_sm(int major, int minor) {
  if (major >= 9) return 128;
  if (major == 8) return minor == 0 ? 64 : 128;
  return 64;
}

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

/// A plain copy, 16 bytes per thread and step. cudaMemcpy is not the fastest copy on every GPU (on our
/// H200 this kernel was ahead of it by under 1%), and the measured figure shown beside the DRAM peak
/// should be the best copy the device does, not one API's.
__global__ void judge_probe_copy(const float4* __restrict__ source, float4* __restrict__ destination, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    destination[i] = source[i];
}

struct copy_bandwidth {
  double memcpy_gbps = 0; ///< best cudaMemcpy device to device
  double kernel_gbps = 0; ///< best judge_probe_copy launch
  double best() const { return memcpy_gbps > kernel_gbps ? memcpy_gbps : kernel_gbps; }
};

/// [GB/s] bytes read plus bytes written per second, best of 5 timed copies of 1 GiB; the first copy of
/// each kind pays for page mapping and clock ramp-up and is not counted.
template <typename Copy> double best_copy_gbps(std::size_t bytes, Copy copy) {
  constexpr int repetitions = 5;
  copy();
  JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
  double best_ms = 0.0;
  for (int i = 0; i < repetitions; ++i) {
    judge_harness::event_timer timer;
    timer.record_start(nullptr);
    copy();
    timer.record_stop(nullptr);
    JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
    const double ms = timer.elapsed_ms();
    if (i == 0 || ms < best_ms) best_ms = ms;
  }
  return 2.0 * static_cast<double>(bytes) / (best_ms * 1e-3) / 1e9;
}

copy_bandwidth measure_copy_bandwidth(int sms) {
  constexpr std::size_t bytes = std::size_t{1} << 30;
  judge_harness::device_memory source(bytes);
  judge_harness::device_memory destination(bytes);
  JUDGE_CUDA_CHECK(cudaMemset(source.data(), 1, bytes));
  copy_bandwidth result;
  result.memcpy_gbps = best_copy_gbps(bytes, [&] {
    JUDGE_CUDA_CHECK(cudaMemcpyAsync(destination.data(), source.data(), bytes, cudaMemcpyDeviceToDevice, nullptr));
  });
  const auto* in = static_cast<const float4*>(source.data());
  auto* out = static_cast<float4*>(destination.data());
  const std::size_t n = bytes / sizeof(float4);
  // Two launch shapes: a few resident blocks per SM walking the array, and one thread per element.
  for (const unsigned blocks : {static_cast<unsigned>(sms) * 8u, static_cast<unsigned>(n / 256)}) {
    const double gbps = best_copy_gbps(bytes, [&] {
      judge_probe_copy<<<blocks, 256>>>(in, out, n);
      JUDGE_CUDA_CHECK(cudaGetLastError());
    });
    if (gbps > result.kernel_gbps) result.kernel_gbps = gbps;
  }
  return result;
}

int probe(bool bandwidth) {
  int devices = 0;
  const cudaError_t found = cudaGetDeviceCount(&devices);
  if (found != cudaSuccess || devices == 0) {
    const std::string reason = found != cudaSuccess ? cudaGetErrorString(found) : "cudaGetDeviceCount found no device";
    std::printf("{\"error\":%s}\n", json_string("no CUDA device: " + reason).c_str());
    return 3;
  }
  constexpr int device = 0;
  JUDGE_CUDA_CHECK(cudaSetDevice(device));
  const judge_harness::device_facts facts = judge_harness::query_device(device);
  const int lanes = fp32_lanes_per_sm(facts.cc_major, facts.cc_minor);
  // One FMA per lane per cycle counts as two floating-point operations.
  const double peak_gflops = facts.sms * lanes * 2.0 * facts.clock_rate_mhz / 1000.0;
  // DRAM transfers twice per memory clock (DDR) over the whole bus.
  int memory_clock_khz = 0;
  int bus_bits = 0;
  JUDGE_CUDA_CHECK(cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, device));
  JUDGE_CUDA_CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device));
  const double dram_peak_gbps = 2.0 * memory_clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;

  std::string line =
      "{\"device\":" + json_string(facts.name) + ",\"uuid\":" + json_string(facts.uuid) + ",\"cc\":\"" + facts.cc +
      "\",\"sms\":" + std::to_string(facts.sms) + ",\"l2_bytes\":" + std::to_string(facts.l2_bytes) +
      ",\"memory_bytes\":" + std::to_string(facts.memory_bytes) +
      ",\"clock_max_mhz\":" + std::to_string(facts.clock_rate_mhz) +
      ",\"fp32_peak_gflops\":" + std::to_string(peak_gflops) + ",\"dram_peak_gbps\":" + std::to_string(dram_peak_gbps);
  if (bandwidth) {
    const copy_bandwidth copy = measure_copy_bandwidth(facts.sms);
    line += ",\"copy_gbps\":" + std::to_string(copy.best()) + ",\"memcpy_gbps\":" + std::to_string(copy.memcpy_gbps) +
            ",\"kernel_copy_gbps\":" + std::to_string(copy.kernel_gbps);
  }
  std::printf("%s}\n", line.c_str());
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  bool bandwidth = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--bandwidth") == 0) {
      bandwidth = true;
    } else {
      std::fprintf(stderr, "gpu_probe: unexpected argument \"%s\"\nusage: gpu_probe [--bandwidth]\n", argv[i]);
      return 2;
    }
  }
  try {
    return probe(bandwidth);
  } catch (const std::exception& e) {
    std::printf("{\"error\":%s}\n", json_string(e.what()).c_str());
    return 1;
  }
}
