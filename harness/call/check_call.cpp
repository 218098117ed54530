#include "harness/call/check_call.hpp"

#include "common/buffer_map.hpp"
#include "common/seconds_into.hpp"
#include "harness/call/call_buffers.hpp"
#include "harness/call/solve_call.hpp"
#include "common/wire_json.hpp"
#include "harness/record/work_recorder.hpp"

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

namespace judge_harness {
namespace {

/// Writes `size` bytes into a new file `name` right inside the scratch folder `scratch_fd`: the name is
/// the judge's, already checked to be a plain name by the codec, and O_EXCL | O_NOFOLLOW refuse anything
/// already there, a link above all.
void write_new_file(int scratch_fd, const std::string& name, const char* bytes, std::size_t size) {
  const int fd = ::openat(scratch_fd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) throw std::runtime_error("cannot create output file " + name + ": " + std::strerror(errno));
  std::size_t written = 0;
  while (written < size) {
    const ssize_t n = ::write(fd, bytes + written, size - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : EIO;
      ::close(fd);
      throw std::runtime_error("cannot write output file " + name + ": " + std::strerror(error));
    }
    written += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) throw std::runtime_error("cannot write output file " + name + ": " + std::strerror(errno));
}

/// Copies output `index` to the host, through `staging` (the memory of the last output, which a large
/// output then need not have zeroed and faulted in again), and writes it as raw little-endian 32-bit
/// elements into the file `name`.
void write_output(const call_buffers& buffers, std::size_t index, int scratch_fd, const std::string& name,
                  std::vector<float>& staging) {
  const guarded_buffer& buffer = buffers.buffer(index);
  staging.resize(buffer.count());
  JUDGE_CUDA_CHECK(cudaMemcpy(staging.data(), buffer.data(), staging.size() * sizeof(float), cudaMemcpyDeviceToHost));
  write_new_file(scratch_fd, name, reinterpret_cast<const char*>(staging.data()), staging.size() * sizeof(float));
}

/// The judge's buffers of a call, as the work recorder resolves pointers against them.
std::vector<judge_region> regions_of(const call_buffers& buffers) {
  std::vector<judge_region> regions;
  for (std::size_t b = 0; b < buffers.specs().size(); ++b)
    regions.push_back({buffers.buffer(b).data(), buffers.buffer(b).count() * sizeof(float)});
  return regions;
}

/// The buffer map a sanitizer's addresses are read against (common/buffer_map.hpp), on stderr, flushed
/// before solve() runs so that it is there even if solve() brings the process down.
void print_buffer_map(const call_buffers& buffers) {
  for (std::size_t b = 0; b < buffers.specs().size(); ++b) {
    const guarded_buffer& buffer = buffers.buffer(b);
    const judge_wire::buffer_place place{buffers.specs()[b].name, reinterpret_cast<std::uintptr_t>(buffer.data()),
                                         buffer.count() * sizeof(float)};
    std::fprintf(stderr, "%s\n", judge_wire::buffer_map_line(place).c_str());
  }
  std::fflush(stderr);
}

} // namespace

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
    const auto inputs_began = std::chrono::steady_clock::now();
    call_buffers buffers(request.buffers, false, context.options.layout());
    buffers.prepare(check.seed, check.poison);
    answer.inputs_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - inputs_began).count();
    if (context.options.exact_buffers) print_buffer_map(buffers);
    work_recorder& recorder = work_recorder::instance();
    if (check.record_file) recorder.begin(regions_of(buffers));
    const solve_observation seen =
        call_solve(learner_solve_work(), buffers.solve_arguments(), request.sizes.data(), request.scalars.data(), context,
                   call_kind::checked);
    const std::optional<recording> recorded =
        check.record_file ? std::optional<recording>(recorder.end()) : std::nullopt;
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

    // The codec has checked that there is one file name per output buffer.
    {
      const judge_phases::seconds_into writing_outputs{answer.outputs_s};
      std::size_t output = 0;
      for (std::size_t b = 0; b < request.buffers.size(); ++b) {
        if (!request.buffers[b].is_result()) continue;
        const std::size_t k = output++;
        const std::string& name = check.output_files.at(k);
        if (check.output_offsets.empty()) {
          write_output(buffers, b, context.scratch_fd, name, context.output_staging);
        } else {
          if (!context.outputs)
            throw std::runtime_error("the request puts output " + name +
                                     " into an output window, and this runner was given none (--output-window)");
          const guarded_buffer& buffer = buffers.buffer(b);
          context.outputs->copy_from_device(buffer.data(), buffer.count() * sizeof(float), check.output_offsets.at(k),
                                            name);
        }
        answer.outputs.push_back(name);
      }
    }
    if (recorded && answer.status == call_status::ok) {
      if (recorded->not_replayable) {
        answer.not_replayable = recorded->not_replayable;
      } else {
        const std::string text = judge_wire::encode_recorded_work(recorded->work);
        write_new_file(context.scratch_fd, *check.record_file, text.data(), text.size());
        answer.recorded = true;
      }
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
