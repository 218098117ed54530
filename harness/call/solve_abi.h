// The two entry points a runner is built with besides this library (docs/architecture.md).
//
// Both take the arguments of the problem's `solve(...)` in a layout that does not depend on the
// signature: `buffers` holds the pointer parameters in signature order, `sizes` the int parameters in
// signature order, `scalars` the float parameters in signature order (none for most problems). The judge
// generates a shim per problem that unpacks them into the real call.
#pragma once

extern "C" {

/// The learner's solve(), as found in their shared object (dlsym), before the shim gives it its type.
typedef void (*judge_solve_fn)(void);

/// Calls `solve`, the learner's solve(...) with the problem's signature. Defined by the judge's
/// generated shim.
void judge_call_solve(judge_solve_fn solve, void* const* buffers, const int* sizes, const float* scalars);

/// The problem's trusted GPU reference (problems/<p>/reference_gpu.cu): same layout; writes every output
/// buffer (float) on the legacy default stream, accumulating in double.
void judge_reference_solve(void* const* buffers, const int* sizes, const float* scalars);
}
