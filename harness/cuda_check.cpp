#include "cuda_check.hpp"

#include <cstdio>

namespace judge_harness::detail {

void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line) {
  throw cuda_error(code, call, file, line);
}

void log_cuda_error(cudaError_t code, const char* call, const char* file, int line) noexcept {
  // stderr is the learner's channel too, so prefix the line: whoever reads the captured output must
  // be able to tell the runner's words from the learner's.
  std::fprintf(stderr, "[runner] %s:%d: %s failed: %s: %s\n", file, line, call, cudaGetErrorName(code),
               cudaGetErrorString(code));
}

} // namespace judge_harness::detail
