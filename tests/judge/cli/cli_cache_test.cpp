// `judge cache` and `judge cache prune` on a made-up runner cache.
#include "catch.hpp"
#include "judge/compile/compile.hpp"
#include "judge_command.hpp"
#include "text_match.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;

using judge_test::contains;
using judge_test::run_judge;

namespace {
/// An entry of `bytes` bytes under cache/<problem>/<name>, last used `age` ago.
void make_entry(const fs::path& cache, const std::string& problem, const std::string& name, std::size_t bytes,
                std::chrono::hours age) {
  const fs::path dir = cache / problem / name;
  fs::create_directories(dir);
  std::ofstream(dir / "runner") << std::string(bytes, 'x');
  fs::last_write_time(dir, fs::file_time_type::clock::now() - age);
}
} // namespace

TEST_CASE("judge cache prune removes entries unused for longer than --keep-days, never recent ones", "[cli][cache]") {
  const judge_test::scratch_root root;
  const fs::path cache = root.dir / "runner-cache";
  make_entry(cache, "matmul", "old", 1000, std::chrono::hours(24 * 40));
  make_entry(cache, "matmul", "week", 1000, std::chrono::hours(24 * 7));
  make_entry(cache, "vector_add", "fresh", 1000, std::chrono::hours(0));

  const auto shown = run_judge("cache", root.environment());
  CAPTURE(shown.output);
  CHECK(shown.status == 0);
  CHECK(contains(shown.output, "3 entries"));

  auto r = run_judge("cache prune", root.environment()); // 30 days by default
  CAPTURE(r.output);
  CHECK(r.status == 0);
  CHECK_FALSE(fs::exists(cache / "matmul/old"));
  CHECK(fs::exists(cache / "matmul/week"));

  r = run_judge("cache prune --keep-days 0", root.environment());
  CHECK(r.status == 0);
  CHECK_FALSE(fs::exists(cache / "matmul/week"));
  CHECK(fs::exists(cache / "vector_add/fresh")); // used in the last hour: a judge may be running it
  CHECK(contains(r.output, "kept 1 entry used in the last hour"));
}

TEST_CASE("judge cache prune --max-size removes the least recently used first", "[cli][cache]") {
  const judge_test::scratch_root root;
  const fs::path cache = root.dir / "runner-cache";
  make_entry(cache, "matmul", "a", 3000, std::chrono::hours(5));
  make_entry(cache, "matmul", "b", 3000, std::chrono::hours(3));
  make_entry(cache, "matmul", "c", 3000, std::chrono::hours(2));
  const auto r = run_judge("cache prune --max-size 7K", root.environment());
  CAPTURE(r.output);
  CHECK(r.status == 0);
  CHECK_FALSE(fs::exists(cache / "matmul/a"));
  CHECK(fs::exists(cache / "matmul/b"));
  CHECK(fs::exists(cache / "matmul/c"));

  const auto bad = run_judge("cache prune --max-size lots", root.environment());
  CHECK(bad.status == 2);
  CHECK(contains(bad.output, "--max-size lots is not a size"));
}

TEST_CASE("a cache entry the judge reuses counts as just used", "[cli][cache]") {
  const judge_test::scratch_root root;
  const fs::path cache = root.dir / "runner-cache";
  make_entry(cache, "matmul", "reused", 1000, std::chrono::hours(24 * 40));
  judge::mark_cache_entry_used(cache / "matmul/reused");
  CHECK(fs::file_time_type::clock::now() - fs::last_write_time(cache / "matmul/reused") < std::chrono::minutes(1));
  const auto r = run_judge("cache prune --keep-days 1", root.environment());
  CHECK(r.status == 0);
  CHECK(fs::exists(cache / "matmul/reused"));
}
