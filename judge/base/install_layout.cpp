#include "judge/base/install_layout.hpp"

#include "judge/base/environment.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <system_error>

#include <pwd.h>
#include <unistd.h>

namespace judge {
namespace fs = std::filesystem;
namespace {

// The install's folders relative to its prefix (GNUInstallDirs, as configured); an absolute one is used
// as it is.
fs::path under(const fs::path& prefix, const fs::path& dir) { return dir.is_absolute() ? dir : prefix / dir; }

/// The XDG cache folder's gpu-judge/runner-cache, or nullopt without an absolute XDG_CACHE_HOME or a home.
std::optional<fs::path> user_runner_cache() {
  // The XDG rules ignore a relative XDG_CACHE_HOME.
  if (const char* cache = non_empty_env("XDG_CACHE_HOME"); cache && cache[0] == '/')
    return fs::path(cache) / "gpu-judge" / "runner-cache";
  const char* home = non_empty_env("HOME");
  if (!home) {
    const passwd* user = ::getpwuid(::getuid());
    home = user && user->pw_dir && *user->pw_dir ? user->pw_dir : nullptr;
  }
  if (!home) return std::nullopt;
  return fs::path(home) / ".cache" / "gpu-judge" / "runner-cache";
}

} // namespace

std::optional<install_layout> installed_layout(const fs::path& executable) {
  fs::path prefix = executable.parent_path();
  for (const auto& part : fs::path(JUDGE_INSTALL_BINDIR)) {
    (void)part;
    prefix = prefix.parent_path();
  }
  const fs::path data = under(prefix, JUDGE_INSTALL_DATADIR) / "gpu-judge";
  std::error_code error;
  if (!fs::is_directory(data, error)) return std::nullopt;
  install_layout layout;
  layout.installed = true;
  layout.data_dir = data;
  layout.reference_header_dir = under(prefix, JUDGE_INSTALL_INCLUDEDIR) / "gpu-judge";
  layout.harness_library = under(prefix, JUDGE_INSTALL_LIBDIR) / "gpu-judge" / "libjudge_harness.a";
  layout.seccomp_library = under(prefix, JUDGE_INSTALL_LIBDIR) / "gpu-judge" / "libseccomp.so";
  layout.gpu_probe = under(prefix, JUDGE_INSTALL_LIBEXECDIR) / "gpu-judge" / "gpu_probe";
  layout.runner_cache = user_runner_cache().value_or(data / "runner-cache");
  return layout;
}

const install_layout& judge_layout() {
  static const install_layout layout = [] {
    std::error_code error;
    const fs::path self = fs::read_symlink("/proc/self/exe", error);
    if (!error)
      if (auto installed = installed_layout(self)) return *installed;
    if (auto build_tree = build_tree_layout()) return *build_tree;
    const fs::path data = self.parent_path().parent_path() / JUDGE_INSTALL_DATADIR / "gpu-judge";
    throw std::runtime_error(
        "the judge's files are not where it looks for them: no " + data.string() + " beside " + self.string() +
        " (cmake --install puts them there; run the judge from <prefix>/" JUDGE_INSTALL_BINDIR ")");
  }();
  return layout;
}

} // namespace judge
