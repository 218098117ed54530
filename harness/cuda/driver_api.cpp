#include "harness/cuda/driver_api.hpp"

#include <cuda_runtime_api.h>

#include <mutex>

namespace judge_harness {
namespace {

template <typename F> void resolve(F& function, const char* name) {
  void* address = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  const cudaError_t status =
      cudaGetDriverEntryPointByVersion(name, &address, CUDART_VERSION, cudaEnableDefault, &found);
  if (status != cudaSuccess || found != cudaDriverEntryPointSuccess || address == nullptr)
    throw std::runtime_error(std::string("the CUDA driver has no ") + name + " (a driver older than CUDA " +
                             std::to_string(CUDART_VERSION / 1000) + "?)");
  function = reinterpret_cast<F>(address);
}

driver_api load() {
  driver_api api;
  resolve(api.cuGetErrorName, "cuGetErrorName");
  resolve(api.cuKernelGetName, "cuKernelGetName");
  resolve(api.cuKernelGetParamInfo, "cuKernelGetParamInfo");
  resolve(api.cuModuleLoadData, "cuModuleLoadData");
  resolve(api.cuModuleUnload, "cuModuleUnload");
  resolve(api.cuModuleGetFunction, "cuModuleGetFunction");
  resolve(api.cuModuleGetGlobal, "cuModuleGetGlobal");
  resolve(api.cuFuncGetParamInfo, "cuFuncGetParamInfo");
  resolve(api.cuFuncSetAttribute, "cuFuncSetAttribute");
  resolve(api.cuFuncSetCacheConfig, "cuFuncSetCacheConfig");
  resolve(api.cuLaunchKernelEx, "cuLaunchKernelEx");
  resolve(api.cuMemsetD8Async, "cuMemsetD8Async");
  resolve(api.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync");
  resolve(api.cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync");
  resolve(api.cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync");
  resolve(api.cuPointerGetAttribute, "cuPointerGetAttribute");
  return api;
}

} // namespace

std::string driver_api::name_of(CUresult code) const {
  const char* name = nullptr;
  if (cuGetErrorName == nullptr || cuGetErrorName(code, &name) != CUDA_SUCCESS || name == nullptr)
    return "CUDA driver error " + std::to_string(static_cast<int>(code));
  return name;
}

void driver_api::check(CUresult code, const char* call) const {
  if (code != CUDA_SUCCESS) throw driver_error(code, std::string(call) + " failed: " + name_of(code));
}

const driver_api& driver() {
  static std::once_flag once;
  static driver_api api;
  std::call_once(once, [] { api = load(); });
  return api;
}

} // namespace judge_harness
