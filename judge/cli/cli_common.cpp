#include "cli.hpp"

#include "compile.hpp"
#include "grading_run.hpp"
#include "problem_spec.hpp"
#include "process.hpp"
#include "progress_terminal.hpp"
#include "results_db.hpp"
#include "solution_files.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace judge::cli {

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
  request.progress = terminal_progress(stderr);
  load_problem(request.problems_root / problem);
  return request;
}

void add_store_option(CLI::App& sub, std::string& db_option) {
  sub.add_option("--db", db_option, "results database (default: results/judge.db)");
}

} // namespace judge::cli
