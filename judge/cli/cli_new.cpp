// judge new <problem> <author>: a learner's file from the starter.
// judge new-problem <name>: an instructor's problem package from templates/problem/.
#include "judge/cli/cli.hpp"

#include "judge/base/file_input.hpp"
#include "judge/base/install_layout.hpp"
#include "judge/problem/problem.hpp"
#include "judge/base/usage_error.hpp"
#include "judge/base/text.hpp"

#include <fmt/format.h>

#include <fstream>
#include <memory>
#include <optional>
#include <regex>

namespace judge::cli {

namespace fs = std::filesystem;

namespace {
std::string read_template(const fs::path& file) {
  std::error_code error;
  std::optional<std::string> text = read_file(file, error);
  if (!text) throw usage_error("cannot read " + file.string() + ": " + error.message());
  return std::move(*text);
}

void write_new_file(const fs::path& file, const std::string& text) {
  if (fs::exists(file)) throw usage_error(file.string() + " already exists; nothing was overwritten");
  fs::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::binary);
  out << text;
  if (!out) throw usage_error("cannot write " + file.string());
}

struct new_flags {
  std::string problem, author;
};

int new_solution(const context& ctx, const new_flags& f) {
  const problem_spec spec = load_problem(ctx.where.problems() / f.problem);
  // The name becomes a file name: starting with a letter or digit, it is never hidden (".", "..", ".x")
  // nor taken for an option ("-x").
  if (!std::regex_match(f.author, std::regex("[A-Za-z0-9][A-Za-z0-9_.-]*")))
    throw usage_error(fmt::format("author '{}': use letters, digits, '_', '.' and '-' only, starting with a letter or "
                                  "digit (it becomes a file name)",
                                  f.author));
  const fs::path target = ctx.where.solutions() / f.problem / (f.author + ".cu");
  std::string starter = read_template(spec.dir / "starter.cu");
  write_new_file(target, "// author: " + f.author + "\n" + starter);
  std::printf("created %s\n  signature: %s\n  grade it with: bin/judge %s %s\n", target.c_str(),
              spec.solve_declaration().c_str(), f.problem.c_str(), target.c_str());
  return 0;
}

int new_problem(const context& ctx, const std::string& name) {
  // The name becomes a folder, a C identifier in the reference's registration and kernel names.
  if (!std::regex_match(name, std::regex("[a-z][a-z0-9_]*")))
    throw usage_error(
        fmt::format("problem name '{}': use lowercase letters, digits and '_', starting with a letter", name));
  const fs::path problem_dir = ctx.where.problems() / name;
  const fs::path cases_file = ctx.where.testcases() / name / "cases.yaml";
  if (fs::exists(problem_dir)) throw usage_error(problem_dir.string() + " already exists; nothing was created");
  if (fs::exists(cases_file)) throw usage_error(cases_file.string() + " already exists; nothing was created");
  const fs::path templates = judge_layout().data_dir / "templates" / "problem";
  std::vector<fs::path> created;
  for (const auto& entry : fs::recursive_directory_iterator(templates)) {
    if (!entry.is_regular_file()) continue;
    const fs::path relative = fs::relative(entry.path(), templates);
    const std::string text = replace_all(read_template(entry.path()), "@NAME@", name);
    const fs::path target = relative == "cases.yaml" ? cases_file : problem_dir / relative;
    write_new_file(target, text);
    created.push_back(target);
  }
  std::sort(created.begin(), created.end());
  std::printf("created problem %s:\n", name.c_str());
  for (const auto& f : created) std::printf("  %s\n", f.c_str());
  std::printf(
      "It is a working copy problem. Edit problem.yaml, the references and the cases, then run\n"
      "  bin/judge verify %s\n(the judge builds the CPU reference on its own when it is needed; nothing to rebuild.) "
      "docs/instructors.md walks through it.\n",
      name.c_str());
  return 0;
}
} // namespace

void add_new(CLI::App& app, context& ctx) {
  auto [sub, flags] = add_problem_command<new_flags>(
      app, ctx, "new", "create solutions/<problem>/<author>.cu from the problem's starter", new_solution);
  sub->add_option("author", flags->author, "your name (becomes the file name)")->required();
}

void add_new_problem(CLI::App& app, context& ctx) {
  auto name = std::make_shared<std::string>();
  CLI::App* sub =
      add_command(app, ctx, "new-problem", "scaffold a problem package (spec, references, starter, cases, examples)",
                  [&ctx, name] { return new_problem(ctx, *name); });
  sub->add_option("name", *name, "problem name")->required();
}

} // namespace judge::cli
