// A grading run's progress on one terminal line, redrawn in place ("compiling 3/12 ...").
#pragma once

#include "judge/grading/grading_run.hpp"

#include <cstdio>
#include <string>

namespace judge {

/// "probing the GPU ...", "compiling 3/12 ...", "compiling the baseline ...", "alice.cu: case 2/9 big ...",
/// or "" when nothing is under way.
std::string progress_text(const run_progress& progress);

/// Draws each step over the last on `stream`, and clears the line when nothing is under way. Draws nothing
/// when `stream` is not a terminal (a log or a pipe would keep every redraw).
run_progress_fn terminal_progress(std::FILE* stream);

} // namespace judge
