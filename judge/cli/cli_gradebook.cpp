// judge gradebook <assignment>: the roster × problems grid of one assignment of the course, from the
// results store (the online judge's submissions and accounts), as a table or as CSV for a grade import.
#include "judge/cli/cli.hpp"

#include "judge/base/file_output.hpp"
#include "judge/cli/cli_store.hpp"
#include "judge/course/course_file.hpp"
#include "judge/course/gradebook.hpp"
#include "judge/problem/problem.hpp"
#include "judge/service/queue/accounts.hpp"
#include "judge/store/handed_in.hpp"

#include <cstdio>
#include <memory>

namespace judge::cli {

namespace {
struct gradebook_flags {
  std::string assignment, course_file, db_file, csv_file;
  CLI::Option* csv = nullptr; ///< given, with or without a FILE
};

int show(const context& ctx, const gradebook_flags& f) {
  check_output_path("--csv", f.csv_file);
  const course::course_spec course =
      course::load_course(course_file_of(ctx, f.course_file), list_problems(ctx.where.problems()));
  const course::assignment* a = course.find(f.assignment);
  if (!a) {
    std::string known;
    for (const course::assignment& each : course.assignments) known += (known.empty() ? "" : ", ") + each.name;
    throw usage_error("the course file " + course.file + " has no assignment '" + f.assignment + "' (it has: " + known +
                      ")");
  }
  std::vector<std::string> students, instructors;
  std::vector<store::handed_in> handed_in;
  // No store yet is a class that has not submitted: every student row empty (there are none either).
  if (std::optional<results_db> db = open_store_to_read(ctx, f.db_file)) {
    service::accounts users(*db);
    for (const service::account& u : users.list())
      (u.who == service::role::student ? students : instructors).push_back(u.name);
    handed_in = store::handed_in_to(*db, a->problems);
  }
  const course::gradebook g = course::build_gradebook(course, *a, students, instructors, handed_in);
  if (f.csv->count() > 0 && f.csv_file.empty()) {
    std::fputs(course::gradebook_csv(g).c_str(), stdout);
    return 0;
  }
  std::fputs(course::gradebook_text(g).c_str(), stdout);
  if (!f.csv_file.empty()) {
    write_file_atomically(f.csv_file, course::gradebook_csv(g), "the gradebook");
    std::fprintf(stderr, "wrote %s\n", f.csv_file.c_str());
  }
  return 0;
}
} // namespace

std::filesystem::path course_file_of(const context& ctx, const std::string& course_option) {
  if (!course_option.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(course_option, ec))
      throw usage_error("--course " + course_option + " is not a file (give the course file, a YAML file)");
    return course_option;
  }
  const std::filesystem::path beside = ctx.where.root / "course.yaml";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(beside, ec))
    throw usage_error("no course file: " + beside.string() + " does not exist; give --course FILE");
  return beside;
}

void add_gradebook(CLI::App& app, context& ctx) {
  auto flags = std::make_shared<gradebook_flags>();
  CLI::App* sub = add_command(app, ctx, "gradebook",
                              "an assignment's roster x problems grid: best verdict and score, submissions, late "
                              "flags (CSV for a grade import)",
                              [&ctx, flags] { return show(ctx, *flags); });
  sub->add_option("assignment", flags->assignment, "the assignment's name in the course file")->required();
  sub->add_option("--course", flags->course_file, "the course file (default: course.yaml beside problems/)");
  add_store_option(*sub, flags->db_file);
  flags->csv = sub->add_option("--csv", flags->csv_file,
                                "CSV instead of the table (to FILE when given: the table is still printed)")
                   ->expected(0, 1);
}

} // namespace judge::cli
