// Which GPUs the harness library's kernels are machine code for, read from the library itself: every
// runner is linked with it, and on a GPU it holds no machine code for, the driver compiles the kernels'
// PTX in every runner process at their first use (runners keep no JIT cache), inside checked calls.
// `judge device` says which it is for the GPU it finds.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace judge {

/// One entry of a fat binary: machine code (an ELF cubin) or PTX, for a target such as 90 (sm_90).
struct gpu_code {
  bool machine_code = false; ///< false: PTX, which the driver compiles for the GPU at load
  int target = 0;            ///< 75, 90, 100
  bool operator==(const gpu_code& other) const { return machine_code == other.machine_code && target == other.target; }
};

/// The entries of the fat binaries in `blob` (an object's `.nv_fatbin` section: one or more fat
/// binaries back to back). Throws std::runtime_error when it is not one.
std::vector<gpu_code> fat_binary_entries(std::string_view blob);

/// The entries of each object of the static library `library` (an `ar` archive of ELF objects) that
/// holds kernels, in archive order. Throws std::runtime_error naming the file when it cannot be read or
/// is not such an archive.
std::vector<std::vector<gpu_code>> library_gpu_code_by_object(const std::filesystem::path& library);

/// library_gpu_code_by_object's entries, each once.
std::vector<gpu_code> library_gpu_code(const std::filesystem::path& library);

/// Whether machine code for `target` runs as built on a GPU of compute capability `cc` ("8.6"): the
/// same major version, and a minor no higher than the GPU's.
bool runs_as_built(int target, const std::string& cc);

} // namespace judge
