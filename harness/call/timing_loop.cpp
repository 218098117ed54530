#include "harness/call/timing_loop.hpp"

#include "harness/call/call_buffers.hpp"
#include "harness/call/solve_abi.h"
#include "harness/call/solve_call.hpp"
#include "common/sampling_stop.hpp"
#include "common/seconds_into.hpp"
#include "common/stats.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>

#include <sys/random.h>

namespace judge_harness {
namespace {

using judge_wire::call_status;
using judge_wire::case_request;
using judge_wire::sample_place;
using judge_phases::seconds_into;

constexpr std::int64_t min_warmup_calls = 3;
constexpr double min_warmup_s = 0.1; ///< [s] with the clock check below: 0.2 s bought no stability (docs/timing.md)
/// [s] the warm-up of a case timed within `hot_gap_s` of the end of another case's timing, in this process
/// or (timing_spec::last_timing_end_s, the judge's word) in another runner on the same GPU: the GPU has
/// just been busy for at least 0.2 s, and its clock is checked all the same.
/// On the H200 the first timed case of a solution's replaying runner read the same median after 3 calls
/// (20 ms) as after 65-77 (100 ms), within 0.1% on every step of matmul's ladder (docs/timing.md).
constexpr double min_warmup_hot_s = 0.02;
constexpr double hot_gap_s = 1.0;
constexpr double warm_clock_fraction = 0.9; ///< [fraction of the maximum SM clock]
constexpr double max_clock_wait_s = 2.0;    ///< [s] after which warm-up stops waiting for the clock

/// A seed for the inputs of one timed call, drawn from the kernel's generator right before the call:
/// it is sent nowhere and exists nowhere earlier, so no code (the solution's included) can know a
/// sample's inputs before its call.
std::uint64_t draw_sample_seed() {
  std::uint64_t seed = 0;
  auto* bytes = reinterpret_cast<unsigned char*>(&seed);
  std::size_t got = 0;
  while (got < sizeof seed) {
    const ssize_t n = ::getrandom(bytes + got, sizeof seed - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error(std::string("getrandom failed: ") + std::strerror(n < 0 ? errno : EIO));
    got += static_cast<std::size_t>(n);
  }
  return seed;
}

struct sample_result {
  double gpu_ms = 0.0;
  double host_ms = 0.0;
  clock_reading clock;
};

/// Runs calls of solve() the way a timed sample runs, whether they are warm-up or counted: so that
/// nothing distinguishes the two, and every kernel of the path (the judge's too) is loaded and warm.
class sampler {
public:
  sampler(const case_request& request, runner_context& context, call_work& work, timing_outcome& outcome)
      : m_request(request), m_context(context), m_work(work), m_outcome(outcome), m_answer(outcome.answer) {
    // Two sets used in turn: every call gets buffers the previous call did not see.
    m_sets.emplace_back(request.buffers, true, context.options.layout());
    m_sets.emplace_back(request.buffers, true, context.options.layout());
  }

  /// One call on inputs from a fresh seed; nullopt when timing must stop (m_answer's status and error
  /// then say why).
  std::optional<sample_result> run(sample_place place) {
    call_buffers& set = m_sets[static_cast<std::size_t>(m_calls % 2)];
    const poison_kind poison = m_calls % 2 == 0 ? poison_kind::nan : poison_kind::big;
    ++m_calls;

    const cudaError_t pending = settle_device();
    if (pending != cudaSuccess)
      return stop(call_status::cuda_error, describe(pending) + " (pending before a timed call of solve())",
                  context_is_corrupted());

    // The state the call begins with is put back before this sample's inputs exist, so that nothing
    // issued then, untimed, can compute from them (a replay's restoration is copies from the host only).
    if (const std::string not_restored = m_work.before_sample(set.solve_arguments()); !not_restored.empty())
      return stop(call_status::cuda_error, not_restored + " (restoring the state a timed call begins with)",
                  context_is_corrupted());
    // The pristine inputs and the reference are made after the call, from the seed, which lives only in
    // this process's host memory: during the call no judge's copy exists that its kernels could change.
    const std::uint64_t seed = draw_sample_seed();
    {
      const seconds_into into{m_answer.inputs_s};
      set.prepare_inputs(seed, poison);
    }
    const call_kind kind = m_request.timing->cold_l2 ? call_kind::timed_cold_l2 : call_kind::timed_warm_l2;
    const solve_observation seen =
        call_solve(m_work, set.solve_arguments(), m_request.sizes.data(), m_request.scalars.data(), m_context, kind);
    if (!seen.error.empty()) return stop(call_status::cuda_error, seen.error, seen.context_lost);

    sample_result result;
    const sample_time time = m_context.timer.result();
    result.gpu_ms = time.gpu_ms;
    result.host_ms = seen.host_ms;
    result.clock = m_context.clock.read();
    if (time.other_streams_after_return) m_answer.other_streams_after_return = true;
    // One timed sample's launches stand for all: solve() launches the same kernels every call.
    if (!place.warmup && m_answer.kernels.empty()) m_answer.kernels = time.kernels;

    if (!seen.banned_loaded.empty())
      return stop(call_status::banned_library, banned_library_message(seen.banned_loaded, " during timing"), false);
    if (!seen.stray_threads.empty())
      return stop(call_status::stray_work, stray_threads_message(seen.stray_threads, " during timing"), false);

    {
      const seconds_into into{m_answer.inputs_s};
      set.regenerate_pristine(seed);
    }
    const seconds_into into{m_answer.reference_s};
    if (!check_against_reference(set, place)) return std::nullopt;
    return result;
  }

private:
  /// Ends timing with `status`; a lost context takes the buffers with it (they cannot be freed).
  std::optional<sample_result> stop(call_status status, std::string error, bool context_lost) {
    if (context_lost)
      for (call_buffers& s : m_sets) s.abandon();
    m_answer.status = status;
    m_answer.error = std::move(error);
    m_outcome.context_lost = context_lost;
    return std::nullopt;
  }

  /// Runs the problem's GPU reference on the pristine inputs (untimed) and compares every output;
  /// false when the reference could not run (m_answer then says why).
  bool check_against_reference(const call_buffers& set, sample_place place) {
    judge_reference_solve(set.reference_arguments(), m_request.sizes.data(), m_request.scalars.data());
    const cudaError_t status = settle_device();
    if (status != cudaSuccess) {
      // The reference is trusted code, but a solution can leave work behind that fails under it.
      stop(call_status::cuda_error,
           describe(status) + " (in the problem's GPU reference, run after a timed call of solve())",
           context_is_corrupted());
      return false;
    }
    ++m_answer.checked_samples;
    bool mismatched = false;
    bool modified = false;
    for (std::size_t b = 0; b < m_request.buffers.size(); ++b) {
      const buffer_spec& spec = m_request.buffers[b];
      const float* data = set.buffer(b).data();
      if (spec.is_input()) {
        const mismatch_summary changed = m_context.comparator.count_differences(data, set.shadow(b), spec.count);
        if (changed.count == 0) continue;
        modified = true;
        if (!m_answer.first_input_modification)
          m_answer.first_input_modification =
              judge_wire::sample_input_modification{place, spec.name, changed.first_index};
      } else {
        const mismatch_summary wrong = m_context.comparator.count_mismatches(
            data, set.shadow(b), spec.count, m_request.tolerance.atol, m_request.tolerance.rtol, spec.type);
        if (wrong.count == 0) continue;
        mismatched = true;
        if (!m_answer.first_mismatch) {
          judge_wire::sample_mismatch first{place, spec.name, wrong.first_index, 0.0f, 0.0f};
          const auto at = static_cast<std::size_t>(wrong.first_index);
          JUDGE_CUDA_CHECK(cudaMemcpy(&first.got, data + at, sizeof(float), cudaMemcpyDeviceToHost));
          JUDGE_CUDA_CHECK(cudaMemcpy(&first.expected, set.shadow(b) + at, sizeof(float), cudaMemcpyDeviceToHost));
          if (spec.type == judge_data::element_type::int32) { // shown as numbers: the elements hold int bits
            first.got = static_cast<float>(judge_data::int_of_word(first.got));
            first.expected = static_cast<float>(judge_data::int_of_word(first.expected));
          }
          m_answer.first_mismatch = first;
        }
      }
    }
    if (mismatched) ++m_answer.mismatched_samples;
    if (modified) ++m_answer.inputs_modified_samples;
    return true;
  }

  const case_request& m_request;
  runner_context& m_context;
  call_work& m_work;
  timing_outcome& m_outcome;
  judge_wire::timing_answer& m_answer; // m_outcome's
  std::vector<call_buffers> m_sets;
  std::int64_t m_calls = 0;
};

} // namespace

timing_outcome run_timing(const case_request& request, runner_context& context, call_work& work) {
  const judge_wire::timing_spec& spec = request.timing.value();
  timing_outcome outcome;
  judge_wire::timing_answer& answer = outcome.answer;
  answer.case_name = request.name;
  answer.method = context.timer.method();
  answer.cold_l2 = spec.cold_l2;
  try {
    using clock = std::chrono::steady_clock;
    const clock::time_point start = clock::now();
    const auto elapsed_s = [&] { return std::chrono::duration<double>(clock::now() - start).count(); };
    context.timer.discard_history();
    sampler calls(request, context, work, outcome);
    work.prepare_for_timing();
    std::optional<clock::time_point> last_end = context.last_timing_end;
    if (spec.last_timing_end_s) {
      const auto judges = clock::time_point(std::chrono::duration_cast<clock::duration>(
          std::chrono::duration<double>(*spec.last_timing_end_s)));
      if (!last_end || judges > *last_end) last_end = judges;
    }
    const bool hot = last_end && std::chrono::duration<double>(start - *last_end).count() < hot_gap_s;
    const double warmup_s = hot ? min_warmup_hot_s : min_warmup_s;
    struct end_mark {
      runner_context& context;
      ~end_mark() { context.last_timing_end = std::chrono::steady_clock::now(); }
    } const mark{context};

    for (std::int64_t i = 0;; ++i) {
      const std::optional<sample_result> r = calls.run({true, i});
      if (!r) return outcome;
      ++answer.warmup_calls;
      const double t = elapsed_s();
      const bool clock_ready = !context.clock.available() ||
                               r->clock.sm_mhz >= warm_clock_fraction * context.clock.max_sm_mhz() ||
                               t >= max_clock_wait_s;
      if (answer.warmup_calls >= min_warmup_calls && t >= warmup_s && clock_ready) break;
    }

    std::vector<double> kept; // [ms] gpu time of the samples taken at an unthrottled clock
    const clock::time_point sampling_start = clock::now();
    const auto sampling_s = [&] { return std::chrono::duration<double>(clock::now() - sampling_start).count(); };
    for (std::int64_t n = 0; n < spec.max_samples; ++n) {
      const std::optional<sample_result> r = calls.run({false, n});
      if (!r) return outcome;
      answer.gpu_ms.push_back(r->gpu_ms);
      answer.host_ms.push_back(r->host_ms);
      answer.sm_clock_mhz.push_back(r->clock.sm_mhz);
      answer.throttled.push_back(r->clock.throttled);
      if (!r->clock.throttled) kept.push_back(r->gpu_ms);
      answer.stop_reason = judge_timing::sampling_stop(spec, n + 1, sampling_s(), elapsed_s(), kept);
      if (answer.stop_reason) break;
    }
    if (!answer.stop_reason) answer.stop_reason = judge_wire::stop_reason::max_samples;
  } catch (const cuda_error& e) {
    outcome.out_of_memory = e.code() == cudaErrorMemoryAllocation;
    answer.status = call_status::cuda_error;
    answer.error = describe(e.code()) + " (in the judge's own work during timing: " + e.what() + ")";
    outcome.context_lost = context_is_corrupted();
  }
  return outcome;
}

} // namespace judge_harness
