// Where a CUDA command-line tool is (Nsight Compute's ncu, compute-sanitizer, cuobjdump): one set of
// rules for every tool the judge runs beside nvcc.
#pragma once

#include <filesystem>
#include <string>

namespace judge {

struct found_tool {
  std::filesystem::path executable; ///< empty when there is none
  std::string missing;              ///< then: where the judge looked, and how to name one
};

/// Finds the tool `name`, in this order:
///  1. the file the environment variable `variable` names (JUDGE_NCU, JUDGE_COMPUTE_SANITIZER), and no
///     other: a tool named on purpose that is not there is said missing, never silently replaced;
///  2. the CUDA toolkit of `nvcc` (the one solutions are compiled with, so the tool understands their
///     code), then the toolkit $CUDA_HOME names: its bin/ and its <name>/ folder (the toolkit keeps
///     compute-sanitizer in compute-sanitizer/);
///  3. PATH.
/// `variable` may be empty (no override); `nvcc` may be empty or a bare name (no toolkit from it).
found_tool find_cuda_tool(const std::string& name, const std::string& variable, const std::filesystem::path& nvcc);

} // namespace judge
