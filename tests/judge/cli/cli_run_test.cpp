// `judge run` end to end, without a GPU: which entries of a class folder are graded and which are
// skipped (and why), options checked before any work. Each test runs the real `judge` executable.
#include "catch.hpp"
#include "judge/base/file_input.hpp"
#include "judge_command.hpp"
#include "judge/sandbox/sandbox_probe.hpp"
#include "text_match.hpp"

#include <unistd.h>

#include <filesystem>
#include <string>

namespace fs = std::filesystem;

using judge_test::contains;
using judge_test::scratch_root;

namespace {
judge_test::command_result judge_cli(const std::string& args) { return judge_test::run_judge(args); }

const char* const broken_solution =
    "extern \"C\" void solve(const float* A, const float* B, float* C, int M, int N, int K) { oops }\n";
} // namespace

TEST_CASE("a report path that cannot be written is a usage error before any grading", "[cli]") {
  scratch_root root;
  root.write("solutions/matmul/alice.cu", broken_solution);
  const std::string run = root.root_arg() + " matmul --no-db ";
  SECTION("a folder given as --json") {
    const auto r = judge_cli(run + "--json " + root.dir.string());
    CAPTURE(r.output);
    CHECK(r.status == 2);
    CHECK(contains(r.output, "--json " + root.dir.string() + ": is a folder"));
    CHECK_FALSE(contains(r.output, "CE")); // nothing was compiled
  }
  SECTION("a folder given as --db") {
    const auto r = judge_cli(root.root_arg() + " matmul --db " + root.dir.string());
    CHECK(r.status == 2);
    CHECK(contains(r.output, "--db " + root.dir.string() + ": is a folder"));
  }
  SECTION("a --junit file in a folder that does not exist: refused, the folder is not created") {
    const fs::path missing = root.dir / "no" / "such" / "x.xml";
    const auto r = judge_cli(run + "--junit " + missing.string());
    CHECK(r.status == 2);
    CHECK(contains(r.output, "--junit"));
    CHECK(contains(r.output, "does not exist"));
    CHECK_FALSE(fs::exists(root.dir / "no"));
  }
  SECTION("a --json file in a folder that cannot be written") {
    fs::create_directories(root.dir / "locked");
    fs::permissions(root.dir / "locked", fs::perms::owner_read | fs::perms::owner_exec);
    const auto r = judge_cli(run + "--json " + (root.dir / "locked" / "x.json").string());
    fs::permissions(root.dir / "locked", fs::perms::owner_all);
    if (::geteuid() == 0) return; // root writes anywhere
    CHECK(r.status == 2);
    CHECK(contains(r.output, "not writable"));
  }
}

TEST_CASE("a leaderboard page path that cannot be written is a usage error before the board is built", "[cli]") {
  scratch_root root;
  for (const char* option : {"--html", "--csv", "--json"}) {
    CAPTURE(option);
    const auto folder = judge_cli(root.root_arg() + " leaderboard matmul " + option + " " + root.dir.string());
    CHECK(folder.status == 2);
    CHECK(contains(folder.output, std::string(option) + " " + root.dir.string() + ": is a folder"));
    const fs::path missing = root.dir / "no" / "board.out";
    const auto r = judge_cli(root.root_arg() + " leaderboard matmul " + option + " " + missing.string());
    CHECK(r.status == 2);
    CHECK(contains(r.output, "does not exist"));
    CHECK_FALSE(fs::exists(root.dir / "no"));
  }
}

TEST_CASE("a leaderboard CSV with nothing ranked keeps its header row and says why on stderr", "[cli]") {
  scratch_root root;
  const fs::path csv = root.dir / "board.csv", db = root.dir / "empty.db";
  REQUIRE(judge_cli("users list --db " + db.string()).status == 0); // an empty store
  const auto r = judge_cli(root.root_arg() + " leaderboard matmul --csv " + csv.string() + " --db " + db.string());
  CAPTURE(r.output);
  CHECK(r.status == 0);
  CHECK(contains(r.output, "no accepted, timed results for matmul yet: " + csv.string() + " holds only the header row"));
  CHECK(judge::read_file(csv).rfind("device,cc,rank,author", 0) == 0);
}

TEST_CASE("time options must be positive", "[cli]") {
  scratch_root root;
  root.write("solutions/matmul/alice.cu", broken_solution);
  auto [option, value] = GENERATE(table<std::string, std::string>(
      {{"--budget", "-1"}, {"--time-limit", "0"}, {"--compile-time-limit", "-2.5"}, {"--budget", "0"}}));
  const auto r = judge_cli(root.root_arg() + " matmul --no-db " + option + " " + value);
  CAPTURE(option, value, r.output);
  CHECK(r.status == 2);
  CHECK(contains(r.output, option));
}

TEST_CASE("a class folder where nothing can be graded lists every entry with its reason", "[cli]") {
  scratch_root root;
  const fs::path n = root.dir / "n";
  root.write("n/dave/s.CU", broken_solution);
  root.write("n/notes.txt", "");
  fs::create_symlink("loop", n / "loop");
  fs::create_symlink("missing.cu", n / "gone.cu");
  const auto r = judge_cli(root.root_arg() + " matmul --no-db " + n.string());
  CAPTURE(r.output);
  CHECK(r.status == 2); // a usage error, never an internal error (exit 4)
  CHECK(contains(r.output, (n / "dave" / "s.CU").string() + ": rename it to .cu"));
  CHECK(contains(r.output, (n / "notes.txt").string() + ": not a .cu file"));
  CHECK(contains(r.output, (n / "loop").string() + ": a symbolic link loop"));
  CHECK(contains(r.output, (n / "gone.cu").string() + ": a broken symbolic link"));
}

TEST_CASE("a link loop named on the command line is a usage error naming it", "[cli]") {
  scratch_root root;
  fs::create_symlink("loop", root.dir / "loop");
  const auto r = judge_cli(root.root_arg() + " matmul --no-db " + (root.dir / "loop").string());
  CHECK(r.status == 2);
  CHECK(contains(r.output, (root.dir / "loop").string()));
  CHECK(contains(r.output, "link loop"));
}

TEST_CASE("a class folder grades students one folder deeper, lists what it skips, and files by folder", "[cli][nvcc]") {
  scratch_root root;
  const fs::path n = root.dir / "n";
  root.write("n/alice/src/a.cu", broken_solution);
  root.write("n/bob/b.cu", std::string("// author: alice\n") + broken_solution);
  root.write("n/dave/s.CU", broken_solution);
  const fs::path json = root.dir / "run.json";
  const auto r = judge_cli(root.root_arg() + " matmul --no-db --json " + json.string() + " " + n.string());
  CAPTURE(r.output);
  CHECK((r.status == 1 || r.status == 3));
  CHECK(contains(r.output, "2 solution(s)"));
  CHECK(contains(r.output, "n/alice/"));
  CHECK(contains(r.output, "skipped 1 entry"));
  CHECK(contains(r.output, (n / "dave" / "s.CU").string() + ": rename it to .cu"));
  std::error_code ignored;
  const std::string report = judge::read_file(json, ignored).value_or("");
  CHECK(contains(report, "\"skipped\""));
  CHECK(contains(report, "s.CU"));
  // bob's folder names him, whatever his file's author line says; alice is alice once.
  CHECK(contains(report, "\"author\": \"bob\""));
  const std::string alice = "\"author\": \"alice\"";
  CHECK(report.find(alice) != std::string::npos);
  CHECK(report.find(alice) == report.rfind(alice));
}

TEST_CASE("contest grading is refused where a layer of the sandbox is missing, naming it and why", "[cli]") {
  scratch_root root;
  root.write("solutions/matmul/alice.cu", broken_solution);
  const judge::sandbox_layers here = judge::probe_sandbox_layers();
  SECTION("with --no-sandbox") {
    const auto r = judge_cli(root.root_arg() + " matmul --no-db --contest --no-sandbox");
    CHECK(r.status == 2);
    CHECK(contains(r.output, "--contest needs the sandbox"));
    CHECK_FALSE(contains(r.output, "CE")); // nothing was compiled
  }
  SECTION("on this machine") {
    if (here.all_on()) {
      WARN("every sandbox layer is in force here: the refusal is not checked");
      return;
    }
    const auto r = judge_cli(root.root_arg() + " matmul --no-db --contest");
    CAPTURE(r.output);
    CHECK(r.status == 2);
    CHECK(contains(r.output, "--contest grades only with every layer of the sandbox in force"));
    CHECK(contains(r.output, here.missing.front().reason));
    CHECK_FALSE(contains(r.output, "CE"));
  }
}
