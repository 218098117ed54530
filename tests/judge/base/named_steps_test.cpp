#include "catch.hpp"
#include "judge/base/named_steps.hpp"

#include <stdexcept>
#include <string>
#include <vector>

using judge::named_step;
using judge::run_steps;
using judge::step_end;

namespace {

/// A job that writes down what happened to it; its steps say what the test tells them to.
struct journal {
  std::vector<std::string> done;
  bool interrupt = false;
  int cut_short = 0; ///< on_interrupt calls
};

named_step<journal> step(const char* name, step_end end = step_end::next) {
  return {name, [name, end](journal& j) {
            j.done.push_back(name);
            return end;
          }};
}

judge::steps_outcome run(journal& j, const std::vector<named_step<journal>>& steps,
                         std::vector<std::string>* told = nullptr) {
  return run_steps(
      j, steps, [&j] { return j.interrupt; }, [](journal& s) { ++s.cut_short; },
      [told](std::string_view name) {
        if (told) told->emplace_back(name);
      });
}

} // namespace

TEST_CASE("steps run in their order and each is told by name as it starts", "[base][steps]") {
  journal j;
  std::vector<std::string> told;
  const auto outcome = run(j, {step("load"), step("compile"), step("run")}, &told);
  CHECK(j.done == std::vector<std::string>{"load", "compile", "run"});
  CHECK(told == j.done);
  CHECK(outcome.end == step_end::next);
  CHECK(outcome.started == 3);
  CHECK(j.cut_short == 0);
}

TEST_CASE("a step that ends the job starts no further step", "[base][steps]") {
  journal j;
  const auto outcome = run(j, {step("load"), step("found in the cache", step_end::last), step("compile")});
  CHECK(j.done == std::vector<std::string>{"load", "found in the cache"});
  CHECK(outcome.end == step_end::last);
  CHECK(outcome.started == 2);
  CHECK(j.cut_short == 0);
}

TEST_CASE("an interrupt during a step is seen after it: no further step starts and the job is cut short",
          "[base][steps]") {
  journal j;
  named_step<journal> interrupting{"probe", [](journal& s) {
                                     s.done.push_back("probe");
                                     s.interrupt = true;
                                     return step_end::next;
                                   }};
  const auto outcome = run(j, {step("load"), interrupting, step("compile")});
  CHECK(j.done == std::vector<std::string>{"load", "probe"});
  CHECK(outcome.end == step_end::interrupted);
  CHECK(outcome.started == 2);
  CHECK(j.cut_short == 1);
}

TEST_CASE("an interrupt during the last step, or one that ended the job, still cuts it short", "[base][steps]") {
  const step_end end = GENERATE(step_end::next, step_end::last);
  journal j;
  named_step<journal> interrupting{"publish", [end](journal& s) {
                                     s.interrupt = true;
                                     return end;
                                   }};
  CHECK(run(j, {step("compile"), interrupting}).end == step_end::interrupted);
  CHECK(j.cut_short == 1);
}

TEST_CASE("a job interrupted before it begins runs no step", "[base][steps]") {
  journal j;
  j.interrupt = true;
  const auto outcome = run(j, {step("load"), step("compile")});
  CHECK(j.done.empty());
  CHECK(outcome.started == 0);
  CHECK(outcome.end == step_end::interrupted);
  CHECK(j.cut_short == 1);
}

TEST_CASE("a step that gives up on an interrupt cuts the job short", "[base][steps]") {
  journal j;
  const auto outcome = run(j, {step("wait for the GPU", step_end::interrupted), step("time")});
  CHECK(j.done == std::vector<std::string>{"wait for the GPU"});
  CHECK(outcome.end == step_end::interrupted);
  CHECK(j.cut_short == 1);
}

TEST_CASE("an exception passes through, unless an interrupt came: then it is the step's end", "[base][steps]") {
  named_step<journal> throwing{"compile", [](journal& s) -> step_end {
                                 s.done.push_back("compile");
                                 throw std::runtime_error("the compiler was killed");
                               }};
  journal plain;
  CHECK_THROWS_WITH(run(plain, {throwing, step("run")}), "the compiler was killed");
  CHECK(plain.cut_short == 0);

  named_step<journal> throwing_when_interrupted{"compile", [](journal& s) -> step_end {
                                                  s.interrupt = true;
                                                  throw std::runtime_error("the compiler was killed");
                                                }};
  journal cut;
  judge::steps_outcome outcome;
  CHECK_NOTHROW(outcome = run(cut, {throwing_when_interrupted, step("run")}));
  CHECK(outcome.end == step_end::interrupted);
  CHECK(cut.done.empty());
  CHECK(cut.cut_short == 1);
}
