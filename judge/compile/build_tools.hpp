// The tools a build runs (nvcc, binutils' nm and readelf, cuobjdump), each in the process sandbox with the
// compile's limits and the build's deadline, and what a build asks of them.
#pragma once

#include "judge/compile/compile.hpp"
#include "judge/compile/solve_binding.hpp"

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace judge {

using build_clock = std::chrono::steady_clock;

/// [B] kept of each of a tool's streams; messages are trimmed anyway.
inline constexpr std::size_t compiler_output_cap = 1024 * 1024;

/// How one run of a tool ended.
struct tool_run {
  bool ok = false;
  bool timed_out = false;
  std::string output; ///< stdout + stderr of the tool
};

/// Whether the toolchain was told to stop (Ctrl-C, toolchain::stop).
bool stopped(const toolchain& tools);

/// Runs `program` with `args` in `work_dir` (its only writable folder, and its TMPDIR) until it ends or
/// `deadline` passes. Once the toolchain is stopped no tool starts: the run fails at once.
tool_run run_tool(const toolchain& tools, const std::string& program, std::vector<std::string> args,
                  const std::filesystem::path& work_dir, build_clock::time_point deadline);
tool_run run_nvcc(const toolchain& tools, std::vector<std::string> args, const std::filesystem::path& work_dir,
                  build_clock::time_point deadline);

/// Flags of every nvcc call that produces device code.
std::vector<std::string> code_flags(const toolchain& tools);

/// The symbols `object` defines (nm from binutils, which nvcc's host toolchain brings along); throws
/// when nm fails.
std::vector<defined_symbol> defined_symbols(const toolchain& tools, const std::filesystem::path& object,
                                            const std::filesystem::path& work_dir, build_clock::time_point deadline);

/// What object_inspection finds in `object` (a shared object); empty when it may be loaded. Throws when a
/// tool fails (the judge's fault, not the learner's).
std::vector<std::string> inspect_object(const toolchain& tools, const std::filesystem::path& object,
                                        const std::filesystem::path& work_dir, build_clock::time_point deadline);

/// Whether the shared object `object` exports a function `solve`; throws when nm fails.
bool exports_solve(const toolchain& tools, const std::filesystem::path& object, const std::filesystem::path& work_dir,
                   build_clock::time_point deadline);

/// Whether `solution` (a built solution.so) issues tensor-core instructions: cuobjdump, from nvcc's
/// toolkit (find_cuda_tool), disassembles its machine code, in a scratch folder of its own
/// (removed after) so that nothing it might write lands in the cache entry. nullopt when it cannot.
std::optional<bool> uses_tensor_cores(const toolchain& tools, const std::filesystem::path& solution,
                                      build_clock::time_point deadline);

} // namespace judge
