// A done submission's pending explanation (its result's "sanitizer", sanitizer/sanitizer_explanation.hpp):
// run by a GPU worker when it has nothing to grade, in an explain-only grading run on the submission's
// build (the runner cache's: grading it built it), and stored in its place without touching the verdict.
#pragma once

#include "judge/service/queue/submission_grading.hpp"
#include "judge/service/queue/submission_queue.hpp"

namespace judge::service {

/// Runs the pending explanation of `s` (its files and result as the queue holds them) as `setup` says.
/// `result` comes back with the explanation done, over budget or failed (no GPU, no compute-sanitizer, a
/// case the problem no longer has); `failure` says why the judge could not run it at all (a problem that
/// is gone); `interrupted` when stopped (SIGTERM) or when it gave way (setup.give_way): it stays pending,
/// for this worker or the next. Never throws.
graded explain_submission(const submission& s, const grading_setup& setup);

/// Stores what explain_submission() gave: the explanation, or, when it could not run, the explanation
/// failed with why. An interrupted one is left pending, for release(). Returns the state it is now in.
explanation_state settle_explanation(submission_queue& queue, const submission& s, const graded& g);

} // namespace judge::service
