// The runner cache's entries: <cache_dir>/<problem>/<content hash>/ holds a solution's (or a baseline's)
// shared object, <cache_dir>/<problem>/runner-<hash>/ the problem's runner. An entry is made in a staging
// folder beside its final name and published by one rename, so that parallel judges and an interrupted
// build never leave half an entry; an entry of the same content published first is kept.
#pragma once

#include "judge/compile/compile.hpp"
#include "judge/base/file_output.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace judge {

/// Bump when the way runners are built changes, so that old cache entries are not reused.
inline constexpr const char* cache_format = "gpu-judge runner v4 (solution.so, runtime calls exported for recording)";

/// A fresh folder next to where a cache entry will live (file_output.hpp); removed unless published.
class staging_dir {
public:
  explicit staging_dir(const std::filesystem::path& final_dir);
  const std::filesystem::path& path() const { return m_staged.path(); }
  /// Renames the folder to the final name in one step. If another judge published the same content
  /// first, its entry is kept and this one is dropped.
  void publish();

private:
  /// A judge run as root compiles as the sandbox's unprivileged user, whose files these are: they become
  /// the judge's, and no one else's to write, before the entry is published, so that no later sandboxed
  /// child (the same user) could change a cached runner or solution. Links are changed, never followed.
  void reclaim() const;

  staged_path m_staged;
};

/// Writes `text` to `file` (a file of a staging folder); throws std::runtime_error naming it when it cannot.
void write_text(const std::filesystem::path& file, const std::string& text);

/// The key of a solution's (or baseline's) entry: the cache format, the kind, every file of the solution
/// (`hashed`; a folder's by their paths inside `source`, a single file's without its name), the
/// declaration of solve() every unit sees, the problem's runner's key and the libraries it is linked
/// with; a solution's also the format of its entry. 16 hex digits.
std::string solution_entry_key(const std::filesystem::path& source, const std::vector<std::filesystem::path>& hashed,
                               runner_kind kind, const std::string& declaration, const std::string& runner_key,
                               const std::vector<std::string>& link_libraries);

/// A solution's entry: solution.so and, for a solution (not a baseline), ptxas's resource lines of its
/// units (ptxas_info.txt), whether its code uses the tensor cores (tensor_cores.txt: "yes", "no" or
/// "unknown"; kept so that a cached build runs no cuobjdump) and its device code, one fatbin per unit as
/// nvcc's device compilation wrote it (device/<unit>.fatbin): what the replaying runner loads, never the
/// shared object's own copy, which host code (inline assembly, .incbin) could have filled with anybody's
/// machine code.
namespace cached_solution {
inline constexpr const char* object_file = "solution.so";
inline constexpr const char* ptxas_info_file = "ptxas_info.txt";
inline constexpr const char* tensor_cores_file = "tensor_cores.txt";
inline constexpr const char* device_code_folder = "device";
} // namespace cached_solution

/// The fatbins of the entry (or staging folder) `entry`, in name order.
std::vector<std::filesystem::path> device_code_files(const std::filesystem::path& entry);

/// Looks up the published entry `entry`: false when it holds no solution.so (nothing is changed then).
/// Otherwise it is marked used (mark_cache_entry_used) and `result` says it is cached and, for a
/// solution, gets the entry's kernels, tensor-core answer and device code (what is missing from an entry
/// published by hand stays unknown).
bool read_solution_entry(const std::filesystem::path& entry, runner_kind kind, build_result& result);

/// Publishes the staged entry `staging`, in which solution.so (and, for a solution, device/) is built:
/// for a solution, ptxas's resource lines and the tensor-core answer are written beside it; everything
/// else in the folder (sources, objects, nvcc's kept files) is removed first.
void publish_solution_entry(staging_dir& staging, runner_kind kind, const std::string& ptxas_info,
                            const std::optional<bool>& uses_tensor_cores);

} // namespace judge
