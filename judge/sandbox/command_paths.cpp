#include "judge/sandbox/command_paths.hpp"

#include <algorithm>

namespace judge {

namespace fs = std::filesystem;

namespace {

/// Options whose value may follow the letters without a space: "-I/usr/include", "-L/opt/lib".
const char* const glued_options[] = {"-I", "-L", "-isystem", "-iquote", "-idirafter", "-o"};

bool is_source(const fs::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".cu" || ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".c";
}

} // namespace

std::vector<fs::path> paths_named_by(const std::vector<std::string>& args) {
  std::vector<fs::path> paths;
  auto add = [&](const fs::path& path) {
    if (std::find(paths.begin(), paths.end(), path) == paths.end()) paths.push_back(path);
  };
  for (const std::string& arg : args) {
    std::string text = arg;
    if (text.empty()) continue;
    if (text.front() == '-')
      for (const char* option : glued_options) {
        const std::string o = option;
        if (text.size() > o.size() && text.compare(0, o.size(), o) == 0 && text[o.size()] == '/') {
          text = text.substr(o.size());
          break;
        }
      }
    if (text.front() != '/') continue;
    const fs::path path = fs::path(text).lexically_normal();
    std::error_code ec;
    if (!fs::exists(path, ec)) continue;
    add(path);
    if (is_source(path) && fs::is_regular_file(path, ec)) add(path.parent_path());
  }
  return paths;
}

} // namespace judge
