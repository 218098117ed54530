// The two entry points a runner is linked with besides this library (docs/architecture.md).
//
// Both take the arguments of the problem's `solve(...)` in a layout that does not depend on the
// signature: `buffers` holds the pointer parameters in signature order, `sizes` the int parameters in
// signature order. The judge generates a shim per problem that unpacks them into the real call.
#pragma once

extern "C" {

/// Calls the learner's solve(...). Defined by the judge's generated shim.
void judge_call_solve(void* const* buffers, const int* sizes);

/// The problem's trusted GPU reference (problems/<p>/reference_gpu.cu): same layout; writes every output
/// buffer (float) on the legacy default stream, accumulating in double.
void judge_reference_solve(void* const* buffers, const int* sizes);
}
