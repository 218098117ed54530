// The kernels of the harness's GPU tests, behind host launchers so that the tests themselves are plain
// C++: work of a known duration, a pointer chase that times its own loads, single writes at a chosen
// index, and a vector addition that is right, wrong or writes into its input. None is named judge_*:
// the CUPTI timer counts them as a learner's.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace gpu_test {

/// One warp spins on the GPU's global timer for `ns` nanoseconds (kernel `spin_for_ns`).
void launch_spin(std::uint64_t ns, cudaStream_t stream);

/// One thread follows the chain in `next` (next[i] is the index of the next element) for `steps` loads
/// through L2 (ld.global.cg, not L1); returns the clock64() cycles the loads took. Synchronises.
double chase_cycles(const std::uint32_t* next, std::uint32_t steps, cudaStream_t stream);

/// One thread writes `value` at `base[index]` (index may be negative or past the end). Synchronises.
void write_one(float* base, std::int64_t index, float value);

enum class vector_add_kind {
  right,        ///< C = A + B
  off_by_one,   ///< C = A + B + 1: every element wrong
  writes_input, ///< C = A + B, and A[0] is overwritten with 0
};

/// C = A + B (as `kind` says) over n floats on the legacy stream, kernel `add_vectors`. Its first thread
/// also writes A[0..3] into slot atomicAdd(*calls, 1) of `seen` (4 floats per slot, `slots` slots), so a
/// test can tell which inputs each call saw.
void launch_vector_add(vector_add_kind kind, float* a, const float* b, float* c, int n, float* seen, unsigned* calls,
                       unsigned slots);

/// The right C = A + B, on the legacy stream, kernel `reference_add_vectors` (the tests' GPU reference).
void launch_reference_add(const float* a, const float* b, float* c, int n);

} // namespace gpu_test
