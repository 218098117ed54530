#include "judge/report/report_junit.hpp"

#include "judge/report/not_run_text.hpp"

#include "judge/base/file_output.hpp"
#include "judge/base/xml_escape.hpp"

#include <fmt/format.h>

namespace judge {

namespace {

std::string esc(const std::string& text) { return xml_escape(text); }

// Folder solutions are shown as "solutions/matmul/alice/": their name is the folder's.
std::string solution_name(const std::string& path) {
  std::filesystem::path p(path);
  if (!p.has_filename()) p = p.parent_path();
  return p.stem().string();
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

bool is_error(verdict v) { return v == verdict::compile_error || v == verdict::internal_error; }

/// <failure> or <error>, whichever `v` calls for.
std::string problem_element(verdict v, const std::string& message, const std::string& details) {
  const char* tag = is_error(v) ? "error" : "failure";
  return fmt::format("      <{0} message=\"{1}\" type=\"{2}\">{3}</{0}>\n", tag, esc(first_line(message)),
                     short_name(v), esc(details));
}

struct suite_counts {
  int tests = 0, failures = 0, errors = 0, skipped = 0;
  double seconds = 0;
};

std::string testsuite(const solution_result& r, suite_counts& counts) {
  const std::string classname = esc(r.problem + "." + solution_name(r.path));
  if (r.compiled_only) {
    // Not run for want of a GPU: skipped, neither a failure of the solution nor an error of the judge.
    ++counts.tests;
    ++counts.skipped;
    return fmt::format("    <testcase classname=\"{}\" name=\"solution\">\n      <skipped message=\"{}\"/>\n"
                       "    </testcase>\n",
                       classname, esc(not_run_text));
  }
  std::string cases;
  bool case_failed = false;
  auto count = [&](verdict v) {
    ++counts.tests;
    if (v == verdict::accepted) return;
    case_failed = true;
    ++(is_error(v) ? counts.errors : counts.failures);
  };
  for (const case_result& c : r.cases) {
    count(c.v);
    std::string time;
    if (c.timing) {
      counts.seconds += c.timing->median_ms / 1000;
      time = fmt::format(" time=\"{:.9f}\"", c.timing->median_ms / 1000);
    }
    cases += fmt::format("    <testcase classname=\"{}\" name=\"{}\"{}", classname, esc(c.name), time);
    if (c.v == verdict::accepted) {
      cases += "/>\n";
    } else {
      cases += ">\n" + problem_element(c.v, short_name(c.v) + ": " + c.message, c.message) + "    </testcase>\n";
    }
  }
  // A case an earlier failure left unrun is skipped: it says nothing about the solution either way.
  for (const std::string& name : r.cases_not_run) {
    ++counts.tests;
    ++counts.skipped;
    cases += fmt::format("    <testcase classname=\"{}\" name=\"{}\">\n      <skipped message=\"{}\"/>\n    </testcase>\n",
                         classname, esc(name), esc("not run: " + r.cases_not_run_reason));
  }
  if (r.v != verdict::accepted && !case_failed) {
    const bool compile = r.v == verdict::compile_error;
    count(r.v);
    cases += fmt::format("    <testcase classname=\"{}\" name=\"{}\">\n", classname, compile ? "compile" : "solution");
    cases += problem_element(r.v, short_name(r.v) + ": " + r.message,
                             compile && !r.compile_output.empty() ? r.compile_output : r.message);
    cases += "    </testcase>\n";
  }
  return cases;
}

std::string property(const char* name, const std::string& value) {
  return fmt::format("      <property name=\"{}\" value=\"{}\"/>\n", name, esc(value));
}

} // namespace

std::string junit_xml(const std::vector<solution_result>& results) {
  std::string suites;
  suite_counts total;
  for (const solution_result& r : results) {
    suite_counts counts;
    const std::string cases = testsuite(r, counts);
    suites += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" "
                          "time=\"{:.9f}\" timestamp=\"{}\">\n",
                          esc(r.problem + "." + solution_name(r.path)), counts.tests, counts.failures, counts.errors,
                          counts.skipped, counts.seconds, esc(r.graded_at));
    suites += "    <properties>\n" + property("author", r.author) + property("path", r.path) +
              property("verdict", r.compiled_only ? not_run_short : short_name(r.v)) +
              property("score", fmt::format("{}", r.score)) + property("speed_unit", r.speed_unit) +
              property("device", r.device.name) + "    </properties>\n";
    suites += cases;
    if (!r.learner_output.empty()) suites += "    <system-out>" + esc(r.learner_output) + "</system-out>\n";
    suites += "  </testsuite>\n";
    total.tests += counts.tests;
    total.failures += counts.failures;
    total.errors += counts.errors;
    total.skipped += counts.skipped;
    total.seconds += counts.seconds;
  }
  return fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"gpu-judge\" tests=\"{}\" "
                     "failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.9f}\">\n{}</testsuites>\n",
                     total.tests, total.failures, total.errors, total.skipped, total.seconds, suites);
}

void write_junit(const std::filesystem::path& path, const std::vector<solution_result>& results) {
  // A CI job reading the report must never see half of it.
  write_file_atomically(path, junit_xml(results), "the JUnit report");
}

} // namespace judge
