// The timing loop alone on the GPU, timing a vector addition (C = A + B) as a runner times solve(): the
// number of samples asked for, fresh inputs for every call, and every call checked against the GPU
// reference, which finds a wrong output and a written input.
#include "catch.hpp"

#include "harness/call/solve_abi.h"
#include "test_kernels.cuh"
#include "harness/call/timing_loop.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

using gpu_test::vector_add_kind;
using judge_harness::device_memory;
using judge_harness::run_timing;
using judge_harness::runner_context;
using judge_harness::runner_options;
using judge_harness::timing_outcome;
using judge_wire::buffer_role;

// The two entry points a runner is linked with (solve_abi.h): this problem's GPU reference, and a shim
// that no test calls (the tests time their own call_work, not a learner's solve()).
extern "C" void judge_reference_solve(void* const* buffers, const int* sizes, const float*) {
  gpu_test::launch_reference_add(static_cast<const float*>(buffers[0]), static_cast<const float*>(buffers[1]),
                                 static_cast<float*>(buffers[2]), sizes[0]);
}
extern "C" void judge_call_solve(judge_solve_fn, void* const*, const int*, const float*) {}

namespace {

constexpr int n = 1 << 16;

/// vector_add's case: A and B uniform in [-1, 1), C an output, timed with `samples` samples exactly.
judge_wire::case_request vector_add_case(int samples) {
  judge_wire::case_request request;
  request.name = "vector_add_65536";
  request.sizes = {n};
  for (const char* name : {"A", "B", "C"}) {
    judge_wire::buffer_spec b;
    b.name = name;
    b.count = n;
    b.role = std::string(name) == "C" ? buffer_role::output : buffer_role::input;
    if (b.role == buffer_role::input) b.dist = judge_data::distribution{judge_data::distribution_kind::uniform, -1, 1};
    request.buffers.push_back(b);
  }
  request.tolerance = {1e-5, 1e-5};
  judge_wire::timing_spec timing;
  timing.budget_s = 60;
  timing.min_samples = samples;
  timing.max_samples = samples;
  timing.min_s = 0;
  timing.target_precision = 0; // never precise enough: the loop stops at max_samples
  timing.cold_l2 = true;
  request.timing = timing;
  return request;
}

/// The work a solution's call issues: the vector addition of `kind`, which also notes the first four
/// inputs of A it saw, one slot per call.
class vector_add_work final : public judge_harness::call_work {
public:
  static constexpr unsigned slots = 1 << 16;

  explicit vector_add_work(vector_add_kind kind) : m_kind(kind) {
    JUDGE_CUDA_CHECK(cudaMemset(m_calls.data(), 0, m_calls.bytes()));
  }

  std::string issue(void* const* buffers, const int* sizes, const float*) override {
    gpu_test::launch_vector_add(m_kind, static_cast<float*>(buffers[0]), static_cast<const float*>(buffers[1]),
                                static_cast<float*>(buffers[2]), sizes[0], m_seen.as<float>(), m_calls.as<unsigned>(),
                                slots);
    return "";
  }

  /// A[0..3] as each call saw them, in call order (bit patterns).
  std::vector<std::array<std::uint32_t, 4>> inputs_seen() const {
    unsigned calls = 0;
    JUDGE_CUDA_CHECK(cudaMemcpy(&calls, m_calls.data(), sizeof calls, cudaMemcpyDeviceToHost));
    std::vector<std::array<std::uint32_t, 4>> seen(std::min(calls, slots));
    JUDGE_CUDA_CHECK(cudaMemcpy(seen.data(), m_seen.data(), seen.size() * sizeof seen[0], cudaMemcpyDeviceToHost));
    return seen;
  }

private:
  vector_add_kind m_kind;
  device_memory m_seen{slots * 4 * sizeof(float)};
  device_memory m_calls{sizeof(unsigned)};
};

runner_context timing_context() {
  int device = 0;
  JUDGE_CUDA_CHECK(cudaGetDevice(&device));
  return runner_context(runner_options{}, -1, device);
}

} // namespace

TEST_CASE("the timing loop takes the samples asked for, each on fresh inputs and checked", "[gpu][timing_loop]") {
  runner_context context = timing_context();
  vector_add_work work(vector_add_kind::right);
  const timing_outcome outcome = run_timing(vector_add_case(40), context, work);
  const judge_wire::timing_answer& a = outcome.answer;
  CAPTURE(a.error.value_or(""), context.timer.fallback_reason());
  REQUIRE(a.status == judge_wire::call_status::ok);
  CHECK_FALSE(outcome.context_lost);
  CHECK(a.method == judge_wire::timing_method::cupti);
  CHECK(a.stop_reason == judge_wire::stop_reason::max_samples);
  CHECK(a.gpu_ms.size() == 40);
  CHECK(a.host_ms.size() == 40);
  CHECK(a.sm_clock_mhz.size() == 40);
  CHECK(a.throttled.size() == 40);
  CHECK(a.warmup_calls >= 3);
  CHECK(a.checked_samples == a.warmup_calls + 40);
  CHECK(a.mismatched_samples == 0);
  CHECK(a.inputs_modified_samples == 0);
  for (const double ms : a.gpu_ms) {
    CHECK(ms > 0.0);
    CHECK(ms < 1.0); // 768 KiB in, 256 KiB out
  }
  REQUIRE(a.kernels.size() == 1);
  CHECK(a.kernels[0].name.find("add_vectors") != std::string::npos);

  // Every call (warm-up or counted) saw inputs no other call saw.
  const auto seen = work.inputs_seen();
  CHECK(seen.size() == static_cast<std::size_t>(a.warmup_calls + 40));
  const std::set<std::array<std::uint32_t, 4>> distinct(seen.begin(), seen.end());
  CHECK(distinct.size() == seen.size());
}

TEST_CASE("the timing loop finds a wrong output in every call, the first in the first warm-up call",
          "[gpu][timing_loop]") {
  runner_context context = timing_context();
  vector_add_work work(vector_add_kind::off_by_one);
  const timing_outcome outcome = run_timing(vector_add_case(5), context, work);
  const judge_wire::timing_answer& a = outcome.answer;
  REQUIRE(a.status == judge_wire::call_status::ok);
  CHECK(a.gpu_ms.size() == 5);
  CHECK(a.mismatched_samples == a.checked_samples);
  REQUIRE(a.first_mismatch);
  CHECK(a.first_mismatch->place.warmup);
  CHECK(a.first_mismatch->place.sample == 0);
  CHECK(a.first_mismatch->buffer == "C");
  CHECK(a.first_mismatch->index == 0);
  CHECK(std::fabs(a.first_mismatch->got - a.first_mismatch->expected - 1.0f) < 1e-5f);
  CHECK(a.inputs_modified_samples == 0);
}

TEST_CASE("the timing loop finds a call that writes into its input", "[gpu][timing_loop]") {
  runner_context context = timing_context();
  vector_add_work work(vector_add_kind::writes_input);
  const timing_outcome outcome = run_timing(vector_add_case(5), context, work);
  const judge_wire::timing_answer& a = outcome.answer;
  REQUIRE(a.status == judge_wire::call_status::ok);
  CHECK(a.inputs_modified_samples == a.checked_samples);
  REQUIRE(a.first_input_modification);
  CHECK(a.first_input_modification->buffer == "A");
  CHECK(a.first_input_modification->index == 0);
  CHECK(a.first_input_modification->place.warmup);
  CHECK(a.mismatched_samples == 0);
}
