#include "catch.hpp"
#include "temp_folder.hpp"

#include "judge/sandbox/judge_paths.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using judge::path_rewrite;
using judge::rewrite_paths;

namespace {
const std::vector<path_rewrite> rules = {
    {"/srv/judge/runner-cache", "<runner cache>", "<runner cache>"},
    {"/srv/judge/runner-cache/matmul/.staging-1", "/srv/judge/runner-cache/matmul/.staging-1", "."},
    {"/srv/judge", "<judge>", "<judge>"},
};
} // namespace

TEST_CASE("every spelling of a judge's folder in a message is rewritten, the longest folder first", "[sandbox]") {
  const auto [text, expected] = GENERATE(table<std::string, std::string>({
      {"/srv/judge/runner-cache/matmul/.staging-1/src/a.cu:3: error",
       "/srv/judge/runner-cache/matmul/.staging-1/src/a.cu:3: error"},
      {"\"//srv//judge/./runner-cache/matmul//.staging-1/src/a.cu\"",
       "\"/srv/judge/runner-cache/matmul/.staging-1/src/a.cu\""},
      {"in /srv/judge/runner-cache/matmul/.staging-1: denied", "in .: denied"},
      {"in /srv/judge/runner-cache/matmul/.staging-1/: denied", "in .: denied"},
      {"/srv/judge/runner-cache/matmul/runner-ab/runner", "<runner cache>/matmul/runner-ab/runner"},
      {"cannot open /srv/judge/problems/matmul/cases.yaml", "cannot open <judge>/problems/matmul/cases.yaml"},
      {"'/srv/judge'", "'<judge>'"},
      {"/srv/judge2/x and /srv/judgement", "/srv/judge2/x and /srv/judgement"},
      {"x/srv/judge/y", "x/srv/judge/y"},
      {"a /srv/judge/runner-cache/ b", "a <runner cache> b"},
      {"no path here", "no path here"},
  }));
  CAPTURE(text);
  CHECK(rewrite_paths(text, rules) == expected);
}

TEST_CASE("a judge's folder reached through a link is rewritten by the path the link leads to as well", "[sandbox]") {
  judge_test::temp_folder dir;
  fs::create_directories(dir.path() / "real" / "cache");
  fs::create_directory_symlink(dir.path() / "real", dir.path() / "link");
  const std::vector<path_rewrite> by_link = {{dir.path() / "link" / "cache", "<runner cache>", "<runner cache>"}};
  const std::string real = fs::canonical(dir.path() / "real" / "cache").string();
  CHECK(rewrite_paths(real + "/x.cu", by_link) == "<runner cache>/x.cu");
  CHECK(rewrite_paths((dir.path() / "link" / "cache").string() + "//x.cu", by_link) == "<runner cache>/x.cu");
}

TEST_CASE("the judge's own folders hold its cache, root, secret folder and home, never a shared prefix whole",
          "[sandbox]") {
  ::setenv("JUDGE_CACHE_DIR", "/srv/gpu-judge/runner-cache/", 1);
  ::setenv("JUDGE_ROOT", "/usr/local/share/course", 1);
  const auto paths = judge::judge_own_paths({"/srv/gpu-judge/results"});
  ::unsetenv("JUDGE_CACHE_DIR");
  ::unsetenv("JUDGE_ROOT");
  auto has = [&](const fs::path& p) { return std::find(paths.begin(), paths.end(), p) != paths.end(); };
  CHECK(has("/srv/gpu-judge/runner-cache/"));
  CHECK(has("/usr/local/share/course"));
  CHECK(has("/srv/gpu-judge/results"));
  if (const char* home = std::getenv("HOME")) CHECK(has(fs::path(home).lexically_normal()));
  for (const char* shared : {"/", "/usr", "/usr/local", "/opt"}) {
    CHECK(judge::is_shared_prefix(shared));
    CHECK_FALSE(has(shared));
  }
  CHECK_FALSE(judge::is_shared_prefix("/opt/gpu-judge"));
  CHECK_FALSE(judge::is_shared_prefix("/usr/local/gpu-judge"));
}
