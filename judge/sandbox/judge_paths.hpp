// The judge's own folders, which no sandboxed child may read: where they lie inside a folder the
// sandbox binds for the system (an install under /usr/local, a problems root under /usr/share), the
// private root masks them (process_options::masked_paths).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace judge {

/// The install prefix, or in a prefix others share (/usr, /usr/local, /opt) the judge's own folders of
/// it; the problems root; the runner cache ($JUDGE_CACHE_DIR or the layout's); $JUDGE_ROOT; the
/// secret's folder; the judge's folders under $XDG_CONFIG_HOME and $XDG_CACHE_HOME; $HOME; and `extra`
/// (a --root, the store's folder). Absolute, lexically normal, each once; those that do not exist are
/// kept (the private root skips them).
std::vector<std::filesystem::path> judge_own_paths(const std::vector<std::filesystem::path>& extra = {});

/// One folder of the judge's as a message may name it, and what a learner reads instead.
struct path_rewrite {
  std::filesystem::path folder; ///< absolute
  std::string below;            ///< stands for the folder where a path continues below it ("<judge>" + "/x")
  std::string alone;            ///< stands for the folder named alone
};

/// `text` with every spelling of each rewrite's folder replaced: as given and with its links resolved,
/// each '/' written as any run of slashes or with "./" between, with or without a trailing slash, inside
/// a longer path or alone (a name continuing the last part, "/cache2" for "/cache", is another folder).
/// The longest folder that matches at a place wins, so that a folder inside another keeps its own rule;
/// what was replaced is not looked at again.
std::string rewrite_paths(const std::string& text, const std::vector<path_rewrite>& rewrites);

/// The rewrites of `judge_own_paths(extra)`: the runner cache to "<runner cache>", every other folder
/// to "<judge>". For every message a learner reads that a child of the judge wrote.
std::vector<path_rewrite> judge_path_rewrites(const std::vector<std::filesystem::path>& extra = {});

/// Whether `prefix` is one others install into too, where only the judge's own folders are its own.
bool is_shared_prefix(const std::filesystem::path& prefix);

} // namespace judge
