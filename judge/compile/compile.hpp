// Building a solution: nvcc, the spec's declaration of solve() first, the learner's units alone in their
// own shared object (solution.so), inspected (object_inspection.hpp) and cached by content hash; the
// runner that loads it (harness, call shim, GPU reference) is built once per problem and toolchain.
// Compile errors become messages a learner can act on. A learner's own main() is refused by name (its
// symbol), ONLINE_JUDGE is defined for test drivers to hide behind.
#pragma once

#include "judge/compile/kernel_resources.hpp"
#include "judge/problem/problem.hpp"
#include "judge/sandbox/sandbox_limits.hpp"

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace judge {

struct toolchain {
  std::filesystem::path nvcc;             ///< nvcc to use
  std::vector<std::string> archs;         ///< compile targets, e.g. {"90a"} (compile_target_of())
  std::filesystem::path harness_library;  ///< libjudge_harness.a
  std::filesystem::path cache_dir;        ///< where runners are cached
  std::vector<std::string> extra_flags;   ///< added to every nvcc call
  std::filesystem::path cupti_library;    ///< libcupti.so, linked into every runner (its folder is the rpath)
  std::filesystem::path seccomp_library;  ///< libseccomp, linked into every runner (its system-call filter)
  std::filesystem::path cuda_library_dir; ///< the shared CUDA runtime and baseline libraries (-lcublas)
  /// nvcc runs in the process sandbox with these paths hidden (the judge secret): learner code is
  /// untrusted already at compile time (`#include "/path/of/the/secret"`).
  bool sandbox = true;
  std::vector<std::filesystem::path> hidden_paths;
  /// The judge's own folders (judge_own_paths()): masked in the compile's root where a system folder
  /// shows them, and named by no message a learner reads (rewrite_paths()).
  std::vector<std::filesystem::path> masked_paths;
  /// [B] everything one build may write to its staging folder (sandbox_limits.hpp; lower in tests).
  std::size_t scratch_bytes = sandbox_limits::compile::scratch_bytes;
  std::filesystem::path host_cxx; ///< host C++ compiler that builds problems' CPU references
  /// When set and true (Ctrl-C), no compiler is started any more: builds not begun are not begun, and a
  /// build in progress ends at its next step as internal_error "stopped" (never the learner's fault).
  const std::atomic<bool>* stop = nullptr;
};

/// The toolchain found from the build configuration and the environment (JUDGE_NVCC, JUDGE_ARCHS,
/// JUDGE_CACHE_DIR, JUDGE_HOST_CXX).
toolchain default_toolchain();

/// The target solutions are compiled for on a GPU of compute capability `cc` ("9.0", "90"): its digits,
/// or its architecture-specific target where LeetGPU compiles for one: sm_90a on Hopper (H100, H200),
/// sm_100a on the B200, whose instructions (wgmma, setmaxnreg, tcgen05) exist on those chips alone.
std::string compile_target_of(const std::string& cc);

enum class build_status { ok, compile_error, internal_error };

struct build_result {
  build_status status = build_status::internal_error;
  std::filesystem::path runner;   ///< the problem's runner executable, when ok
  std::filesystem::path solution; ///< the solution's shared object the runner loads (--solution), when ok
  std::string message;            ///< for learners: compiler messages (trimmed) or what went wrong
  std::string content_hash;       ///< hex, of everything that went into solution.so
  bool cached = false;            ///< nothing was compiled
  double seconds = 0;             ///< [s] compile time
  /// A solution's kernels as ptxas compiled them (-Xptxas -v), kept with the cache entry so that a
  /// cached build has them too; empty for a baseline and when the build failed.
  std::vector<kernel_resources> kernels;
  /// Whether the solution's machine code issues tensor-core instructions (tensor_core_use.hpp), read
  /// with cuobjdump on every build, cached or not; nullopt for a baseline, a failed build, or when
  /// cuobjdump is missing or fails (then the plausibility floor assumes the looser of the two).
  std::optional<bool> uses_tensor_cores;
  /// A solution's device code, one fatbin per unit as its device compilation made it (nvcc --keep),
  /// in the cache entry's device/ folder: what the replaying runner times (docs/security.md). Empty for
  /// a baseline and a failed build.
  std::vector<std::filesystem::path> device_code;
};

enum class runner_kind { solution, baseline };

/// Builds (or finds in the cache) the shared object for `source` (a .cu file, or a folder holding .cu
/// files, whose first .cu in name order is the solution and the rest are compiled along), and the
/// problem's runner that loads it. Throws std::runtime_error ("no such file: path") when `source` does
/// not exist; everything else is a build_result. A solution's object that imports what solutions may
/// not use (object_inspection.hpp) is a compile error; a baseline's is not inspected. The cache holds
/// <cache_dir>/<problem>/<content hash>/solution.so (and, for a solution, ptxas_info.txt, ptxas's resource
/// lines of its units, and tensor_cores.txt, whether its code uses the tensor cores) and
/// <cache_dir>/<problem>/runner-<hash>/runner, each published by one rename, so parallel judges and an interrupted
/// build never leave half an entry. The build's steps are solution_build's (solution_build.hpp).
build_result build_runner(const problem_spec& spec, const std::filesystem::path& source, runner_kind kind,
                          const toolchain& tools);

/// Why the problem's own runner (its GPU reference and the judge's call shim, which every build links)
/// does not build, with the compiler's words; "" when it builds (or is in the cache already).
std::string problem_runner_error(const problem_spec& spec, const toolchain& tools);

/// Marks the cache entry `entry` (a folder or file under cache_dir/<problem>/) as used now, by its
/// modification time: `judge cache prune` removes the entries unused longest and never one used in the
/// last hour. Best effort: a read-only cache is still usable.
void mark_cache_entry_used(const std::filesystem::path& entry);

/// The header placed before each learner unit (`-include`) and offered to them as "solve.h", alone in
/// its folder on their include path: the spec's declaration of solve() (solve_binding.hpp says how a
/// definition that differs only in pointer constness is accepted).
std::string solve_declaration_header(const problem_spec& spec);
/// The C++ that adapts the harness's generic call (solve_abi.h) to this signature: it casts the solve()
/// found in the solution's shared object to the spec's type and calls it.
std::string solve_call_shim(const problem_spec& spec);

/// Rewrites nvcc's output into a learner-facing message: names banned libraries, explains a
/// declaration that does not match the expected signature.
std::string explain_compile_error(const problem_spec& spec, const std::string& compiler_output);

} // namespace judge
