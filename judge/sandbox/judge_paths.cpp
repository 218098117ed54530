#include "judge/sandbox/judge_paths.hpp"

#include "judge/base/environment.hpp"
#include "judge/base/install_layout.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <exception>

namespace judge {
namespace fs = std::filesystem;
namespace {

/// A folder's parts ("/a/b" is {"a", "b"}); empty for "/" and for a relative path.
std::vector<std::string> parts_of(const fs::path& folder) {
  std::vector<std::string> parts;
  if (!folder.is_absolute()) return parts;
  for (const fs::path& part : folder.lexically_normal().relative_path())
    if (!part.empty() && part != ".") parts.push_back(part.string());
  return parts;
}

/// Skips separators from `at`: at least one '/' (unless `optional`), then any more slashes and "./".
/// Returns where the next part starts, or npos when there is no separator.
std::size_t skip_separator(const std::string& text, std::size_t at, bool optional) {
  if (at >= text.size() || text[at] != '/') return optional ? at : std::string::npos;
  std::size_t i = at;
  for (;;) {
    if (i < text.size() && text[i] == '/')
      ++i;
    else if (i + 1 < text.size() && text[i] == '.' && text[i + 1] == '/')
      i += 2;
    else
      return i;
  }
}

bool continues_a_name(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '+' || c == '~';
}

/// Where a spelling of the folder `parts` that starts at `at` ends (before any trailing separator), or
/// npos when none starts there.
std::size_t match_at(const std::string& text, std::size_t at, const std::vector<std::string>& parts) {
  std::size_t i = at;
  for (const std::string& part : parts) {
    i = skip_separator(text, i, false);
    if (i == std::string::npos || text.compare(i, part.size(), part) != 0) return std::string::npos;
    i += part.size();
  }
  if (i < text.size() && continues_a_name(text[i])) return std::string::npos;
  return i;
}

} // namespace

std::string rewrite_paths(const std::string& text, const std::vector<path_rewrite>& rewrites) {
  struct spelling {
    std::vector<std::string> parts;
    const path_rewrite* rule;
  };
  std::vector<spelling> spellings;
  for (const path_rewrite& r : rewrites) {
    std::error_code ec;
    const fs::path real = fs::weakly_canonical(r.folder, ec);
    for (const fs::path& form : {r.folder, ec ? r.folder : real}) {
      std::vector<std::string> parts = parts_of(form);
      if (!parts.empty()) spellings.push_back({std::move(parts), &r});
    }
  }
  // The longest first: a folder inside another has more parts.
  std::stable_sort(spellings.begin(), spellings.end(),
                   [](const spelling& a, const spelling& b) { return a.parts.size() > b.parts.size(); });
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '/' && (i == 0 || !continues_a_name(text[i - 1]))) {
      const spelling* found = nullptr;
      std::size_t end = std::string::npos;
      for (const spelling& s : spellings) {
        end = match_at(text, i, s.parts);
        if (end != std::string::npos) {
          found = &s;
          break;
        }
      }
      if (found) {
        const std::size_t next = skip_separator(text, end, true);
        const bool below = next > end && next < text.size() && continues_a_name(text[next]);
        out += below ? found->rule->below + (found->rule->below.empty() ? "" : "/") : found->rule->alone;
        i = next; // a trailing separator goes with the folder
        continue;
      }
    }
    out += text[i++];
  }
  return out;
}

std::vector<path_rewrite> judge_path_rewrites(const std::vector<fs::path>& extra) {
  std::vector<path_rewrite> rewrites;
  std::vector<fs::path> caches;
  try {
    caches.push_back(judge_layout().runner_cache);
  } catch (const std::exception&) {
  }
  if (const auto cache = env_value(judge_env::cache_dir)) caches.emplace_back(*cache);
  for (const fs::path& folder : judge_own_paths(extra)) {
    const bool cache = std::find(caches.begin(), caches.end(), folder) != caches.end();
    rewrites.push_back({folder, cache ? "<runner cache>" : "<judge>", cache ? "<runner cache>" : "<judge>"});
  }
  return rewrites;
}

bool is_shared_prefix(const fs::path& prefix) {
  const fs::path p = prefix.lexically_normal();
  return p == "/" || p == "/usr" || p == "/usr/local" || p == "/opt";
}

std::vector<fs::path> judge_own_paths(const std::vector<fs::path>& extra) {
  std::vector<fs::path> paths;
  auto add = [&](const fs::path& path) {
    if (path.empty() || !path.is_absolute()) return;
    const fs::path normal = path.lexically_normal();
    if (std::find(paths.begin(), paths.end(), normal) == paths.end()) paths.push_back(normal);
  };
  try {
    const install_layout& layout = judge_layout();
    if (layout.installed) {
      // <prefix>/share/gpu-judge
      const fs::path prefix = layout.data_dir.lexically_normal().parent_path().parent_path();
      if (is_shared_prefix(prefix)) {
        add(layout.data_dir);
        add(layout.harness_library.parent_path());
        add(layout.seccomp_library.parent_path());
        add(layout.gpu_probe.parent_path());
        add(layout.reference_header_dir);
      } else {
        add(prefix);
      }
    } else {
      add(layout.data_dir);
    }
    add(layout.runner_cache);
  } catch (const std::exception&) {
    // An installed judge moved away from its files says so where it needs them; here there is nothing to mask.
  }
  if (const auto cache = env_value(judge_env::cache_dir)) add(*cache);
  if (const auto root = env_value(judge_env::root)) add(*root);
  if (const auto secret = env_value(judge_env::secret_file)) add(fs::path(*secret).parent_path());
  if (const char* config = non_empty_env("XDG_CONFIG_HOME")) add(fs::path(config) / "gpu-judge");
  if (const char* cache = non_empty_env("XDG_CACHE_HOME")) add(fs::path(cache) / "gpu-judge");
  if (const char* home = non_empty_env("HOME")) add(home);
  for (const fs::path& path : extra) add(path);
  return paths;
}

} // namespace judge
