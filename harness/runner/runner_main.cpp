// main() of every runner: `runner (--solution FILE.so [--record] [--load-on-request] | --replay
// FATBIN[,FATBIN...]) --scratch DIR [--banned cublas,cublasLt] [--timing cupti|events] [--profiler]
// [--exact-buffers] [--output-window]`, speaking the protocol of docs/architecture.md through common/wire_json.hpp, the
// codec the judge uses too. The runner is the problem's (harness, call shim, GPU reference). It plays one of three
// parts (docs/security.md, "Timing by replay"):
//  - with --solution and --record, the learner's shared object, loaded once CUDA and the channels are set up (so
//    that its static constructors find the harness ready and cannot run before it): checked calls, one of them
//    recorded for replay; it never times, since learner host code shares its address space. With
//    --load-on-request it sets up CUDA, answers "held" and then waits for a "load" request before it loads the
//    object: the judge starts it while the solution before is still graded, and lets its code run only once that
//    one has ended;
//  - with --replay, the solution's device code alone (the fatbins its compile kept): it times recorded work and
//    checks every timed output, and no learner host code ever runs in it;
//  - with --solution alone, trusted code (the judge's baseline): checked and timed in one process.
// Exit status: 0 after "done"; 1 after answering a call that left the CUDA context unusable; 2 when the runner
// itself cannot go on (no fd 3, bad command line, bad request, unwritable scratch folder, a solution that does not
// load); 3 when there is no CUDA device; 4 (syscall_denied_exit_code) after a "denied" answer: the system-call
// filter (syscall_filter.hpp) stopped a call of learner code.
#include "harness/runner/channels.hpp"
#include "harness/call/check_call.hpp"
#include "harness/replay/replay_program.hpp"
#include "harness/record/work_recorder.hpp"
#include "harness/call/runner_context.hpp"
#include "harness/runner/solution_loader.hpp"
#include "harness/call/solve_call.hpp"
#include "harness/runner/syscall_filter.hpp"
#include "harness/call/timing_loop.hpp"
#include "common/wire_json.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace judge_harness {
namespace {

constexpr int exit_done = 0;
constexpr int exit_context_lost = 1;
constexpr int exit_runner_failed = 2;
constexpr int exit_no_device = 3;

const char* const usage = "usage: runner (--solution FILE.so [--record] [--load-on-request] | --replay "
                          "FATBIN[,FATBIN...]) --scratch DIR [--banned NAME[,NAME...]] [--timing cupti|events] "
                          "[--profiler] [--exact-buffers] [--output-window]\n"
                          "  fd 0: requests, fd 3: answers (JSON lines, docs/architecture.md)\n";

std::vector<std::string> split_names(const std::string& list) {
  std::vector<std::string> names;
  std::size_t begin = 0;
  while (begin <= list.size()) {
    const std::size_t end = std::min(list.find(',', begin), list.size());
    if (end > begin) names.push_back(list.substr(begin, end - begin));
    begin = end + 1;
  }
  return names;
}

/// Parses the command line; nullopt (after saying why on stderr) when it is wrong.
std::optional<runner_options> parse_options(int argc, char** argv) {
  runner_options options;
  bool have_scratch = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--profiler") {
      options.under_profiler = true;
      continue;
    }
    if (arg == "--exact-buffers") {
      options.exact_buffers = true;
      continue;
    }
    if (arg == "--record") {
      options.record = true;
      continue;
    }
    if (arg == "--load-on-request") {
      options.load_on_request = true;
      continue;
    }
    if (arg == "--output-window") {
      options.output_window = true;
      continue;
    }
    if ((arg == "--scratch" || arg == "--banned" || arg == "--solution" || arg == "--timing" || arg == "--replay") &&
        i + 1 < argc) {
      const std::string value = argv[++i];
      if (arg == "--scratch") {
        options.scratch = value;
        have_scratch = true;
      } else if (arg == "--solution") {
        options.solution = value;
      } else if (arg == "--banned") {
        options.banned = split_names(value);
      } else if (arg == "--replay") {
        options.replay = true;
        options.device_code = split_names(value);
      } else if (const auto method = judge_wire::from_string<judge_wire::timing_method>(value)) {
        options.timing = *method; // the judge's choice; nothing in the environment overrides it
      } else {
        std::fprintf(stderr, "runner: --timing must be cupti or events, not \"%s\"\n%s", value.c_str(), usage);
        return std::nullopt;
      }
    } else {
      std::fprintf(stderr, "runner: unexpected argument \"%s\"\n%s", arg.c_str(), usage);
      return std::nullopt;
    }
  }
  if (!have_scratch || options.scratch.empty()) {
    std::fprintf(stderr, "runner: --scratch DIR is required\n%s", usage);
    return std::nullopt;
  }
  if (options.solution.empty() == !options.replay) {
    std::fprintf(stderr, "runner: either --solution FILE.so or --replay FATBIN,... is required\n%s", usage);
    return std::nullopt;
  }
  if (options.record && options.solution.empty()) {
    std::fprintf(stderr, "runner: --record goes with --solution\n%s", usage);
    return std::nullopt;
  }
  if (options.load_on_request && options.solution.empty()) {
    std::fprintf(stderr, "runner: --load-on-request goes with --solution\n%s", usage);
    return std::nullopt;
  }
  // A process that runs learner host code holds no clock: CUPTI stays off in it (docs/security.md).
  if (options.record) options.timing = judge_wire::timing_method::events;
  return options;
}

/// The scratch folder, open for the whole run: every output file is created beneath this descriptor,
/// so the folder the judge named is the one written to, whatever later happens to its path.
class scratch_dir {
public:
  explicit scratch_dir(const std::string& path) : m_fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
    if (m_fd < 0) throw std::runtime_error("cannot open the scratch folder " + path + ": " + std::strerror(errno));
  }
  scratch_dir(const scratch_dir&) = delete;
  scratch_dir& operator=(const scratch_dir&) = delete;
  ~scratch_dir() { ::close(m_fd); }
  int fd() const { return m_fd; }

private:
  int m_fd;
};

/// Leaves at once after a lost context, without running exit handlers: the driver's teardown can hang
/// on a corrupted context, and handlers a solution registered must not run in the judge's name.
[[noreturn]] void leave_after_lost_context() {
  std::fflush(nullptr); // the learner's buffered prints still reach the judge
  _exit(exit_context_lost);
}

/// Answers one case: its checks in order until one fails, then its timing if every check was ok. `work` is
/// what timed calls issue: the trusted solve(), a replay of `request.replay_file`, or nothing (a recording runner,
/// which refuses to time).
void run_case(const case_request& request, runner_context& context, result_channel& results, call_work* work) {
  bool all_ok = true;
  for (std::size_t k = 0; k < request.checks.size(); ++k) {
    const check_outcome check = run_check(request, k, context);
    results.send(judge_wire::encode(check.answer));
    if (check.context_lost) leave_after_lost_context();
    if (check.answer.status != call_status::ok) {
      all_ok = false;
      break;
    }
  }
  if (!all_ok || !request.timing) return;
  if (work == nullptr)
    throw std::runtime_error("a runner that runs learner host code does not time: timing is the replaying runner's");
  const timing_outcome timing = run_timing(request, context, *work);
  results.send(judge_wire::encode(timing.answer));
  if (timing.context_lost) leave_after_lost_context();
}

/// Adapts a recording to the timing loop's call_work: bound (replay_program) once the judge's buffers of
/// the timing exist.
class replay_work final : public call_work {
public:
  replay_work(const judge_wire::recorded_work& work, const device_code& code,
              const std::vector<judge_wire::buffer_spec>& buffers)
      : m_work(work), m_code(code), m_buffers(buffers) {}
  void prepare_for_timing() override { m_program.emplace(m_work, m_code, m_buffers); }
  std::string issue(void* const* buffers, const int*, const float*) override { return m_program->issue(buffers); }
  /// Every sample begins from the state the recorded call began with, as the recorded call did: a
  /// solution whose kernels keep state from call to call (a grid barrier's generation word, a counter)
  /// would otherwise find the state one replay left and not the one its parameters expect.
  std::string before_sample(void* const* buffers) override { return m_program->prepare(buffers); }

private:
  const judge_wire::recorded_work& m_work;
  const device_code& m_code;
  const std::vector<judge_wire::buffer_spec>& m_buffers;
  std::optional<replay_program> m_program;
};

/// The recording the judge moved into the scratch folder as `file`: read beneath the folder's
/// descriptor without following a link, at most recording_limits::max_file_bytes (checked while
/// reading), and decoded. Anything wrong with it is the recording's: replay_refusal invalid_recording.
judge_wire::recorded_work read_recording(int scratch_fd, const std::string& file) {
  const auto invalid = [](const std::string& why) {
    return replay_refusal(call_status::invalid_recording, "the recording of solve()'s device work " + why);
  };
  const int fd = ::openat(scratch_fd, file.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) throw invalid("cannot be opened (" + std::string(std::strerror(errno)) + ")");
  std::string text;
  char chunk[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (text.size() + static_cast<std::size_t>(n) > judge_wire::recording_limits::max_file_bytes) {
      ::close(fd);
      throw invalid("is larger than " + std::to_string(judge_wire::recording_limits::max_file_bytes >> 20) +
                    " MiB, the most a recording may be");
    }
    text.append(chunk, static_cast<std::size_t>(n));
  }
  ::close(fd);
  try {
    return judge_wire::decode_recorded_work(text);
  } catch (const judge_wire::protocol_error& e) {
    throw invalid("is malformed: " + std::string(e.what()));
  }
}

/// Answers a timing request of the replaying runner: reads and checks the recording, binds it to the
/// solution's device code, then times it like any call. A recording that cannot be read, checked or bound
/// is a timing answer that says why; the runner goes on with the next case.
void replay_case(const case_request& request, runner_context& context, const device_code& code,
                 result_channel& results) {
  if (!request.timing || !request.replay_file || !request.checks.empty())
    throw std::runtime_error("the replaying runner takes timing requests with recorded work, and no checks");
  timing_outcome timing;
  try {
    const judge_wire::recorded_work recorded = read_recording(context.scratch_fd, *request.replay_file);
    timing.answer.replay_reads_back = recorded.reads_back_before_more_work;
    for (const judge_wire::uncarried_state& u : recorded.uncarried)
      timing.answer.replay_uncarried += (timing.answer.replay_uncarried.empty() ? "" : ", ") + u.what + " (" +
                                        std::to_string(u.bytes) + " bytes)";
    replay_work work(recorded, code, request.buffers);
    const bool reads_back = timing.answer.replay_reads_back;
    const std::string uncarried = timing.answer.replay_uncarried;
    timing = run_timing(request, context, work);
    timing.answer.replay_reads_back = reads_back;
    timing.answer.replay_uncarried = uncarried;
    // The process that ran solve() still holds what solve() allocated while its work is replayed: where
    // the judge's buffers then do not fit, the memory is the solution's, and the case is not timed.
    std::uint64_t allocated = 0;
    for (const judge_wire::recorded_allocation& a : recorded.allocations) allocated += a.bytes;
    if (timing.out_of_memory && allocated >= (1ull << 30)) {
      timing.answer.status = call_status::not_replayable;
      timing.answer.error = "solve() allocates " + std::to_string(allocated >> 20) +
                            " MiB of device memory, which the process that ran it holds while its work is "
                            "replayed; the judge's buffers for timing do not fit beside it";
    }
  } catch (const replay_refusal& refused) {
    timing.answer.case_name = request.name;
    timing.answer.method = context.timer.method();
    timing.answer.cold_l2 = request.timing->cold_l2;
    timing.answer.status = refused.status();
    timing.answer.error = refused.what();
  }
  results.send(judge_wire::encode(timing.answer));
  if (timing.context_lost) leave_after_lost_context();
}

/// Answers "done" and ends the process. Graded, it leaves at once (_exit, after flushing what was printed):
/// nothing it holds needs tearing down, since the kernel releases the GPU context with the process, and the
/// judge waits for the exit before the next solution's code may load, so exit handlers would only add to that
/// wait (and, in a recording runner, run learner code, its static destructors, after its last call). Under a
/// tool (--profiler: Nsight Compute, compute-sanitizer) it returns, for the tool's own exit handlers.
int end_with_done(result_channel& results, const runner_options& options) {
  results.send(judge_wire::encode(judge_wire::done_answer{}));
  if (options.under_profiler) return exit_done;
  std::fflush(nullptr);
  _exit(exit_done);
}

std::optional<std::string> unless_empty(const std::string& text) {
  return text.empty() ? std::nullopt : std::optional<std::string>(text);
}

judge_wire::hello_answer hello_of(runner_context& context) {
  judge_wire::hello_answer hello;
  hello.device = context.device.name;
  hello.cc = context.device.cc;
  hello.sms = context.device.sms;
  hello.l2_bytes = context.device.l2_bytes;
  hello.memory_bytes = context.device.memory_bytes;
  hello.clock_max_mhz = context.clock_max_mhz();
  hello.method = context.timer.method();
  hello.timing_fallback_reason = unless_empty(context.timer.fallback_reason());
  hello.clock = context.clock.available() ? judge_wire::clock_source::nvml : judge_wire::clock_source::none;
  hello.clock_unavailable_reason = unless_empty(context.clock.why_unavailable());
  return hello;
}

int run(int argc, char** argv) {
  std::optional<result_channel> results = result_channel::take_fd3();
  if (!results) {
    std::fprintf(stderr, "runner: fd 3 (the result channel) is not open. The judge starts runners with fd 3 "
                         "open for writing; to try one by hand: ./runner --solution FILE.so --scratch DIR 3>&1\n");
    return exit_runner_failed;
  }
  const std::optional<runner_options> options = parse_options(argc, argv);
  if (!options) return exit_runner_failed;

  try {
    request_channel requests = request_channel::take_stdin();
    // The judge makes the folder; making it here too lets a runner be tried by hand.
    std::filesystem::create_directories(options->scratch);
    const scratch_dir scratch(options->scratch);

    int devices = 0;
    const cudaError_t found = cudaGetDeviceCount(&devices);
    if (found != cudaSuccess || devices == 0) {
      const std::string why = found != cudaSuccess ? cudaGetErrorString(found) : "cudaGetDeviceCount found no device";
      results->send(
          judge_wire::encode(judge_wire::no_device_answer{judge_wire::protocol_version, "no CUDA device: " + why}));
      return exit_no_device;
    }
    constexpr int device = 0;
    JUDGE_CUDA_CHECK(cudaSetDevice(device));
    JUDGE_CUDA_CHECK(cudaFree(nullptr)); // creates the context now, not inside the first solve()
    runner_context context(*options, scratch.fd(), device);
    if (options->output_window) context.outputs.emplace(output_window_map::take_fd4());

    if (!options->under_profiler)
      install_syscall_filter({{requests.fd(), results->fd()}, context.scratch_fd, results->fd()});
    // Held before any learner code: until the judge says "load", this process has only set up CUDA.
    if (options->load_on_request) {
      // Said once the start is over, so that the judge can wait for it before it times another runner.
      results->send(judge_wire::encode(judge_wire::held_answer{}));
      const std::optional<std::string> line = requests.next();
      if (!line) {
        std::fprintf(stderr, "runner: the request channel closed before a \"load\" request\n");
        return exit_runner_failed;
      }
      const judge_wire::request first = judge_wire::decode_request(*line);
      if (std::holds_alternative<judge_wire::end_request>(first)) return end_with_done(*results, *options);
      if (!std::holds_alternative<judge_wire::load_request>(first))
        throw std::runtime_error("a runner started with --load-on-request takes \"load\" or \"end\" first");
    }
    std::optional<device_code> code;
    if (!options->replay) {
      const learner_scope learner; // the solution's static constructors are learner code
      bind_learner_solve(load_solution(options->solution));
    } else {
      code.emplace(options->device_code);
    }
    results->send(judge_wire::encode(hello_of(context)));

    while (const std::optional<std::string> line = requests.next()) {
      const judge_wire::request request = judge_wire::decode_request(*line);
      if (std::holds_alternative<judge_wire::end_request>(request)) return end_with_done(*results, *options);
      if (std::holds_alternative<judge_wire::load_request>(request))
        throw std::runtime_error("a \"load\" request after the solution was loaded");
      const auto& c = std::get<judge_wire::case_request>(request);
      if (code) {
        replay_case(c, context, *code, *results);
      } else {
        run_case(c, context, *results, options->record ? nullptr : &learner_solve_work());
      }
    }
    std::fprintf(stderr, "runner: the request channel closed before an \"end\" request\n");
    return exit_runner_failed;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "runner: %s\n", e.what());
    try {
      results->send(judge_wire::encode(judge_wire::error_answer{e.what()}));
    } catch (const std::exception&) {
      // The judge is gone; stderr already has the reason.
    }
    return exit_runner_failed;
  }
}

} // namespace
} // namespace judge_harness

int main(int argc, char** argv) { return judge_harness::run(argc, argv); }
