#include "judge/sandbox/tool_path.hpp"

#include "judge/base/environment.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <vector>

namespace judge {

namespace fs = std::filesystem;

namespace {

bool runnable(const fs::path& p) {
  std::error_code ec;
  return !p.empty() && fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

} // namespace

found_tool find_cuda_tool(const std::string& name, const std::string& variable, const fs::path& nvcc) {
  found_tool found;
  if (const char* named = variable.empty() ? nullptr : non_empty_env(variable.c_str())) {
    if (runnable(named))
      found.executable = named;
    else
      found.missing = variable + " names " + named + ", which is not an executable file";
    return found;
  }
  std::vector<fs::path> toolkits;
  if (nvcc.is_absolute()) toolkits.push_back(nvcc.parent_path().parent_path());
  if (const char* home = non_empty_env("CUDA_HOME")) toolkits.emplace_back(home);
  std::vector<fs::path> candidates;
  for (const fs::path& toolkit : toolkits) {
    candidates.push_back(toolkit / "bin" / name);
    candidates.push_back(toolkit / name / name);
  }
  if (const char* path = non_empty_env("PATH")) {
    std::istringstream folders(path);
    for (std::string folder; std::getline(folders, folder, ':');)
      if (!folder.empty()) candidates.push_back(fs::path(folder) / name);
  }
  for (const fs::path& c : candidates)
    if (runnable(c)) {
      found.executable = c;
      return found;
    }
  std::string looked;
  const std::size_t shown = std::min<std::size_t>(candidates.size(), 4);
  for (std::size_t i = 0; i < shown; ++i) looked += (i ? ", " : "") + candidates[i].string();
  if (candidates.size() > shown) looked += " and the rest of PATH";
  found.missing = "no " + name + (looked.empty() ? "" : " at " + looked) +
                  (variable.empty() ? "" : " (set " + variable + " to name it)");
  return found;
}

} // namespace judge
