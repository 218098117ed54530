// The one process-wide flag of the judge: an interrupt (Ctrl-C) asks every grader to stop at the next
// case boundary, so what already ran is still reported.
#pragma once

#include <atomic>

namespace judge {

/// Set from the SIGINT handler (cli/main.cpp); read between cases.
extern std::atomic<bool> g_interrupted;

} // namespace judge
