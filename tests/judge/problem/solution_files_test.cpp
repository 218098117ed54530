#include "catch.hpp"
#include "results_fixtures.hpp"
#include "judge/problem/solution_files.hpp"
#include "text_match.hpp"

#include <algorithm>
#include <fstream>
#include <string>

namespace fs = std::filesystem;
using judge::collect_solutions;
using judge::skip_reason;
using judge::solution_set;
using judge::solutions_in;
using judge_test::contains;
using judge_test::temp_folder;

namespace {
void touch(const fs::path& file) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << "// a solution\n";
}

std::vector<std::string> names(const solution_set& set) {
  std::vector<std::string> out;
  for (const auto& s : set.solutions) out.push_back(s.name);
  return out;
}

/// The reason `path` was skipped; nullopt when it was not.
std::optional<skip_reason> skipped(const solution_set& set, const fs::path& path) {
  for (const auto& s : set.skipped)
    if (s.path == path) return s.reason;
  return std::nullopt;
}
} // namespace

TEST_CASE("every entry of a class folder is graded or skipped with its reason", "[solution_files]") {
  temp_folder dir;
  const fs::path n = dir / "n";
  touch(n / "alice" / "src" / "a.cu");
  touch(n / "bob" / "b.cu");
  touch(n / "dave" / "s.CU");
  touch(n / "erin.Cu");
  touch(n / "notes.txt");
  touch(n / "frank" / "README.md");
  touch(n / ".DS_Store");
  const solution_set set = solutions_in(n);
  CHECK(names(set) == std::vector<std::string>{"alice", "bob"});
  CHECK(skipped(set, n / "dave" / "s.CU") == skip_reason::upper_case_cu);
  CHECK(skipped(set, n / "erin.Cu") == skip_reason::upper_case_cu);
  CHECK(skipped(set, n / "notes.txt") == skip_reason::not_cu);
  CHECK(skipped(set, n / "frank") == skip_reason::no_cu_files);
  CHECK_FALSE(skipped(set, n / ".DS_Store")); // hidden names are ignored, as documented
  CHECK(set.skipped.size() == 4);
}

TEST_CASE("a student's .cu files at any depth up to the limit are one solution, layout kept", "[solution_files]") {
  temp_folder dir;
  const fs::path alice = dir / "alice";
  touch(alice / "main.cu");
  touch(alice / "kernels" / "tile.cu");
  touch(alice / "kernels" / "tile.cuh");
  touch(alice / "a" / "b" / "c" / "ok.cu");
  touch(alice / "a" / "b" / "c" / "d" / "deep.cu");
  std::vector<judge::skipped_entry> left_out;
  const auto units = judge::solution_units(alice, &left_out);
  CHECK(units ==
        std::vector<fs::path>{alice / "a" / "b" / "c" / "ok.cu", alice / "kernels" / "tile.cu", alice / "main.cu"});
  REQUIRE(left_out.size() == 1);
  CHECK(left_out[0].path == alice / "a" / "b" / "c" / "d" / "deep.cu");
  CHECK(left_out[0].reason == skip_reason::too_deep);
}

TEST_CASE("symbolic link loops and broken links in a class folder are skipped, not fatal", "[solution_files]") {
  temp_folder dir;
  const fs::path n = dir / "n";
  touch(n / "bob.cu");
  fs::create_symlink("loop", n / "loop");
  fs::create_symlink("missing.cu", n / "gone.cu");
  touch(n / "carol" / "c.cu");
  fs::create_symlink("self", n / "carol" / "self");
  fs::create_symlink("..", n / "carol" / "up");
  const solution_set set = solutions_in(n);
  CHECK(names(set) == std::vector<std::string>{"bob", "carol"});
  CHECK(skipped(set, n / "loop") == skip_reason::link_loop);
  CHECK(skipped(set, n / "gone.cu") == skip_reason::broken_link);
  CHECK(skipped(set, n / "carol" / "self") == skip_reason::link_loop);
  CHECK(skipped(set, n / "carol" / "up") == skip_reason::folder_link);
}

TEST_CASE("a link loop or broken link named on the command line is a usage error naming it", "[solution_files]") {
  temp_folder dir;
  fs::create_symlink("loop", dir / "loop");
  fs::create_symlink("missing.cu", dir / "gone.cu");
  // The usage error's text, for checks that work with Catch2 2 and 3 alike.
  auto message_of = [](const fs::path& path) -> std::string {
    try {
      collect_solutions({path});
    } catch (const judge::usage_error& e) {
      return e.what();
    }
    return "(no usage error)";
  };
  const std::string loop = message_of(dir / "loop");
  CAPTURE(loop);
  CHECK(contains(loop, (dir / "loop").string()));
  CHECK(contains(loop, "link loop"));
  const std::string gone = message_of(dir / "gone.cu");
  CAPTURE(gone);
  CHECK(contains(gone, "broken symbolic link"));
  CHECK(contains(gone, "missing.cu"));
  touch(dir / "s.CU");
  CHECK(contains(message_of(dir / "s.CU"), "rename it to s.cu"));
}

TEST_CASE("a student's folder named directly is one solution, as when its class is graded", "[solution_files]") {
  temp_folder dir;
  const fs::path zoe = dir / "solutions" / "matmul" / "zoe";
  touch(zoe / "kern.cu");
  touch(zoe / "solve.cu");
  const solution_set whole = collect_solutions({dir / "solutions" / "matmul"});
  const solution_set named = collect_solutions({zoe});
  const solution_set slash = collect_solutions({zoe.string() + "/"});
  REQUIRE(named.solutions.size() == 1);
  CHECK(names(named) == names(whole));
  CHECK(named.solutions[0].display == whole.solutions[0].display);
  CHECK(slash.solutions[0].display == whole.solutions[0].display);
  CHECK(judge::is_student_folder(zoe));
  CHECK(judge::is_student_folder(dir / "problems" / "matmul" / "submissions" / "accepted" / "zoe"));
  CHECK_FALSE(judge::is_student_folder(dir / "problems" / "matmul" / "submissions" / "accepted"));
  CHECK_FALSE(judge::is_student_folder(dir / "solutions" / "matmul"));
}

TEST_CASE("any other folder named on the command line is a class folder", "[solution_files]") {
  temp_folder dir;
  touch(dir / "mine" / "a.cu");
  touch(dir / "mine" / "b.cu");
  CHECK(names(collect_solutions({dir / "mine"})) == std::vector<std::string>{"a", "b"});
}

TEST_CASE("the shipped example is left out beside a learner's own solutions and graded alone", "[solutions]") {
  judge_test::temp_folder dir;
  dir.write("solutions/matmul/example.cu", "// author: example\n");
  const auto folder = dir / "solutions/matmul";
  const auto alone = judge::without_shipped_example(judge::collect_solutions({folder}));
  REQUIRE(alone.solutions.size() == 1);
  CHECK(alone.skipped.empty());

  dir.write("solutions/matmul/alice.cu", "// alice\n");
  const auto beside = judge::without_shipped_example(judge::collect_solutions({folder}));
  REQUIRE(beside.solutions.size() == 1);
  CHECK(beside.solutions[0].name == "alice");
  REQUIRE(beside.skipped.size() == 1);
  CHECK(beside.skipped[0].path.filename() == "example.cu");
  CHECK(beside.skipped[0].reason == judge::skip_reason::shipped_example);
}

TEST_CASE("solutions inside the current folder are shown relative to it and others as given", "[solutions]") {
  solution_set set;
  set.solutions = {{"/home/a/judge/solutions/matmul/alice.cu", "/home/a/judge/solutions/matmul/alice.cu", "alice"},
                   {"/home/a/judge/class/bob", "/home/a/judge/class/bob/", "bob"},
                   {"/elsewhere/carol.cu", "/elsewhere/carol.cu", "carol"},
                   {"dave.cu", "dave.cu", "dave"}};
  const solution_set shown = judge::shown_from(set, "/home/a/judge");
  CHECK(shown.solutions[0].display == "solutions/matmul/alice.cu");
  CHECK(shown.solutions[1].display == "class/bob/");
  CHECK(shown.solutions[2].display == "/elsewhere/carol.cu");
  CHECK(shown.solutions[3].display == "dave.cu");
  CHECK(judge::shown_from(set, "/home/a/judge/solutions").solutions[1].display == "/home/a/judge/class/bob/");
}
