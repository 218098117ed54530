#include "harness/cuda/compare.cuh"

#include "harness/cuda/cuda_check.hpp"
#include "harness/cuda/launch_shape.cuh"

#include <climits>

namespace judge_harness {
namespace {

struct result_slots {
  unsigned long long count;
  unsigned long long first_index; // ULLONG_MAX while nothing failed
};

/// Counts the lanes of this warp whose element failed and keeps the smallest failing index. Every lane
/// of the warp must call it (it votes), which the block-uniform loops below guarantee.
__device__ void note_failures(bool failed, std::size_t index, result_slots* slots) {
  const unsigned failing = __ballot_sync(0xffffffffu, failed);
  if (failing == 0) return;
  // One atomic per warp instead of one per element: a completely wrong output is the common case
  // of a wrong answer and must not cost seconds.
  const unsigned first_lane = static_cast<unsigned>(__ffs(static_cast<int>(failing))) - 1u;
  if ((threadIdx.x % 32u) == first_lane) {
    atomicAdd(&slots->count, static_cast<unsigned long long>(__popc(failing)));
    atomicMin(&slots->first_index, static_cast<unsigned long long>(index));
  }
}

__device__ bool within_tolerance(float got, float ref, double atol, double rtol) {
  if (got == ref) return true; // also the same infinity
  if (!isfinite(got) || !isfinite(ref)) return false;
  const double diff = fabs(static_cast<double>(got) - static_cast<double>(ref));
  return diff <= atol + rtol * fabs(static_cast<double>(ref));
}

__global__ void judge_mismatch_kernel(const float* got, const float* ref, std::size_t count, double atol, double rtol,
                                      result_slots* slots) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  // `base` is the same for every thread of the block, so whole warps iterate together.
  for (std::size_t base = static_cast<std::size_t>(blockIdx.x) * blockDim.x; base < count; base += stride) {
    const std::size_t i = base + threadIdx.x;
    const bool failed = i < count && !within_tolerance(got[i], ref[i], atol, rtol);
    note_failures(failed, i, slots);
  }
}

__global__ void judge_difference_kernel(const std::uint32_t* a, const std::uint32_t* b, std::size_t count,
                                        result_slots* slots) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t base = static_cast<std::size_t>(blockIdx.x) * blockDim.x; base < count; base += stride) {
    const std::size_t i = base + threadIdx.x;
    const bool failed = i < count && a[i] != b[i];
    note_failures(failed, i, slots);
  }
}

} // namespace

device_comparator::device_comparator() : m_slots(sizeof(result_slots)) {}

mismatch_summary device_comparator::count_mismatches(const float* got, const float* ref, std::size_t count, double atol,
                                                     double rtol, judge_data::element_type type) {
  // Integers are right or wrong: the same bits, which is what the difference kernel counts.
  if (type == judge_data::element_type::int32) return count_differences(got, ref, count);
  const result_slots empty{0, ULLONG_MAX};
  JUDGE_CUDA_CHECK(cudaMemcpy(m_slots.data(), &empty, sizeof empty, cudaMemcpyHostToDevice));
  if (count > 0) {
    judge_mismatch_kernel<<<detail::grid_blocks(count), detail::block_threads>>>(got, ref, count, atol, rtol,
                                                                                 m_slots.as<result_slots>());
    JUDGE_CUDA_CHECK(cudaGetLastError());
  }
  return read_result();
}

mismatch_summary device_comparator::count_differences(const float* a, const float* b, std::size_t count) {
  const result_slots empty{0, ULLONG_MAX};
  JUDGE_CUDA_CHECK(cudaMemcpy(m_slots.data(), &empty, sizeof empty, cudaMemcpyHostToDevice));
  if (count > 0) {
    // Bits, not values: a NaN rewritten as another NaN, or -0 as +0, is still a modified input.
    judge_difference_kernel<<<detail::grid_blocks(count), detail::block_threads>>>(
        reinterpret_cast<const std::uint32_t*>(a), reinterpret_cast<const std::uint32_t*>(b), count,
        m_slots.as<result_slots>());
    JUDGE_CUDA_CHECK(cudaGetLastError());
  }
  return read_result();
}

mismatch_summary device_comparator::read_result() {
  result_slots slots{};
  JUDGE_CUDA_CHECK(cudaMemcpy(&slots, m_slots.data(), sizeof slots, cudaMemcpyDeviceToHost));
  mismatch_summary summary;
  summary.count = slots.count;
  summary.first_index = slots.first_index == ULLONG_MAX ? -1 : static_cast<std::int64_t>(slots.first_index);
  return summary;
}

} // namespace judge_harness
