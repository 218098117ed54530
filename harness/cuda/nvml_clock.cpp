#include "harness/cuda/nvml_clock.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

namespace judge_harness {
namespace {

// The few NVML declarations needed, written out so that nvml.h is not needed to build: NVML's ABI
// passes an opaque device pointer, plain ints for enums and return codes.
using nvml_return = int;
constexpr nvml_return nvml_success = 0;
constexpr int nvml_clock_sm = 1; // NVML_CLOCK_SM

// Slowdown reasons that make a sample's clock untrustworthy (nvmlClocksEventReason*). The software
// power cap (0x4) is left out on purpose: under sustained load it is how the GPU normally regulates,
// and the clock test below catches the cases where it bites hard.
constexpr unsigned long long reason_hw_slowdown = 0x8;
constexpr unsigned long long reason_sw_thermal = 0x20;
constexpr unsigned long long reason_hw_thermal = 0x40;
constexpr unsigned long long reason_hw_power_brake = 0x80;
constexpr unsigned long long untrusted_reasons =
    reason_hw_slowdown | reason_sw_thermal | reason_hw_thermal | reason_hw_power_brake;

/// [fraction of the maximum SM clock] below which a sample counts as throttled (nvbench's rule).
constexpr double throttle_fraction = 0.75;

} // namespace

struct nvml_clock::api {
  nvml_return (*init)() = nullptr;
  nvml_return (*shutdown)() = nullptr;
  nvml_return (*handle_by_pci_bus_id)(const char*, void**) = nullptr;
  nvml_return (*clock_info)(void*, int, unsigned*) = nullptr;
  nvml_return (*max_clock_info)(void*, int, unsigned*) = nullptr;
  nvml_return (*slowdown_reasons)(void*, unsigned long long*) = nullptr; // may stay null
};

namespace {

template <typename F> bool resolve(void* library, const char* name, F& function) {
  function = reinterpret_cast<F>(dlsym(library, name));
  return function != nullptr;
}

} // namespace

nvml_clock::nvml_clock(int cuda_device) {
  m_library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (m_library == nullptr) {
    const char* error = dlerror();
    m_why_unavailable = std::string("cannot load libnvidia-ml.so.1: ") + (error != nullptr ? error : "unknown error");
    return;
  }
  auto functions = std::make_unique<api>();
  if (!resolve(m_library, "nvmlInit_v2", functions->init) || !resolve(m_library, "nvmlShutdown", functions->shutdown) ||
      !resolve(m_library, "nvmlDeviceGetHandleByPciBusId_v2", functions->handle_by_pci_bus_id) ||
      !resolve(m_library, "nvmlDeviceGetClockInfo", functions->clock_info) ||
      !resolve(m_library, "nvmlDeviceGetMaxClockInfo", functions->max_clock_info)) {
    m_why_unavailable = "libnvidia-ml.so.1 lacks a needed function";
    dlclose(m_library);
    m_library = nullptr;
    return;
  }
  // Renamed in driver 535; older drivers only have the "throttle" spelling.
  if (!resolve(m_library, "nvmlDeviceGetCurrentClocksEventReasons", functions->slowdown_reasons))
    resolve(m_library, "nvmlDeviceGetCurrentClocksThrottleReasons", functions->slowdown_reasons);

  if (functions->init() != nvml_success) {
    m_why_unavailable = "nvmlInit_v2 failed";
    dlclose(m_library);
    m_library = nullptr;
    return;
  }
  m_api = std::move(functions);

  char bus_id[32] = {};
  void* device = nullptr;
  unsigned max_mhz = 0;
  if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, cuda_device) != cudaSuccess) {
    m_why_unavailable = "cudaDeviceGetPCIBusId failed";
  } else if (m_api->handle_by_pci_bus_id(bus_id, &device) != nvml_success) {
    m_why_unavailable = std::string("NVML has no device at PCI bus id ") + bus_id;
  } else if (m_api->max_clock_info(device, nvml_clock_sm, &max_mhz) != nvml_success || max_mhz == 0) {
    m_why_unavailable = "NVML does not report the maximum SM clock";
  } else {
    m_device = device;
    m_max_sm_mhz = max_mhz;
  }
}

nvml_clock::~nvml_clock() {
  if (m_api != nullptr) m_api->shutdown();
  if (m_library != nullptr) dlclose(m_library);
}

clock_reading nvml_clock::read() const {
  clock_reading reading;
  if (!available()) return reading;
  unsigned mhz = 0;
  if (m_api->clock_info(m_device, nvml_clock_sm, &mhz) != nvml_success) return reading;
  reading.sm_mhz = mhz;
  reading.throttled = static_cast<double>(mhz) < throttle_fraction * static_cast<double>(m_max_sm_mhz);
  unsigned long long reasons = 0;
  if (m_api->slowdown_reasons != nullptr && m_api->slowdown_reasons(m_device, &reasons) == nvml_success &&
      (reasons & untrusted_reasons) != 0)
    reading.throttled = true;
  return reading;
}

} // namespace judge_harness
