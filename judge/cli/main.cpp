// judge: compile, run, check and time CUDA solutions. See README.md.
#include "judge/cli/cli.hpp"
#include "judge/grading/grader.hpp"
#include "judge/base/environment.hpp"
#include "judge/base/install_layout.hpp"
#include "judge/sandbox/process.hpp"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <set>

namespace {
// Ctrl-C: stop every runner at once and let the current command wind down; results already
// recorded stay recorded (each solution is written in its own transaction).
extern "C" void on_interrupt(int) {
  judge::g_interrupted = true;
  judge::kill_all_children();
}
} // namespace

int main(int argc, char** argv) {
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  std::signal(SIGPIPE, SIG_IGN);

  judge::cli::context ctx;
  // The problems: --root, else JUDGE_ROOT, else the ones installed (or, in the build tree, the source's).
  try {
    ctx.where.root = judge::env_value(judge::judge_env::root).value_or(judge::judge_layout().data_dir.string());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "judge: %s\n", e.what());
    return judge::cli::internal_failure;
  }

  CLI::App app{"gpu-judge: compiles, runs, checks and times CUDA solutions.\n"
               "  judge <problem> [solution files or folders]   grade (same as `judge run`)",
               "judge"};
  app.require_subcommand(1);
  app.add_option("--root", ctx.where.root, "folder holding problems/, testcases/, solutions/ and results/")
      ->check(CLI::ExistingDirectory);
  app.add_flag_callback(
      "--help-env",
      [] {
        std::fputs(judge::environment_help().c_str(), stdout);
        throw CLI::Success();
      },
      "print the environment variables the judge reads, what each sets and what holds when it is unset, and exit");
  judge::cli::add_run(app, ctx);
  judge::cli::add_verify(app, ctx);
  judge::cli::add_list(app, ctx);
  judge::cli::add_cases(app, ctx);
  judge::cli::add_new(app, ctx);
  judge::cli::add_new_problem(app, ctx);
  judge::cli::add_show(app, ctx);
  judge::cli::add_device(app, ctx);
  judge::cli::add_leaderboard(app, ctx);
  judge::cli::add_history(app, ctx);
  judge::cli::add_cache(app, ctx);
  judge::cli::add_profile_request(app, ctx);
  judge::cli::add_profile(app, ctx);
  judge::cli::add_serve(app, ctx);
  judge::cli::add_worker(app, ctx);
  judge::cli::add_slurm_job(app, ctx);
  judge::cli::add_users(app, ctx);
  judge::cli::add_submit(app, ctx);
  judge::cli::add_gradebook(app, ctx);
  judge::cli::add_rejudge(app, ctx);
  judge::cli::add_similarity(app, ctx);

  // `judge matmul ...` is short for `judge run matmul ...`: insert "run" before the first word that is
  // neither an option nor a subcommand.
  std::vector<std::string> args(argv + 1, argv + argc);
  std::set<std::string> commands;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    commands.insert(sub->get_name());
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--root") {
      ++i;
      continue;
    }
    if (!args[i].empty() && args[i][0] == '-') continue;
    if (!commands.count(args[i])) args.insert(args.begin() + static_cast<long>(i), "run");
    break;
  }
  std::vector<char*> rewritten{argv[0]};
  for (auto& a : args) rewritten.push_back(a.data());
  try {
    app.parse(static_cast<int>(rewritten.size()), rewritten.data());
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : judge::cli::usage_or_spec_error;
  }
  return ctx.status;
}
