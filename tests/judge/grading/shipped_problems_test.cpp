// Every problem shipped in problems/: its spec and cases load, and its CPU reference, built and run the
// way the judge does, reproduces the expected values of every sample case that has them (the worked
// examples of the statements). A new problem is picked up without editing this file.
#include "judge/grading/case_data.hpp"
#include "judge/problem/case_tolerance.hpp"
#include "judge/problem/check_seed.hpp"
#include "judge/grading/compare.hpp"
#include "judge/problem/problem.hpp"
#include "judge/grading/reference_library.hpp"
#include "judge/problem/cases.hpp"

#include "catch.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::vector<std::string> shipped_problems() { return judge::list_problems(fs::path(JUDGE_SOURCE_DIR) / "problems"); }

} // namespace

TEST_CASE("the judge ships at least twelve problems", "[problems]") { CHECK(shipped_problems().size() >= 12); }

TEST_CASE("every shipped problem's CPU reference reproduces its worked examples", "[problems][reference]") {
  for (const std::string& name : shipped_problems()) {
    CAPTURE(name);
    const judge::problem_spec spec = judge::load_problem(fs::path(JUDGE_SOURCE_DIR) / "problems" / name);
    const auto cases = judge::load_cases(spec, fs::path(JUDGE_SOURCE_DIR) / "testcases" / name / "cases.yaml");
    int checked = 0;
    for (const judge::test_case& c : cases) {
      if (c.visibility != judge::visibility::sample || c.expected.empty()) continue;
      CAPTURE(c.name);
      const auto inputs = judge::regenerate_inputs(spec, c, judge::sample_check_seed(c.seed, spec.name, c.name, 0));
      const auto outputs = judge::cpu_reference_outputs(spec, c, inputs, 2);
      const judge::tolerance tol = judge::case_tolerance(spec, c);
      for (const judge::parameter* p : spec.buffers()) {
        const auto expected = c.expected.find(p->name);
        if (expected == c.expected.end()) continue;
        std::vector<float> as_elements;
        for (const double v : outputs.at(p->name))
          as_elements.push_back(p->type == judge_data::element_type::int32
                                    ? judge_data::word_of_int(static_cast<std::int32_t>(v))
                                    : static_cast<float>(v));
        const auto wrong =
            judge::compare_output(p->name, as_elements, expected->second, judge::buffer_shape(*p, c), tol, p->type);
        CHECK_FALSE(wrong);
      }
      ++checked;
    }
    CHECK(checked > 0); // every problem's statement has a worked example that cases.yaml checks
  }
}
