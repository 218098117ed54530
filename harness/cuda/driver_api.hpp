// The few CUDA driver API calls the harness makes (kernel names and parameter layouts, loading device
// code, launching it), found through the runtime (cudaGetDriverEntryPointByVersion) rather than by
// linking libcuda: runners link only the runtime, as solutions do.
#pragma once

#include <cuda.h>

#include <stdexcept>
#include <string>

namespace judge_harness {

/// A driver call that failed: "cuModuleLoadData failed: CUDA_ERROR_INVALID_IMAGE".
class driver_error : public std::runtime_error {
public:
  driver_error(CUresult code, const std::string& what) : std::runtime_error(what), m_code(code) {}
  CUresult code() const noexcept { return m_code; }

private:
  CUresult m_code;
};

/// The driver entry points, resolved once (the CUDA context must exist). Each member is the driver's
/// own function of that name.
struct driver_api {
  CUresult (*cuGetErrorName)(CUresult, const char**) = nullptr;
  CUresult (*cuKernelGetName)(const char**, CUkernel) = nullptr;
  CUresult (*cuKernelGetParamInfo)(CUkernel, size_t, size_t*, size_t*) = nullptr;
  CUresult (*cuModuleLoadData)(CUmodule*, const void*) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*) = nullptr;
  CUresult (*cuModuleGetGlobal)(CUdeviceptr*, size_t*, CUmodule, const char*) = nullptr;
  CUresult (*cuFuncGetParamInfo)(CUfunction, size_t, size_t*, size_t*) = nullptr;
  CUresult (*cuFuncSetAttribute)(CUfunction, CUfunction_attribute, int) = nullptr;
  CUresult (*cuFuncSetCacheConfig)(CUfunction, CUfunc_cache) = nullptr;
  CUresult (*cuLaunchKernelEx)(const CUlaunchConfig*, CUfunction, void**, void**) = nullptr;
  CUresult (*cuMemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream) = nullptr;
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void*, size_t, CUstream) = nullptr;
  CUresult (*cuMemcpyDtoHAsync)(void*, CUdeviceptr, size_t, CUstream) = nullptr;
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream) = nullptr;
  CUresult (*cuPointerGetAttribute)(void*, CUpointer_attribute, CUdeviceptr) = nullptr;

  /// "CUDA_ERROR_INVALID_IMAGE"
  std::string name_of(CUresult code) const;
  /// Throws driver_error "<call> failed: <name>" unless `code` is CUDA_SUCCESS.
  void check(CUresult code, const char* call) const;
};

/// The process's driver entry points; throws std::runtime_error naming one the driver lacks.
const driver_api& driver();

} // namespace judge_harness
