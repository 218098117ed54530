// The `judge` command line: one file per group of subcommands (cli_<name>.cpp), each declaring here the
// add_<name>() that main.cpp calls to register it.
#pragma once

#include "judge/base/usage_error.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <utility>

namespace judge {
struct run_request;
}

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
  /// The results store: `db_option` (--db) when given, else results/judge.db.
  std::filesystem::path store(const std::string& db_option) const {
    return db_option.empty() ? results() / "judge.db" : std::filesystem::path(db_option);
  }
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
void add_history(CLI::App& app, context& ctx);
void add_cache(CLI::App& app, context& ctx);
void add_profile_request(CLI::App& app, context& ctx);
void add_profile(CLI::App& app, context& ctx);
void add_serve(CLI::App& app, context& ctx);
void add_worker(CLI::App& app, context& ctx);
void add_slurm_job(CLI::App& app, context& ctx);
void add_users(CLI::App& app, context& ctx);
void add_submit(CLI::App& app, context& ctx);
void add_rejudge(CLI::App& app, context& ctx);
void add_similarity(CLI::App& app, context& ctx);
void add_gradebook(CLI::App& app, context& ctx);

/// The course file: `course_option` (--course) when given, else course.yaml beside problems/ (the
/// root's); throws usage_error naming what is missing.
std::filesystem::path course_file_of(const context& ctx, const std::string& course_option);

/// Runs `body`, turning the judge's exceptions into one clear line on stderr and an exit status.
int guarded(const std::function<int()>& body);

/// A subcommand: once parsed, `body` runs guarded and its result is the command's exit status.
CLI::App* add_command(CLI::App& app, context& ctx, const std::string& name, const std::string& description,
                      std::function<int()> body);

/// A subcommand about one problem: `name <problem> ...`. Its options fill a `Flags` (which has a
/// `problem`); once parsed, `body` runs guarded and its result is the command's exit status. Returns the
/// subcommand and its flags, for the caller to add the subcommand's other options.
template <typename Flags>
std::pair<CLI::App*, std::shared_ptr<Flags>> add_problem_command(CLI::App& app, context& ctx, const std::string& name,
                                                                 const std::string& description,
                                                                 int (*body)(const context&, const Flags&)) {
  auto flags = std::make_shared<Flags>();
  CLI::App* sub = add_command(app, ctx, name, description, [&ctx, flags, body] { return body(ctx, *flags); });
  sub->add_option("problem", flags->problem, "problem name (see `judge list`)")->required();
  return {sub, flags};
}

/// A grading run of `problem` under the root, its progress drawn on stderr. Loads the problem first, so
/// that an unknown problem is reported as such rather than as a missing folder.
run_request grading_request(const context& ctx, const std::string& problem);

/// Checks, before any work, that `path` given to `option` (e.g. "--json") can be written: not a folder,
/// its folder exists (it is not created: a mistyped path should not grow a tree of folders), and the
/// file or, when it does not exist yet, its folder is writable. Throws usage_error naming the option,
/// the path and why. An empty path (option not given) passes.
void check_output_path(const std::string& option, const std::filesystem::path& path);

/// --contest: a contest's leaderboard is worth what its weakest defence is, so grading goes on only with
/// every layer of the sandbox in force; throws usage_error naming what is missing here.
void require_full_sandbox(bool no_sandbox);

/// The --db option of the commands that read or write the results store (paths::store()).
void add_store_option(CLI::App& sub, std::string& db_option);

} // namespace judge::cli
