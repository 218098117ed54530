// A long job as a list of named steps over one state, each with one job, run in order by run_steps(),
// which is the one place where an interrupt is looked at: a solution's build (compile/solution_build.hpp)
// and a grading run (grading/grading_run.hpp) are made this way, so that each step can be read and
// tested alone, and the order is data.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>
#include <vector>

namespace judge {

/// How a step ends.
enum class step_end {
  next,        ///< done: the next step may start
  last,        ///< the job is over (its result is made, or a failure ended it): no further step starts
  interrupted, ///< the step gave up because of an interrupt (a wait that was cut short)
};

/// One step: its name, in words (what it does), and the function that does it.
template <class State> struct named_step {
  std::string_view name;
  std::function<step_end(State&)> run;
};

/// Told the name of each step as it starts; empty: nobody is told.
using step_observer = std::function<void(std::string_view step)>;

/// How run_steps() ended.
struct steps_outcome {
  /// next: every step ran and said next; last: a step ended the job; interrupted: an interrupt did.
  step_end end = step_end::next;
  std::size_t started = 0; ///< how many steps began
};

/// Runs `steps` in order on `state`. `interrupted()` (a bool) is asked before each step and after each step ends
/// (also when a step throws): once it says yes, no further step starts, and `on_interrupt(state)` stands
/// in for whatever the step that was cut short concluded (work cut short says nothing of its subject);
/// an exception thrown while interrupted is that step's end, not an error. A step that ends with
/// `interrupted` is treated the same way. Other exceptions pass through.
template <class State, class Interrupted, class OnInterrupt>
steps_outcome run_steps(State& state, const std::vector<named_step<State>>& steps, const Interrupted& interrupted,
                        const OnInterrupt& on_interrupt, const step_observer& on_step = {}) {
  steps_outcome outcome;
  auto cut_short = [&] {
    on_interrupt(state);
    outcome.end = step_end::interrupted;
    return outcome;
  };
  for (const named_step<State>& step : steps) {
    if (interrupted()) return cut_short();
    if (on_step) on_step(step.name);
    ++outcome.started;
    step_end end = step_end::next;
    try {
      end = step.run(state);
    } catch (...) {
      if (interrupted()) return cut_short();
      throw;
    }
    if (end == step_end::interrupted || interrupted()) return cut_short();
    if (end == step_end::last) {
      outcome.end = step_end::last;
      return outcome;
    }
  }
  return outcome;
}

} // namespace judge
