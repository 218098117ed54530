#include "solution_files.hpp"

#include <algorithm>
#include <map>

namespace judge {

namespace fs = std::filesystem;

namespace {
/// Whether `text` is valid UTF-8.
bool valid_utf8(const std::string& text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t extra;
    if (c < 0x80)
      extra = 0;
    else if ((c >> 5) == 0x6)
      extra = 1;
    else if ((c >> 4) == 0xE)
      extra = 2;
    else if ((c >> 3) == 0x1E)
      extra = 3;
    else
      return false;
    if (i + extra >= text.size() && extra > 0) return false; // truncated sequence
    for (std::size_t k = 1; k <= extra; ++k)
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return false;
    i += extra + 1;
  }
  return true;
}

bool is_cu(const fs::path& p) { return p.extension() == ".cu"; }

std::vector<fs::path> sorted_entries(const fs::path& dir) {
  std::vector<fs::path> entries;
  for (const auto& e : fs::directory_iterator(dir)) entries.push_back(e.path());
  std::sort(entries.begin(), entries.end());
  return entries;
}

void check_name(const fs::path& p) {
  if (!valid_utf8(p.filename().string()))
    throw usage_error("the file name of '" + p.parent_path().string() + "/...' is not valid UTF-8; rename it");
}
} // namespace

std::vector<fs::path> solution_units(const fs::path& source) {
  if (!fs::is_directory(source)) return {source};
  std::vector<fs::path> units;
  for (const fs::path& entry : sorted_entries(source))
    if (fs::is_regular_file(entry) && is_cu(entry)) units.push_back(entry);
  return units;
}

std::vector<solution_entry> solutions_in(const fs::path& folder) {
  std::vector<solution_entry> found;
  for (const fs::path& entry : sorted_entries(folder)) {
    check_name(entry);
    if (fs::is_regular_file(entry) && is_cu(entry)) {
      found.push_back({entry, entry.string(), entry.stem().string()});
    } else if (fs::is_directory(entry) && !solution_units(entry).empty()) {
      found.push_back({entry, entry.string() + "/", entry.filename().string()});
    }
  }
  return found;
}

std::vector<solution_entry> collect_solutions(const std::vector<fs::path>& paths) {
  std::vector<solution_entry> found;
  for (const fs::path& path : paths) {
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (ec || !fs::exists(status)) throw usage_error("no such file or folder: " + path.string());
    check_name(path);
    if (fs::is_regular_file(status)) {
      if (!is_cu(path)) throw usage_error(path.string() + " is not a .cu file; solutions are CUDA source files");
      found.push_back({path, path.string(), path.stem().string()});
      continue;
    }
    if (!fs::is_directory(status)) throw usage_error(path.string() + " is neither a file nor a folder");
    const std::vector<solution_entry> inside = solutions_in(path);
    if (inside.empty()) throw usage_error("no .cu files in " + path.string());
    found.insert(found.end(), inside.begin(), inside.end());
  }
  std::map<std::string, std::string> seen;
  for (const auto& s : found) {
    auto [it, inserted] = seen.emplace(s.name, s.display);
    if (!inserted)
      throw usage_error("two solutions are both named '" + s.name + "': " + it->second + " and " + s.display +
                        "; rename one (results and the leaderboard are kept by name)");
  }
  return found;
}

} // namespace judge
