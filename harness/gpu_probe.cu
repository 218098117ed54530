// gpu_probe: one JSON line about CUDA device 0, for the judge's reports (percent of peak, hello
// checks) and for `judge device`. Exit status 0; 3 when there is no CUDA device; 1 when a CUDA call
// fails. With --bandwidth it also measures device-to-device copy bandwidth.
#include "cuda_check.hpp"
#include "device_facts.hpp"
#include "device_memory.hpp"
#include "event_timer.hpp"

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

/// [GB/s] best device-to-device cudaMemcpy of 1 GiB out of 5, counting bytes read plus bytes written.
double copy_bandwidth_gbps() {
  constexpr std::size_t bytes = std::size_t{1} << 30;
  constexpr int repetitions = 5;
  judge_harness::device_memory source(bytes);
  judge_harness::device_memory destination(bytes);
  JUDGE_CUDA_CHECK(cudaMemset(source.data(), 1, bytes));
  // The first copy pays for page mapping and clock ramp-up; it is not counted.
  JUDGE_CUDA_CHECK(cudaMemcpy(destination.data(), source.data(), bytes, cudaMemcpyDeviceToDevice));
  double best_ms = 0.0;
  for (int i = 0; i < repetitions; ++i) {
    judge_harness::event_timer timer;
    timer.record_start(nullptr);
    JUDGE_CUDA_CHECK(cudaMemcpyAsync(destination.data(), source.data(), bytes, cudaMemcpyDeviceToDevice, nullptr));
    timer.record_stop(nullptr);
    JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
    const double ms = timer.elapsed_ms();
    if (i == 0 || ms < best_ms) best_ms = ms;
  }
  return 2.0 * static_cast<double>(bytes) / (best_ms * 1e-3) / 1e9;
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

  std::string line = "{\"device\":" + json_string(facts.name) + ",\"cc\":\"" + facts.cc +
                     "\",\"sms\":" + std::to_string(facts.sms) + ",\"l2_bytes\":" + std::to_string(facts.l2_bytes) +
                     ",\"memory_bytes\":" + std::to_string(facts.memory_bytes) +
                     ",\"clock_max_mhz\":" + std::to_string(facts.clock_rate_mhz) +
                     ",\"fp32_peak_gflops\":" + std::to_string(peak_gflops);
  if (bandwidth) line += ",\"copy_gbps\":" + std::to_string(copy_bandwidth_gbps());
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
