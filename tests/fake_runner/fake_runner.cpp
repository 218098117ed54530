// A stand-in for the runner, for testing the judge's side of every verdict without a GPU. It speaks the
// protocol through the codec the real runner uses (common/wire_json.hpp) and computes "solve()" on the
// CPU as the element-wise sum of the inputs (right for vector_add), then does what its scenario says.
//
//   fake_runner SCENARIO --scratch DIR [--banned NAMES] [--timing cupti|events] [--output-window]
//
// It says it times by the method --timing names (cupti by default), in its hello and its timings, as
// the real runner does when the method is available.
//
// Scenarios: ok, wrong (element 3 of each output is 42), unwritten (element 3 keeps the check's poison),
// noise (non-JSON lines on fd 3 before every answer), exit_before_hello, exit_in_solve (exit(0) instead
// of answering), segfault, hang, wrong_case (answers for case "other"), cuda_error (then exits 1),
// banned, short_output (outputs one element short), no_status (check answers without "status"),
// no_device, old_protocol (hello of protocol 1), error_answer (an "error" answer, then exits 2),
// timing_wrong (timed runs with mismatches), timing_hang, no_cupti (times with events whatever --timing
// says, as a runner does when CUPTI cannot start), foreign_output (right outputs, but in files
// of its own naming, which its answers list), linked_output (each output file the judge named is a
// symbolic link to a file with the right values outside the scratch folder, in its parent), denied (a
// "denied" answer for clone in place of the check answer, then exits 4, as the system-call filter does),
// denied_before_hello (the same in place of the hello, as from a static constructor), sigsys (killed by
// SIGSYS, as a runner whose handler was blocked), not_replayable (a recorded check says its work cannot
// be replayed), foreign_kernel (as the replaying runner, every timing says a kernel is not the
// solution's), garbled (a partial line on fd 3 in front of every answer, as learner code writing on the
// channel would), slow_checks (as ok, each check answered after 0.2 s), wrong_beyond, segfault_beyond and
// cuda_error_beyond (as ok, but wrong, killed by SIGSEGV or a cuda_error on the cases whose names start
// with "beyond", as a solution that fails only past a problem's limits), segfault_beyond_wrong_second_check
// (as segfault_beyond, and wrong on the second checked call of the cases whose names start with "n_"),
// wrong_then_segfault (the first checked call of a case wrong, then killed by SIGSEGV in the second),
// forged_phases (as ok, but its
// timings claim a day spent in the GPU reference), check_phases (as ok, each check spending 1 ms making its
// inputs and 1 ms writing its outputs, and saying so), forged_check_phases (as ok, each check claiming a
// day making its inputs and a day writing its outputs), slow_exit (as ok, but after "end" it prints a line,
// answers "done" and goes on for 1 s, logging "alive" every 10 ms, before it exits), claims_unwritten (as ok,
// but it writes no output and says each one is ready, as a runner whose copies learner code had undone),
// shrinks_window (as ok, after trying to truncate and to grow the output window, reporting on stderr what
// the system answered).
//
// With --load-on-request it answers "held" and waits, as the real runner does, for "load" (or "end")
// before anything of its scenario happens. With --event-log FILE it appends "EVENT ROLE PID NANOSECONDS"
// lines to FILE: start, held, load (where the real runner loads the solution), hello, case (a case request
// came, checks or timing), end, alive and exit (slow_exit).
//
// A check that names a record_file gets one: a recording of one launch of "fake_kernel" with the judge's
// first buffer as its parameter, as the recording runner writes (common/recorded_work.hpp).
#include "common/datagen.h"
#include "common/wire_json.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

using namespace judge_wire;

struct fake {
  std::string scenario;
  std::string role;      ///< "recording" (--record), "replaying" (--replay) or "trusted"
  std::string event_log; ///< --event-log FILE: where "EVENT ROLE PID NANOSECONDS" lines are appended
  std::string scratch;
  timing_method method = timing_method::cupti;
  int scratch_fd = -1;
  std::FILE* results = nullptr;
  /// --output-window: the judge's window, mapped from fd 4 as the real runner maps it.
  unsigned char* window = nullptr;
  std::size_t window_bytes = 0;

  /// Maps fd 4 and closes it; shrinks_window first tries to resize it, as a hostile runner would, and
  /// says on stderr what the system answered.
  void map_window() {
    struct stat st {};
    if (::fstat(4, &st) != 0 || st.st_size <= 0) std::exit(2);
    window_bytes = static_cast<std::size_t>(st.st_size);
    if (scenario == "shrinks_window") {
      const int shrink = ::ftruncate(4, 0) == 0 ? 0 : errno;
      const int grow = ::ftruncate(4, st.st_size * 2) == 0 ? 0 : errno;
      std::fprintf(stderr, "window: shrinking %s, growing %s\n", shrink ? std::strerror(shrink) : "done",
                   grow ? std::strerror(grow) : "done");
      std::fflush(stderr);
    }
    void* at = ::mmap(nullptr, window_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, 4, 0);
    if (at == MAP_FAILED) std::exit(2);
    window = static_cast<unsigned char*>(at);
    ::close(4);
  }

  /// Appends "EVENT ROLE PID NANOSECONDS" (the monotonic clock) to the event log, if there is one:
  /// start (the process began), load (where the real runner loads the solution), end (the "end" request).
  void log_event(const char* event) const {
    if (event_log.empty()) return;
    const auto ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count();
    std::FILE* log = std::fopen(event_log.c_str(), "a");
    if (log == nullptr) std::exit(2);
    std::fprintf(log, "%s %s %d %lld\n", event, role.c_str(), static_cast<int>(::getpid()), static_cast<long long>(ns));
    std::fclose(log);
  }

  void send_line(const std::string& line) const {
    std::fprintf(results, "%s\n", line.c_str());
    std::fflush(results);
  }
  template <typename Message> void send(const Message& message) const {
    if (scenario == "noise") send_line("this is not JSON {");
    if (scenario == "garbled") {
      std::fprintf(results, "{\"type\":\"timing\",\"case\":");
      std::fflush(results);
    }
    send_line(encode(message));
  }

  static void write_text(int dir_fd, const std::string& name, const std::string& text) {
    const int fd = ::openat(dir_fd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    const auto bytes = static_cast<ssize_t>(text.size());
    if (fd < 0 || ::write(fd, text.data(), text.size()) != bytes || ::close(fd) != 0) std::exit(2);
  }

  static void write_file(int dir_fd, const std::string& name, const std::vector<float>& values) {
    const int fd = ::openat(dir_fd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    const auto bytes = static_cast<ssize_t>(values.size() * sizeof(float));
    if (fd < 0 || ::write(fd, values.data(), static_cast<std::size_t>(bytes)) != bytes || ::close(fd) != 0) {
      std::fprintf(stderr, "fake runner: cannot write %s: %s\n", name.c_str(), std::strerror(errno));
      std::exit(2);
    }
  }

  /// Whether `c` is one of the cases the *_beyond scenarios fail: past a problem's limits, by its name.
  static bool beyond(const case_request& c) { return c.name.rfind("beyond", 0) == 0; }

  /// Outputs of check `k` of `c`, as the scenario has them.
  std::vector<std::vector<float>> solve(const case_request& c, std::size_t k) const {
    std::vector<float> sum;
    for (std::size_t b = 0; b < c.buffers.size(); ++b) {
      const buffer_spec& spec = c.buffers[b];
      if (!spec.is_input()) continue;
      sum.resize(spec.count, 0.0f);
      for (std::size_t i = 0; i < spec.count; ++i)
        sum[i] += spec.data ? (*spec.data)[i]
                            : judge_data::generate(*spec.dist, c.checks[k].seed, static_cast<std::uint32_t>(b), i,
                                                   spec.count);
    }
    std::vector<std::vector<float>> outputs;
    for (const buffer_spec& spec : c.buffers) {
      if (spec.is_input()) continue;
      std::vector<float> out = sum;
      out.resize(spec.count, 0.0f);
      const std::size_t at = out.size() > 3 ? 3 : out.size() - 1;
      if (scenario == "wrong" || scenario == "wrong_then_segfault" || (scenario == "wrong_beyond" && beyond(c)))
        out[at] = 42.0f;
      if (scenario == "wrong_second_check_beyond" && beyond(c) && k == 1) out[at] = 42.0f;
      if (scenario == "segfault_beyond_wrong_second_check" && c.name.rfind("n_", 0) == 0 && k == 1) out[at] = 42.0f;
      if (scenario == "unwritten") out[at] = poison_value(c.checks[k].poison);
      if (scenario == "short_output") out.pop_back();
      outputs.push_back(std::move(out));
    }
    return outputs;
  }

  check_answer check(const case_request& c, std::size_t k) const {
    check_answer a;
    a.case_name = scenario == "wrong_case" ? "other" : c.name;
    a.check = k;
    a.host_ms = 0.25;
    if (scenario == "cuda_error" || (scenario == "cuda_error_beyond" && beyond(c))) {
      a.status = call_status::cuda_error;
      a.error = "cudaErrorIllegalAddress: an illegal memory access was encountered (after solve())";
      return a;
    }
    if (scenario == "banned") {
      a.status = call_status::banned_library;
      a.banned_loaded = {"cublas"};
      a.error = "solve() loaded a banned library: libcublas.so.13 (cublas)";
      return a;
    }
    // The real runner's split of a checked call, spent as it spends it, inside the judge's wait.
    if (scenario == "check_phases") {
      std::this_thread::sleep_for(std::chrono::microseconds(2000));
      a.inputs_s = a.outputs_s = 0.001;
    } else if (scenario == "forged_check_phases") {
      a.inputs_s = a.outputs_s = 86400;
    }
    const auto outputs = solve(c, k);
    for (std::size_t o = 0; o < outputs.size(); ++o) {
      // As the real runner does: a new file, under the judge's name, right in the scratch folder; or into
      // the output window at the judge's offset, when the request gives one.
      std::string file = c.checks[k].output_files.at(o);
      if (scenario == "foreign_output") file = "mine." + file;
      if (scenario == "claims_unwritten") { // says each output is ready and writes none
      } else if (!c.checks[k].output_offsets.empty()) {
        const std::uint64_t at = c.checks[k].output_offsets.at(o);
        const std::size_t bytes = outputs[o].size() * sizeof(float);
        if (window == nullptr || at > window_bytes || bytes > window_bytes - at) {
          std::fprintf(stderr, "fake runner: output %s does not fit the output window\n", file.c_str());
          std::exit(2);
        }
        std::memcpy(window + at, outputs[o].data(), bytes);
      } else if (scenario == "linked_output") {
        const std::string outside = scratch + "/../outside." + file;
        write_file(AT_FDCWD, outside, outputs[o]);
        if (::symlinkat(outside.c_str(), scratch_fd, file.c_str()) != 0) std::exit(2);
      } else {
        write_file(scratch_fd, file, outputs[o]);
      }
      a.outputs.push_back(file);
    }
    if (const auto& record = c.checks[k].record_file) {
      if (scenario == "not_replayable") {
        a.not_replayable = "solve() calls cudaMemcpy2D(), whose device work the judge cannot replay to time it";
      } else {
        recorded_work work;
        recorded_launch launch;
        launch.kernel = "fake_kernel";
        launch.parameters.assign(8, '\0');
        launch.relocations.push_back({0, device_address{region_kind::buffer, 0, "", 0}});
        work.steps.push_back(launch);
        write_text(scratch_fd, *record, encode_recorded_work(work));
        a.recorded = true;
      }
    }
    return a;
  }

  timing_answer timing(const case_request& c) const {
    timing_answer t;
    t.case_name = c.name;
    t.method = method;
    t.cold_l2 = c.timing->cold_l2;
    for (int n = 0; n < c.timing->min_samples; ++n) {
      t.gpu_ms.push_back(0.5 + 0.001 * n);
      t.host_ms.push_back(0.6);
      t.sm_clock_mhz.push_back(1980);
      t.throttled.push_back(false);
    }
    t.warmup_calls = 3;
    t.checked_samples = c.timing->min_samples + 3;
    t.stop_reason = judge_wire::stop_reason::precision;
    // The real runner's split of its timing, spent as the real runner spends it, inside the judge's wait
    // for this answer; forged_phases claims a day spent on the GPU reference.
    t.inputs_s = 0.001;
    t.reference_s = scenario == "forged_phases" ? 86400 : 0.002;
    std::this_thread::sleep_for(std::chrono::microseconds(3000));
    if (scenario == "foreign_kernel") {
      t = timing_answer{};
      t.case_name = c.name;
      t.status = call_status::foreign_kernel;
      t.error = "solve() launched cublasSgemm_kernel, which is not in the device code compiled from your sources";
      return t;
    }
    if (scenario == "timing_wrong") {
      t.mismatched_samples = 2;
      t.first_mismatch = sample_mismatch{{false, 4}, "C", 7, 0.0f, 1.5f};
    }
    return t;
  }

  void run_case(const case_request& c) const {
    log_event("case");
    if (scenario == "exit_in_solve") std::exit(0);
    if (scenario == "segfault" || ((scenario == "segfault_beyond" || scenario == "segfault_beyond_wrong_second_check") &&
                                   beyond(c))) {
      std::signal(SIGSEGV, SIG_DFL);
      std::raise(SIGSEGV);
    }
    if (scenario == "hang" || (scenario == "timing_hang" && c.timing))
      std::this_thread::sleep_for(std::chrono::seconds(600));
    if (scenario == "error_answer") {
      send(error_answer{"cannot create output file /nowhere/0.0.C.bin: No such file or directory"});
      std::exit(2);
    }
    if (scenario == "denied") {
      send(denied_answer{"clone", "no new processes (threads are fine)"});
      std::_Exit(4);
    }
    if (scenario == "sigsys") {
      std::signal(SIGSYS, SIG_DFL);
      std::raise(SIGSYS);
    }
    std::printf("solve() of case %s\n", c.name.c_str()); // the learner's print, captured by the judge
    std::fflush(stdout);
    for (std::size_t k = 0; k < c.checks.size(); ++k) {
      if (scenario == "slow_checks") std::this_thread::sleep_for(std::chrono::milliseconds(200));
      if (scenario == "wrong_then_segfault" && k == 1) {
        std::signal(SIGSEGV, SIG_DFL);
        std::raise(SIGSEGV);
      }
      const check_answer a = check(c, k);
      if (scenario == "no_status") {
        json j = to_json(a);
        j.erase("status");
        send_line(j.dump());
      } else {
        send(a);
      }
      if (a.status == call_status::cuda_error) std::exit(1);
      if (a.status != call_status::ok) return;
    }
    if (c.timing) send(timing(c));
  }
};

} // namespace

int main(int argc, char** argv) {
  fake f;
  if (argc < 2) return 2;
  f.scenario = argv[1];
  bool load_on_request = false;
  std::string role = "trusted";
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--load-on-request") load_on_request = true;
    if (arg == "--record") role = "recording";
    if (arg == "--replay") role = "replaying";
    if (arg == "--event-log" && i + 1 < argc) f.event_log = argv[i + 1];
    if (arg == "--output-window") f.map_window();
  }
  f.role = role;
  f.log_event("start");
  // The first runner of the scenario to start dies before it is set up, as one whose CUDA start failed
  // (no memory left beside another process) would; the ones after start normally. The mark lies beside
  // the event log.
  if (f.scenario == "start_fails_once" && !f.event_log.empty()) {
    const std::string mark = f.event_log + ".failed-once";
    const int fd = ::open(mark.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
      ::close(fd);
      f.log_event("died");
      return 1;
    }
  }
  for (int i = 2; i + 1 < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--scratch") f.scratch = argv[i + 1];
    if (arg == "--timing") {
      const auto method = from_string<timing_method>(argv[i + 1]);
      if (!method) return 2;
      f.method = *method;
    }
  }
  f.results = fdopen(3, "w");
  if (f.results == nullptr || f.scratch.empty()) return 2;
  f.scratch_fd = ::open(f.scratch.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (f.scratch_fd < 0) return 2;
  // Held as the real runner is, before anything its "solution" does: until "load", or "end" in its place.
  std::string line;
  if (load_on_request) {
    f.log_event("held");
    f.send(held_answer{});
    if (!std::getline(std::cin, line)) return 2;
    try {
      const request first = decode_request(line);
      if (std::holds_alternative<end_request>(first)) {
        f.log_event("end");
        f.send(done_answer{});
        return 0;
      }
      if (!std::holds_alternative<load_request>(first)) return 2;
    } catch (const protocol_error&) {
      return 2;
    }
  }
  f.log_event("load"); // where the real runner loads the solution, whose static constructors are learner code
  if (f.scenario == "exit_before_hello") return 0;
  if (f.scenario == "denied_before_hello") {
    f.send(denied_answer{"socket", "no sockets or network"});
    return 4;
  }
  if (f.scenario == "no_device") {
    f.send(no_device_answer{protocol_version, "no CUDA device: the fake runner has none"});
    return 3;
  }
  if (f.scenario == "no_cupti") f.method = timing_method::events;
  hello_answer hello;
  hello.protocol = f.scenario == "old_protocol" ? 1 : protocol_version;
  hello.device = "Fake GPU";
  hello.cc = "9.0";
  hello.sms = 1;
  hello.method = f.method;
  f.log_event("hello");
  f.send(hello);
  while (std::getline(std::cin, line)) {
    try {
      const request r = decode_request(line);
      if (std::holds_alternative<end_request>(r)) {
        f.log_event("end");
        if (f.scenario == "slow_exit") {
          std::printf("printed before done\n");
          std::fflush(stdout);
        }
        f.send(done_answer{});
        if (f.scenario == "slow_exit") { // code that goes on after "done", as a forged "done" would let it
          for (int i = 0; i < 100; ++i) {
            f.log_event("alive");
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
          }
          f.log_event("exit");
        }
        return 0;
      }
      if (std::holds_alternative<load_request>(r)) {
        f.send(error_answer{"a \"load\" request after the solution was loaded"});
        return 2;
      }
      f.run_case(std::get<case_request>(r));
    } catch (const protocol_error& e) {
      f.send(error_answer{e.what()});
      return 2;
    }
  }
  return 2;
}
