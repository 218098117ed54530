// Where the judge's own files are: under the prefix `cmake --install` put it in, found from the running
// executable's path, or (for programs run from the build tree) in the build and source trees. The
// installed judge is linked without the build tree's paths (without_build_tree.cpp), so nothing in it
// points back at the folders it was built in; programs of the build tree link build_tree_layout.cpp.
#pragma once

#include <filesystem>
#include <optional>

namespace judge {

struct install_layout {
  bool installed = false;                     ///< found under an install prefix (else the build tree's)
  std::filesystem::path data_dir;             ///< problems/, testcases/, templates/: the default --root
  std::filesystem::path reference_header_dir; ///< holds cpu_reference.h, which CPU references include
  std::filesystem::path harness_library;      ///< libjudge_harness.a, linked into every runner
  std::filesystem::path seccomp_library;      ///< the libseccomp.so runners link with (system-call filter)
  std::filesystem::path gpu_probe;            ///< the GPU probe the judge runs (run/device_probe.hpp)
  std::filesystem::path runner_cache;         ///< the runner cache when JUDGE_CACHE_DIR is not set
};

/// The layout of an installed judge whose executable is `executable` (<prefix>/bin/judge), or nullopt
/// when `executable` does not sit in such a prefix (no <prefix>/share/gpu-judge beside its folder). The
/// installed judge's runner cache is $XDG_CACHE_HOME/gpu-judge/runner-cache, else
/// ~/.cache/gpu-judge/runner-cache, else <prefix>/share/gpu-judge/runner-cache.
std::optional<install_layout> installed_layout(const std::filesystem::path& executable);

/// The build tree's layout, for programs run from it; nullopt in the installed judge. Defined by
/// build_tree_layout.cpp or without_build_tree.cpp, whichever the program links.
std::optional<install_layout> build_tree_layout();

/// This process's layout: installed_layout() of /proc/self/exe, else build_tree_layout(). Throws
/// std::runtime_error naming the folder it looked for when neither applies (an installed judge moved
/// away from its files).
const install_layout& judge_layout();

} // namespace judge
