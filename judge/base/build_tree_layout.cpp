// The build tree's layout, linked only into the programs of the build tree (bin/judge there, the tests):
// the source tree's problems, the build's harness library, probe and runner cache. CMake passes these
// paths to this file alone (judge/CMakeLists.txt).
#include "judge/base/install_layout.hpp"

namespace judge {

std::optional<install_layout> build_tree_layout() {
  install_layout layout;
  layout.data_dir = JUDGE_SOURCE_DIR;
  layout.reference_header_dir = std::filesystem::path(JUDGE_SOURCE_DIR) / "common";
  layout.harness_library = JUDGE_HARNESS_LIBRARY;
  layout.seccomp_library = JUDGE_SECCOMP_LIBRARY;
  layout.gpu_probe = JUDGE_GPU_PROBE;
  layout.runner_cache = std::filesystem::path(JUDGE_BUILD_DIR) / "runner-cache";
  return layout;
}

} // namespace judge
