// The main of the harness's GPU tests: without a CUDA device every test says why and exits 77, which
// CTest reports as skipped. Listing the tests (CTest's discovery, at build time) needs no device.
#if JUDGE_CATCH_MAJOR >= 3
#include <catch2/catch_session.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif

#include "common/no_device.hpp"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace {

bool only_lists(int argc, char* argv[]) {
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], "--list", 6) == 0 || std::strcmp(argv[i], "--help") == 0 ||
        std::strcmp(argv[i], "-h") == 0)
      return true;
  return false;
}

} // namespace

int main(int argc, char* argv[]) {
  if (!only_lists(argc, argv)) {
    int devices = 0;
    const cudaError_t status = cudaGetDeviceCount(&devices);
    if (status != cudaSuccess || devices == 0) {
      // Worded as the judge words it (common/no_device.hpp).
      const bool driver_loaded = judge_device::nvidia_driver_loaded();
      const std::string why = status != cudaSuccess || !driver_loaded
                                  ? judge_device::no_device_reason(cudaGetErrorString(status), driver_loaded)
                                  : "the CUDA runtime found none";
      std::printf("SKIPPED: no CUDA device: %s -- the harness's GPU tests run on a GPU machine: ctest --test-dir "
                  "build -L gpu\n",
                  why.c_str());
      return 77;
    }
  }
  return Catch::Session().run(argc, argv);
}
