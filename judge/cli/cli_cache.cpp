// judge cache [prune]: the runner cache's size, and removing the entries unused longest.
//
// An entry is one child of <cache dir>/<problem>/: a runner's folder, a problem's compiled common
// objects, a CPU reference library, or a staging folder a killed judge left behind. Its modification time
// is its last use (build_runner marks an entry it finds, mark_cache_entry_used). An entry used within
// the last hour is never removed, whatever the options: a judge running now may be about to start it.
#include "judge/cli/cli.hpp"

#include "judge/compile/compile.hpp"
#include "judge/base/usage_error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>

namespace judge::cli {

namespace {
namespace fs = std::filesystem;

struct cache_flags {
  int keep_days = -1;   ///< -1: not given
  std::string max_size; ///< "" : not given
};

constexpr auto in_use_guard = std::chrono::hours(1);
constexpr int default_keep_days = 30;

struct cache_entry {
  fs::path path;
  std::string problem;
  fs::file_time_type last_used;
  std::uintmax_t bytes = 0;
};

std::uintmax_t bytes_of(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(path, ec)))
    return fs::is_regular_file(path, ec) ? fs::file_size(path, ec) : 0;
  std::uintmax_t total = 0;
  for (auto it = fs::recursive_directory_iterator(path, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file(ec) && !it->is_symlink(ec)) total += it->file_size(ec);
  return total;
}

/// Every entry, least recently used first.
std::vector<cache_entry> list_entries(const fs::path& cache_dir) {
  std::vector<cache_entry> entries;
  std::error_code ec;
  if (!fs::is_directory(cache_dir, ec)) return entries;
  for (const auto& problem : fs::directory_iterator(cache_dir, ec)) {
    if (!problem.is_directory(ec)) continue;
    for (const auto& entry : fs::directory_iterator(problem.path(), ec)) {
      std::error_code time_error;
      const auto when = fs::last_write_time(entry.path(), time_error);
      if (time_error) continue; // removed meanwhile by another judge
      entries.push_back({entry.path(), problem.path().filename().string(), when, bytes_of(entry.path())});
    }
  }
  std::sort(entries.begin(), entries.end(),
            [](const cache_entry& a, const cache_entry& b) { return a.last_used < b.last_used; });
  return entries;
}

std::uintmax_t total_bytes(const std::vector<cache_entry>& entries) {
  std::uintmax_t total = 0;
  for (const auto& e : entries) total += e.bytes;
  return total;
}

std::string size_text(std::uintmax_t bytes) {
  if (bytes < 1024 * 1024) return fmt::format("{:.1f} KiB", static_cast<double>(bytes) / 1024);
  if (bytes < 1024ull * 1024 * 1024) return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1024 * 1024));
  return fmt::format("{:.2f} GiB", static_cast<double>(bytes) / (1024.0 * 1024 * 1024));
}

/// "500M", "2G", "1.5GiB", "800000": bytes, K/M/G being powers of 1024.
std::uintmax_t parse_size(const std::string& text) {
  std::size_t used = 0;
  double value = -1;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
  }
  std::string unit = text.substr(std::min(used, text.size()));
  for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const std::vector<std::pair<std::string, double>> units = {
      {"", 1},         {"B", 1},         {"K", 1024},    {"KB", 1024},    {"KIB", 1024},   {"M", 1 << 20},
      {"MB", 1 << 20}, {"MIB", 1 << 20}, {"G", 1 << 30}, {"GB", 1 << 30}, {"GIB", 1 << 30}};
  auto it = std::find_if(units.begin(), units.end(), [&](const auto& u) { return u.first == unit; });
  if (used == 0 || !(value >= 0) || it == units.end())
    throw usage_error("--max-size " + text + " is not a size: give bytes, or a number with K, M or G (e.g. 500M)");
  return static_cast<std::uintmax_t>(value * it->second);
}

std::string entries_text(std::size_t n) { return fmt::format("{} entr{}", n, n == 1 ? "y" : "ies"); }

int show(const context&) {
  const fs::path dir = default_toolchain().cache_dir;
  const auto entries = list_entries(dir);
  std::map<std::string, std::pair<int, std::uintmax_t>> by_problem;
  for (const auto& e : entries) {
    by_problem[e.problem].first += 1;
    by_problem[e.problem].second += e.bytes;
  }
  std::printf("runner cache %s: %s, %s\n", dir.string().c_str(), entries_text(entries.size()).c_str(),
              size_text(total_bytes(entries)).c_str());
  for (const auto& [problem, figures] : by_problem)
    std::printf("  %-20s %12s  %s\n", problem.c_str(), entries_text(static_cast<std::size_t>(figures.first)).c_str(),
                size_text(figures.second).c_str());
  std::printf("`judge cache prune` removes entries unused for %d days (--keep-days N, --max-size SIZE)\n",
              default_keep_days);
  return 0;
}

int prune(const context&, const cache_flags& f) {
  const int keep_days = f.keep_days >= 0 ? f.keep_days : (f.max_size.empty() ? default_keep_days : -1);
  const std::uintmax_t max_bytes = f.max_size.empty() ? UINTMAX_MAX : parse_size(f.max_size);

  const fs::path dir = default_toolchain().cache_dir;
  auto entries = list_entries(dir);
  const auto now = fs::file_time_type::clock::now();
  std::uintmax_t total = total_bytes(entries), removed_bytes = 0;
  int removed = 0, kept_in_use = 0;
  for (const cache_entry& e : entries) { // least recently used first
    const auto unused = now - e.last_used;
    const bool too_old = keep_days >= 0 && unused > std::chrono::hours(24) * keep_days;
    const bool too_big = total > max_bytes;
    if (!too_old && !too_big) continue;
    if (unused < in_use_guard) {
      ++kept_in_use;
      continue;
    }
    // Renamed away first, so a judge looking the entry up finds it whole or not at all.
    std::error_code ec;
    const fs::path doomed = e.path.parent_path() / (".tmp-pruned-" + e.path.filename().string());
    fs::rename(e.path, doomed, ec);
    if (ec) continue; // another judge or prune took it meanwhile
    fs::remove_all(doomed, ec);
    total -= e.bytes;
    removed_bytes += e.bytes;
    ++removed;
  }
  std::printf("removed %s (%s); %s left in %s\n", entries_text(static_cast<std::size_t>(removed)).c_str(),
              size_text(removed_bytes).c_str(), size_text(total).c_str(), dir.string().c_str());
  if (kept_in_use)
    std::printf("kept %s used in the last hour (a judge may be using %s)\n",
                entries_text(static_cast<std::size_t>(kept_in_use)).c_str(), kept_in_use == 1 ? "it" : "them");
  return 0;
}
} // namespace

void add_cache(CLI::App& app, context& ctx) {
  auto flags = std::make_shared<cache_flags>();
  auto prune_command = std::make_shared<CLI::App*>(nullptr);
  // CLI11 runs `cache`'s callback after `prune`'s: then the status prune set stands.
  CLI::App* cache = add_command(app, ctx, "cache", "show the runner cache's size; `cache prune` trims it",
                                [&ctx, prune_command] { return (*prune_command)->parsed() ? ctx.status : show(ctx); });
  CLI::App* sub = add_command(*cache, ctx, "prune",
                              "remove runner-cache entries unused for --keep-days N (default 30) or, with "
                              "--max-size, the least recently used until the cache fits; never one used in the last "
                              "hour",
                              [&ctx, flags] { return prune(ctx, *flags); });
  *prune_command = sub;
  sub->add_option("--keep-days", flags->keep_days, "remove entries unused for more than N days")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--max-size", flags->max_size,
                  "remove the least recently used entries until the cache fits SIZE "
                  "(bytes, or with K, M, G: powers of 1024)");
}

} // namespace judge::cli
