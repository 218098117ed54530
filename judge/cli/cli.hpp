// The `judge` command line: one file per subcommand (cli_<name>.cpp), each registering itself here.
#pragma once

#include <CLI/CLI.hpp>

#include <filesystem>
#include <functional>
#include <string>

namespace judge::cli {

/// Exit statuses (README.md documents them).
enum exit_code : int {
  all_accepted = 0,
  some_not_accepted = 1,
  usage_or_spec_error = 2,
  no_gpu = 3,
  internal_failure = 4,
  interrupted = 130,
};

/// Where problems/, testcases/, solutions/ and results/ are: --root, else $JUDGE_ROOT, else the source
/// tree the judge was built from.
struct paths {
  std::filesystem::path root;
  std::filesystem::path problems() const { return root / "problems"; }
  std::filesystem::path testcases() const { return root / "testcases"; }
  std::filesystem::path solutions() const { return root / "solutions"; }
  std::filesystem::path results() const { return root / "results"; }
};

/// Global state the subcommands share: the chosen paths and the command's exit status.
struct context {
  paths where;
  int status = all_accepted;
};

void add_run(CLI::App& app, context& ctx);
void add_verify(CLI::App& app, context& ctx);
void add_list(CLI::App& app, context& ctx);
void add_cases(CLI::App& app, context& ctx);
void add_new(CLI::App& app, context& ctx);
void add_new_problem(CLI::App& app, context& ctx);
void add_show(CLI::App& app, context& ctx);
void add_device(CLI::App& app, context& ctx);
void add_leaderboard(CLI::App& app, context& ctx);
void add_profile_request(CLI::App& app, context& ctx);

/// Runs `body`, turning the judge's exceptions into one clear line on stderr and an exit status.
int guarded(const std::function<int()>& body);

} // namespace judge::cli
