#include "judge/cli/cli.hpp"

#include "judge/compile/compile.hpp"
#include "judge/grading/grading_run.hpp"
#include "judge/problem/problem.hpp"
#include "judge/sandbox/process.hpp"
#include "judge/report/progress_terminal.hpp"
#include "judge/store/results_db.hpp"
#include "judge/sandbox/sandbox_probe.hpp"
#include "judge/report/sandbox_text.hpp"
#include "judge/base/usage_error.hpp"

#include <fmt/format.h>

#include <cstdio>

#include <unistd.h>

namespace judge::cli {

/// A contest's leaderboard is worth what its weakest defence is: --contest grades only with every layer
/// of the sandbox in force, and says which is missing here otherwise.
void require_full_sandbox(bool no_sandbox) {
  if (no_sandbox) throw usage_error("--contest needs the sandbox: drop --no-sandbox");
  const sandbox_layers layers = probe_sandbox_layers();
  if (!layers.all_on())
    throw usage_error("--contest grades only with every layer of the sandbox in force; here it would run without " +
                      missing_layers_text(layers) + ". Grade without --contest, or on a machine that allows them " +
                      "(user namespaces, and cgroup v2 with the memory and pids controllers delegated to the judge)");
}

int guarded(const std::function<int()>& body) {
  try {
    return body();
  } catch (const spec_error& e) {
    std::fprintf(stderr, "judge: %s\n", e.what());
    return usage_or_spec_error;
  } catch (const usage_error& e) {
    std::fprintf(stderr, "judge: %s\n", e.what());
    return usage_or_spec_error;
  } catch (const store_error& e) {
    std::fprintf(stderr, "judge: %s\n", e.what());
    return usage_or_spec_error;
  } catch (const std::exception& e) {
    kill_all_children();
    std::fprintf(stderr, "judge: internal error: %s\n", e.what());
    return internal_failure;
  }
}

CLI::App* add_command(CLI::App& app, context& ctx, const std::string& name, const std::string& description,
                      std::function<int()> body) {
  CLI::App* sub = app.add_subcommand(name, description);
  sub->callback([&ctx, body = std::move(body)] { ctx.status = guarded(body); });
  return sub;
}

run_request grading_request(const context& ctx, const std::string& problem) {
  run_request request;
  request.problems_root = ctx.where.problems();
  request.testcases_root = ctx.where.testcases();
  request.problem = problem;
  request.store = ctx.where.store(""); // hidden from learner code (run's --db names another)
  request.progress = terminal_progress(stderr);
  request.grading.sanitizer.on_failure = true; // a failure is explained where compute-sanitizer is installed
  // The GPU's answers of the last ten minutes, kept beside the runner cache: a verdict does not start CUDA
  // twice more to learn what the run before learned (device_memo_file.hpp).
  static device_memo kept_devices(std::chrono::minutes(10), probe_device,
                                  default_toolchain().cache_dir / "device-probe.json");
  request.devices = &kept_devices;
  load_problem(request.problems_root / problem);
  return request;
}

void check_output_path(const std::string& option, const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  if (path.empty()) return;
  auto refuse = [&](const std::string& why) {
    throw usage_error(fmt::format("{} {}: {}", option, path.string(), why));
  };
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (fs::is_directory(status)) refuse("is a folder; name a file in it");
  const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
  if (!fs::is_directory(folder, ec))
    refuse(fmt::format("the folder {} does not exist; create it first", folder.string()));
  if (fs::exists(status)) {
    if (::access(path.c_str(), W_OK) != 0) refuse("the file is not writable");
  } else if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    refuse(fmt::format("the folder {} is not writable", folder.string()));
  }
}

void add_store_option(CLI::App& sub, std::string& db_option) {
  sub.add_option("--db", db_option, "results database (default: results/judge.db)");
}

} // namespace judge::cli
