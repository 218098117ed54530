// What a runner process printed, told apart into the learner's program and the runner itself.
#pragma once

#include <string>
#include <string_view>

namespace judge {

/// The runner's own diagnostics start their line with this (harness/runner/runner_main.cpp); the
/// judge decides from the result channel, never from them, and the learner did not write them.
inline constexpr std::string_view runner_line_prefix = "runner: ";

/// `printed` without the lines the runner wrote about itself, so that "output of your program" holds
/// only what the solution printed. A line the solution prints with the same prefix is dropped too: it
/// can hide only the solution's own output, never change a verdict.
std::string without_runner_lines(std::string_view printed);

} // namespace judge
