#include "judge/problem/solution_files.hpp"

#include "judge/problem/verdicts.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <map>
#include <optional>

namespace judge {

namespace fs = std::filesystem;

namespace {
/// Folders below a student's folder walked at all (deeper .cu files are reported as too deep).
constexpr int max_walk_depth = 16;

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

void check_name(const fs::path& p) {
  if (!valid_utf8(p.filename().string()))
    throw usage_error("the file name of '" + p.parent_path().string() + "/...' is not valid UTF-8; rename it");
}

bool is_cu(const fs::path& p) { return p.extension() == ".cu"; }

/// `.CU`, `.Cu`, `.cU`: CUDA source by intent, which nvcc does not take as such.
bool is_other_case_cu(const fs::path& p) {
  const std::string ext = p.extension().string();
  return ext.size() == 3 && ext != ".cu" && std::tolower(static_cast<unsigned char>(ext[1])) == 'c' &&
         std::tolower(static_cast<unsigned char>(ext[2])) == 'u';
}

bool hidden(const fs::path& p) {
  const std::string name = p.filename().string();
  return !name.empty() && name.front() == '.';
}

/// The entries of `dir` in name order; empty (and `ec` set) when it cannot be read.
std::vector<fs::path> sorted_entries(const fs::path& dir, std::error_code& ec) {
  std::vector<fs::path> entries;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) entries.push_back(it->path());
  std::sort(entries.begin(), entries.end());
  return entries;
}

/// What `p` is once symbolic links are followed; a link that leads nowhere is a skip_reason.
struct examined {
  fs::file_status status;
  bool link = false;
  std::optional<skip_reason> problem;
};

examined examine(const fs::path& p) {
  examined e;
  std::error_code ec;
  e.link = fs::is_symlink(fs::symlink_status(p, ec));
  e.status = fs::status(p, ec);
  if (ec.value() == ELOOP)
    e.problem = skip_reason::link_loop;
  else if (e.link && (ec == std::errc::no_such_file_or_directory || !fs::exists(e.status)))
    e.problem = skip_reason::broken_link;
  else if (ec)
    e.problem = skip_reason::unreadable;
  return e;
}

void walk_student_folder(const fs::path& dir, int depth, std::vector<fs::path>& units,
                         std::vector<skipped_entry>* skipped) {
  auto skip = [&](const fs::path& p, skip_reason why) {
    if (skipped) skipped->push_back({p, why});
  };
  std::error_code ec;
  const std::vector<fs::path> entries = sorted_entries(dir, ec);
  if (ec) return skip(dir, skip_reason::unreadable);
  for (const fs::path& entry : entries) {
    if (hidden(entry)) continue;
    const examined e = examine(entry);
    if (e.problem) {
      skip(entry, *e.problem);
    } else if (fs::is_directory(e.status)) {
      // A link to a folder could lead anywhere, back up included: the solution is what lies below it.
      if (e.link)
        skip(entry, skip_reason::folder_link);
      else if (depth < max_walk_depth)
        walk_student_folder(entry, depth + 1, units, skipped);
    } else if (is_cu(entry) && fs::is_regular_file(e.status)) {
      if (depth <= max_student_depth)
        units.push_back(entry);
      else
        skip(entry, skip_reason::too_deep);
    } else if (is_other_case_cu(entry)) {
      skip(entry, skip_reason::upper_case_cu);
    }
  }
}

/// How reports name a folder solution: its path with one trailing '/'.
std::string folder_display(fs::path p) {
  if (!p.has_filename()) p = p.parent_path();
  return p.string() + "/";
}

std::string folder_name(fs::path p) {
  if (!p.has_filename()) p = p.parent_path();
  return p.filename().string();
}
} // namespace

std::vector<fs::path> solution_units(const fs::path& source, std::vector<skipped_entry>* skipped) {
  std::error_code ec;
  if (!fs::is_directory(source, ec)) return {source};
  std::vector<fs::path> units;
  walk_student_folder(source, 0, units, skipped);
  return units;
}

bool is_student_folder(const fs::path& folder) {
  fs::path full = fs::absolute(folder).lexically_normal();
  if (!full.has_filename()) full = full.parent_path();
  const fs::path parent = full.parent_path();
  const std::string grand = parent.parent_path().filename().string();
  if (grand == "solutions") return !parent.filename().empty();
  if (grand == "submissions") return verdict_from_folder(parent.filename().string()).has_value();
  return false;
}

solution_set solutions_in(const fs::path& folder) {
  solution_set found;
  std::error_code ec;
  const std::vector<fs::path> entries = sorted_entries(folder, ec);
  if (ec) throw usage_error("cannot read the folder " + folder.string() + ": " + ec.message());
  for (const fs::path& entry : entries) {
    if (hidden(entry)) continue;
    check_name(entry);
    const examined e = examine(entry);
    if (e.problem) {
      found.skipped.push_back({entry, *e.problem});
    } else if (fs::is_regular_file(e.status)) {
      if (is_cu(entry))
        found.solutions.push_back({entry, entry.string(), entry.stem().string()});
      else
        found.skipped.push_back({entry, is_other_case_cu(entry) ? skip_reason::upper_case_cu : skip_reason::not_cu});
    } else if (fs::is_directory(e.status)) {
      std::vector<skipped_entry> inside;
      if (!solution_units(entry, &inside).empty())
        found.solutions.push_back({entry, folder_display(entry), entry.filename().string()});
      else if (inside.empty())
        found.skipped.push_back({entry, skip_reason::no_cu_files});
      found.skipped.insert(found.skipped.end(), inside.begin(), inside.end());
    } else {
      found.skipped.push_back({entry, skip_reason::not_a_file});
    }
  }
  return found;
}

solution_set collect_solutions(const std::vector<fs::path>& paths) {
  solution_set found;
  for (const fs::path& path : paths) {
    const examined e = examine(path);
    if (e.problem == skip_reason::link_loop)
      throw usage_error(path.string() + " is a symbolic link that leads back to itself (a link loop)");
    if (e.problem == skip_reason::broken_link) {
      std::error_code ec;
      throw usage_error(path.string() + " is a broken symbolic link: it points to " +
                        fs::read_symlink(path, ec).string() + ", which does not exist");
    }
    if (e.problem || !fs::exists(e.status)) throw usage_error("no such file or folder: " + path.string());
    check_name(path);
    if (fs::is_regular_file(e.status)) {
      if (is_other_case_cu(path))
        throw usage_error(path.string() + ": rename it to " + path.stem().string() +
                          ".cu; nvcc takes only the lower-case .cu as CUDA source");
      if (!is_cu(path)) throw usage_error(path.string() + " is not a .cu file; solutions are CUDA source files");
      found.solutions.push_back({path, path.string(), path.stem().string()});
      continue;
    }
    if (!fs::is_directory(e.status)) throw usage_error(path.string() + " is neither a file nor a folder");
    if (is_student_folder(path)) {
      if (solution_units(path, &found.skipped).empty()) throw usage_error("no .cu files in " + path.string());
      found.solutions.push_back({path, folder_display(path), folder_name(path)});
      continue;
    }
    solution_set inside = solutions_in(path);
    if (inside.solutions.empty() && inside.skipped.empty()) throw usage_error("no .cu files in " + path.string());
    found.solutions.insert(found.solutions.end(), inside.solutions.begin(), inside.solutions.end());
    found.skipped.insert(found.skipped.end(), inside.skipped.begin(), inside.skipped.end());
  }
  std::map<std::string, std::string> seen;
  for (const auto& s : found.solutions) {
    auto [it, inserted] = seen.emplace(s.name, s.display);
    if (!inserted)
      throw usage_error("two solutions are both named '" + s.name + "': " + it->second + " and " + s.display +
                        "; rename one (results and the leaderboard are kept by name)");
  }
  return found;
}

solution_set without_shipped_example(solution_set set) {
  const auto shipped = [](const solution_entry& e) { return e.source.filename() == shipped_example_name; };
  const auto example = std::find_if(set.solutions.begin(), set.solutions.end(), shipped);
  if (example == set.solutions.end() || set.solutions.size() == 1) return set;
  set.skipped.push_back({example->source, skip_reason::shipped_example});
  set.solutions.erase(example);
  return set;
}

solution_set shown_from(solution_set set, const fs::path& folder) {
  const fs::path base = folder.lexically_normal();
  for (solution_entry& s : set.solutions) {
    const fs::path shown(s.display);
    if (!shown.is_absolute()) continue;
    const fs::path relative = shown.lexically_normal().lexically_relative(base);
    if (relative.empty() || *relative.begin() == "..") continue;
    // A folder solution keeps its trailing '/'.
    s.display = relative.string() + (s.display.back() == '/' && relative.string().back() != '/' ? "/" : "");
  }
  return set;
}

} // namespace judge
