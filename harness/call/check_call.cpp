#include "check_call.hpp"

#include "call_buffers.hpp"
#include "solve_call.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>

namespace judge_harness {
namespace {

/// Copies output `index` to the host and writes it as raw little-endian float32.
void write_output(const call_buffers& buffers, std::size_t index, const std::string& path) {
  const guarded_buffer& buffer = buffers.buffer(index);
  std::vector<float> host(buffer.count());
  JUDGE_CUDA_CHECK(cudaMemcpy(host.data(), buffer.data(), host.size() * sizeof(float), cudaMemcpyDeviceToHost));
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "wb"), &std::fclose);
  if (!file) throw std::runtime_error("cannot create output file " + path + ": " + std::strerror(errno));
  if (std::fwrite(host.data(), sizeof(float), host.size(), file.get()) != host.size() || std::fflush(file.get()) != 0)
    throw std::runtime_error("cannot write output file " + path + ": " + std::strerror(errno));
}

} // namespace

std::string output_path(const std::string& scratch, std::int64_t case_index, std::size_t check,
                        const std::string& buffer) {
  const std::string file = std::to_string(case_index) + "." + std::to_string(check) + "." + buffer + ".bin";
  return (std::filesystem::path(scratch) / file).string();
}

check_outcome run_check(const case_request& request, std::size_t index, runner_context& context) {
  const judge_wire::check_spec& check = request.checks.at(index);
  check_outcome outcome;
  judge_wire::check_answer& answer = outcome.answer;
  answer.case_name = request.name;
  answer.check = index;
  try {
    const cudaError_t pending = settle_device();
    if (pending != cudaSuccess) {
      answer.status = call_status::cuda_error;
      answer.error = describe(pending) + " (pending before solve() was called: left by an earlier call)";
      outcome.context_lost = context_is_corrupted();
      return outcome;
    }

    // Fresh buffers for every call: a solution cannot find the previous call's result where it left it.
    call_buffers buffers(request.buffers, false);
    buffers.prepare(check.seed, check.poison);
    const solve_observation seen =
        call_solve(buffers.solve_arguments(), request.sizes.data(), context, call_kind::checked);
    answer.host_ms = seen.host_ms;
    if (!seen.error.empty()) {
      answer.status = call_status::cuda_error;
      answer.error = seen.error;
      outcome.context_lost = seen.context_lost;
      if (seen.context_lost) buffers.abandon();
      return outcome;
    }

    for (std::size_t b = 0; b < request.buffers.size(); ++b) {
      const buffer_spec& spec = request.buffers[b];
      for (const guard_violation& v : buffers.buffer(b).find_violations())
        answer.guard_violations.push_back({spec.name, v});
      if (spec.is_input()) {
        const mismatch_summary changed =
            context.comparator.count_differences(buffers.buffer(b).data(), buffers.shadow(b), spec.count);
        if (changed.count > 0) answer.inputs_modified.push_back({spec.name, changed.first_index});
      }
    }

    for (const loaded_library& l : seen.banned_loaded) answer.banned_loaded.push_back(l.banned_name);
    answer.stray_threads = seen.stray_threads;
    if (!seen.banned_loaded.empty()) {
      answer.status = call_status::banned_library;
      answer.error = banned_library_message(seen.banned_loaded, "");
    } else if (!seen.stray_threads.empty()) {
      answer.status = call_status::stray_work;
      answer.error = stray_threads_message(seen.stray_threads, "");
    }

    for (std::size_t b = 0; b < request.buffers.size(); ++b) {
      const buffer_spec& spec = request.buffers[b];
      if (spec.is_input()) continue;
      const std::string path = output_path(context.options.scratch, request.case_index, index, spec.name);
      write_output(buffers, b, path);
      answer.outputs.push_back({spec.name, path});
    }
    // Checked calls are not timed, but CUPTI records them all the same: drop them now.
    context.timer.discard_history();
  } catch (const cuda_error& e) {
    answer.status = call_status::cuda_error;
    answer.error =
        describe(e.code()) + " (in the judge's own work for check " + std::to_string(index) + ": " + e.what() + ")";
    outcome.context_lost = context_is_corrupted();
  }
  return outcome;
}

} // namespace judge_harness
