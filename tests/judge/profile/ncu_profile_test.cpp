#include "catch.hpp"
#include "text_match.hpp"

#include "fake_runner/fake_runner.hpp"
#include "judge/profile/ncu_profile.hpp"
#include "common/wire_json.hpp"

#include <algorithm>
#include <fstream>
#include <string>

using judge_test::contains;
using judge_test::fake_runner;
using judge_test::temp_folder;

namespace {

/// A stand-in for ncu: `--import REPORT` prints the report (which it wrote as CSV); a profiling run runs
/// the command after --force-overwrite (the runner, as ncu starts it) and then does what `then` says.
std::filesystem::path fake_ncu(const temp_folder& dir, const std::string& then) {
  const std::filesystem::path script = dir.path() / "ncu";
  std::ofstream(script) << "#!/bin/sh\n"
                           "if [ \"$1\" = --import ]; then cat \"$2\"; exit 0; fi\n"
                           "report=\n"
                           "while [ $# -gt 0 ]; do\n"
                           "  case \"$1\" in\n"
                           "    --export) report=$2; shift 2 ;;\n"
                           "    --force-overwrite) shift; break ;;\n"
                           "    *) shift ;;\n"
                           "  esac\n"
                           "done\n"
                           "\"$@\"\n"
                        << then << "\n";
  // Runnable by the sandbox's user too (a judge run as root gives its children an unprivileged one).
  std::filesystem::permissions(script, std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
                                           std::filesystem::perms::group_exec | std::filesystem::perms::others_read |
                                           std::filesystem::perms::others_exec);
  return script;
}

const std::string writes_report = "printf '%s\\n' '\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"' "
                                  "'\"\",\"\",\"nsecond\"' '\"0\",\"vector_add(int)\",\"1,500\"' > \"$report\"";

/// One checked call of an 8-element vector addition, then "end".
std::vector<std::string> requests() {
  judge_wire::case_request c;
  c.name = "n_8";
  c.case_index = 0;
  c.sizes = {8};
  c.buffers = {{"A", judge_wire::buffer_role::input, 8, judge_data::distribution{}, std::nullopt},
               {"B", judge_wire::buffer_role::input, 8, judge_data::distribution{}, std::nullopt},
               {"C", judge_wire::buffer_role::output, 8, std::nullopt, std::nullopt}};
  c.checks.push_back({1000, judge_wire::poison_for_check(0), {"0.0.C.bin"}});
  return {judge_wire::encode(c), judge_wire::encode(judge_wire::end_request{})};
}

judge::ncu_request request_for(const temp_folder& dir, const std::string& then, const std::string& scenario = "ok") {
  judge::ncu_request r;
  r.ncu = fake_ncu(dir, then);
  r.runner = fake_runner(scenario);
  r.solution = dir.path() / "solution.so";
  r.requests = requests();
  // The fake runner's script execs the program the build made: visible in the sandbox's root too.
  r.read_only_paths = {std::filesystem::path(JUDGE_FAKE_RUNNER).parent_path()};
  r.metrics = {"gpu__time_duration.sum", "dram__bytes.sum"};
  r.report = dir.path() / "report.ncu-rep";
  static int runs = 0;
  r.scratch = dir.path() / ("scratch-" + std::to_string(++runs)); // the runner creates its outputs anew
  r.seconds = 20;
  return r;
}

} // namespace

TEST_CASE("ncu profiles only the learner's kernels, clocks as set and caches flushed", "[ncu_profile]") {
  judge::ncu_request r;
  r.ncu = "/opt/ncu";
  r.runner = "/cache/runner";
  r.solution = "/cache/solution.so";
  r.metrics = {"a.sum", "b.pct"};
  r.report = "/results/profiles/matmul/x-case.ncu-rep";
  r.scratch = "/tmp/s";
  const std::vector<std::string> args = judge::ncu_arguments(r);
  auto after = [&](const std::string& flag) {
    const auto at = std::find(args.begin(), args.end(), flag);
    return at == args.end() || at + 1 == args.end() ? std::string("(absent)") : *(at + 1);
  };
  CHECK(after("--kernel-name") == "regex:^(?!.*judge_)");
  CHECK(after("--kernel-name-base") == "demangled");
  CHECK(after("--clock-control") == "none");
  CHECK(after("--cache-control") == "all");
  CHECK(after("--metrics") == "a.sum,b.pct");
  // Written in the scratch folder, the only one the sandbox may write; the judge copies it to r.report.
  CHECK(after("--export") == "/tmp/s/profile.ncu-rep");
  CHECK(after("--launch-count") == "16");
  CHECK(after("--solution") == "/cache/solution.so");
  CHECK(after("--timing") == "events");
  CHECK(args.back() == "--profiler");
}

TEST_CASE("a profiled run hands back the report's raw page", "[ncu_profile]") {
  const temp_folder dir("ncu");
  const judge::ncu_result result = judge::run_ncu(request_for(dir, writes_report));
  CAPTURE(result.detail);
  REQUIRE(result.outcome == judge::ncu_outcome::ok);
  CHECK(contains(result.csv, "\"vector_add(int)\""));
  CHECK(std::filesystem::exists(dir.path() / "report.ncu-rep"));
}

TEST_CASE("a checked call that fails under ncu gives no figures", "[ncu_profile]") {
  const temp_folder dir("ncu");
  const judge::ncu_result result = judge::run_ncu(request_for(dir, writes_report, "cuda_error"));
  CHECK(result.outcome == judge::ncu_outcome::failed);
  CHECK(contains(result.detail, "the checked call ended with cuda_error under ncu"));
}

TEST_CASE("no permission to the counters, no kernel, and a hang are told apart", "[ncu_profile]") {
  const temp_folder dir("ncu");
  CHECK(
      judge::run_ncu(request_for(dir, "echo '==ERROR== ERR_NVGPUCTRPERM - The user does not have permission'; exit 1"))
          .outcome == judge::ncu_outcome::no_permission);
  CHECK(judge::run_ncu(request_for(dir, "echo '==WARNING== No kernels were profiled.'")).outcome ==
        judge::ncu_outcome::no_kernels);
  judge::ncu_request hang = request_for(dir, "sleep 30");
  hang.seconds = 1;
  const judge::ncu_result result = judge::run_ncu(hang);
  CHECK(result.outcome == judge::ncu_outcome::timed_out);
  CHECK(result.seconds < 10);
  const judge::ncu_result broken = judge::run_ncu(request_for(dir, "echo '==ERROR== something else'; exit 3"));
  CHECK(broken.outcome == judge::ncu_outcome::failed);
  CHECK(contains(broken.detail, "something else"));
}

TEST_CASE("ncu and the runner it starts are one child in the runner's sandbox, with ncu's folder and loopback",
          "[ncu_profile]") {
  const temp_folder dir("ncu");
  judge::ncu_request r = request_for(dir, writes_report);
  r.hidden_paths = {dir.path() / "secret"};
  r.read_only_paths = {"/opt/cuda-libs"};
  const judge::process_options p = judge::ncu_profile_process(r);
  REQUIRE(!p.argv.empty());
  CHECK(p.argv.front() == r.ncu.string());
  // The runner is started by ncu, inside the same child: its command line is ncu's last arguments.
  CHECK(std::find(p.argv.begin(), p.argv.end(), r.runner.string()) != p.argv.end());
  CHECK(p.argv.back() == "--profiler");
  CHECK(p.sandbox);
  CHECK(p.gpu_devices);
  CHECK(p.loopback);
  CHECK_FALSE(p.result_channel);
  CHECK(p.memory_bytes > 0);
  CHECK(p.max_pids > 0);
  CHECK(p.hidden_paths == r.hidden_paths);
  auto has = [](const std::vector<std::filesystem::path>& paths, const std::filesystem::path& path) {
    return std::find(paths.begin(), paths.end(), path) != paths.end();
  };
  CHECK(has(p.read_only_paths, dir.path()));           // ncu's own folder (the fake's)
  CHECK(has(p.read_only_paths, r.runner.parent_path())); // the runner's
  CHECK(has(p.read_only_paths, "/opt/cuda-libs"));
  CHECK(has(p.writable_paths, r.scratch));
  CHECK(has(p.writable_paths, r.scratch / "outputs"));
  CHECK_FALSE(has(p.writable_paths, r.report.parent_path())); // the report is copied out by the judge
  CHECK(p.env.at("TMPDIR") == (r.scratch / "tmp").string());
  CHECK(p.env.at("HOME") == (r.scratch / "home").string());

  const judge::process_options import = judge::ncu_import_process(r);
  CHECK(import.sandbox);
  CHECK_FALSE(import.gpu_devices);
  CHECK(import.argv.at(2) == judge::ncu_report_in_scratch(r).string());
  CHECK(has(import.read_only_paths, dir.path()));
}

TEST_CASE("a profiled run reports the sandbox it ran in", "[ncu_profile]") {
  const temp_folder dir("ncu");
  const judge::ncu_result result = judge::run_ncu(request_for(dir, writes_report));
  REQUIRE(result.outcome == judge::ncu_outcome::ok);
  if (!result.sandboxed) {
    WARN("no sandbox on this machine; not checked");
    return;
  }
  CHECK(result.layers.on(judge::sandbox_layer::private_root));
  CHECK(result.layers.on(judge::sandbox_layer::pid_namespace));
}
