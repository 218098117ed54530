// Checking CUDA runtime calls: JUDGE_CUDA_CHECK throws, JUDGE_CUDA_CHECK_NOTHROW (for destructors) logs.
// Host-only and header-only; usable from .cpp and .cu files alike, and by gpu_probe without the library.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdio>
#include <stdexcept>
#include <string>

namespace judge_harness {

/// "cudaErrorIllegalAddress: an illegal memory access was encountered"
inline std::string describe(cudaError_t code) {
  return std::string(cudaGetErrorName(code)) + ": " + cudaGetErrorString(code);
}

/// A CUDA runtime call that failed. `code()` lets callers tell a corrupted context from a recoverable
/// error; `what()` names the call and where it was made, for instructors.
class cuda_error : public std::runtime_error {
public:
  cuda_error(cudaError_t code, const std::string& call, const char* file, int line)
      : std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " + describe(code)),
        m_code(code) {}

  cudaError_t code() const noexcept { return m_code; }

private:
  cudaError_t m_code;
};

namespace detail {

[[noreturn]] inline void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line) {
  throw cuda_error(code, call, file, line);
}

inline void log_cuda_error(cudaError_t code, const char* call, const char* file, int line) noexcept {
  // stderr is the learner's channel too, so the line says whose it is.
  std::fprintf(stderr, "[judge] %s:%d: %s failed: %s: %s\n", file, line, call, cudaGetErrorName(code),
               cudaGetErrorString(code));
}

} // namespace detail

} // namespace judge_harness

/// Evaluates a CUDA runtime call once; throws judge_harness::cuda_error unless it returned cudaSuccess.
#define JUDGE_CUDA_CHECK(call)                                                                                         \
  do {                                                                                                                 \
    const cudaError_t judge_cuda_status_ = (call);                                                                     \
    if (judge_cuda_status_ != cudaSuccess)                                                                             \
      ::judge_harness::detail::throw_cuda_error(judge_cuda_status_, #call, __FILE__, __LINE__);                        \
  } while (false)

/// The same check for destructors and cleanup paths: reports the failure on stderr and carries on.
#define JUDGE_CUDA_CHECK_NOTHROW(call)                                                                                 \
  do {                                                                                                                 \
    const cudaError_t judge_cuda_status_ = (call);                                                                     \
    if (judge_cuda_status_ != cudaSuccess)                                                                             \
      ::judge_harness::detail::log_cuda_error(judge_cuda_status_, #call, __FILE__, __LINE__);                          \
  } while (false)
