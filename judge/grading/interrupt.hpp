// The one process-wide flag of the judge: an interrupt (Ctrl-C). Once set, no compiler or runner is
// started any more (compile.hpp's toolchain::stop points here), the ones in flight are killed by the
// signal handler, and whatever they were doing is reported as not graded, never as the learner's fault.
#pragma once

#include <atomic>

namespace judge {

/// Set from the SIGINT/SIGTERM handler (cli/main.cpp); read before every compile and every case.
extern std::atomic<bool> g_interrupted;

} // namespace judge
