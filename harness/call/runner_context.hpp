// Everything a runner sets up once and every call of solve() uses.
#pragma once

#include "harness/call/output_window_map.hpp"
#include "harness/call/process_watch.hpp"
#include "harness/cuda/compare.cuh"
#include "harness/cuda/device_facts.hpp"
#include "harness/cuda/device_health.hpp"
#include "harness/cuda/guarded_buffer.hpp"
#include "harness/cuda/nvml_clock.hpp"
#include "harness/timing/l2_flush.hpp"
#include "harness/timing/solve_timer.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace judge_harness {

/// The runner's command line.
struct runner_options {
  std::string solution;                        ///< the shared object (solution.so) to load, if any
  /// --record: `solution` is the learner's; checked calls whose request names a record_file are recorded,
  /// and timing requests are refused.
  bool record = false;
  /// --load-on-request: once CUDA and the filter are set up, wait for a "load" request before loading
  /// `solution`, so that the judge can start the process ahead of its turn while no learner code of it
  /// runs (an "end" request in its place ends it, having loaded nothing).
  bool load_on_request = false;
  /// --replay: the solution's device code (fatbin files, perhaps none); no shared object is loaded.
  bool replay = false;
  std::vector<std::string> device_code;
  std::string scratch;                         ///< folder the output files of checked calls go to
  std::vector<std::string> banned;             ///< library names solve() may not load ("cublas")
  timing_method timing = timing_method::cupti; ///< the method the judge asked for (--timing)
  /// --profiler: started under a profiler (Nsight Compute), whose injected library talks to its front end
  /// over sockets the system-call filter denies: the filter is not installed. Never set by grading.
  bool under_profiler = false;
  /// --exact-buffers: for a sanitizer. Each buffer is an allocation of exactly its size (no guards, so an
  /// overrun leaves the allocation where the sanitizer sees it), and each checked call prints its buffer
  /// map on stderr (common/buffer_map.hpp). Never set by grading: guards see what exact buffers cannot.
  bool exact_buffers = false;
  /// --output-window: fd 4 holds the judge's output window; a checked call whose request gives output
  /// offsets copies its outputs there instead of into files (output_window_map.hpp).
  bool output_window = false;

  buffer_layout layout() const { return exact_buffers ? buffer_layout::exact : buffer_layout::guarded; }
};

/// Members are listed in the order they must be set up; the CUDA context must exist before.
struct runner_context {
  runner_context(runner_options runner_options_, int scratch_dir_fd, int cuda_device)
      : options(std::move(runner_options_)), scratch_fd(scratch_dir_fd), device(query_device(cuda_device)),
        clock(cuda_device), timer(options.timing), flush(static_cast<std::size_t>(device.l2_bytes)),
        harness_threads(list_threads()) {}

  runner_options options;
  /// The scratch folder, opened once at start (owned by main): output files are created beneath it,
  /// under the judge's names, and nowhere else. The syscall filter protects it.
  int scratch_fd = -1;
  device_facts device;
  nvml_clock clock;
  solve_timer timer;
  reset_sentinel sentinel;
  device_comparator comparator;
  l2_flush flush;
  /// The threads alive once the driver, CUPTI and NVML are set up and have run work, before any learner
  /// code: any other thread alive after a call of solve() is the solution's.
  std::vector<thread_entry> harness_threads;
  /// When this process last ended a case's timing: a case timed right after another finds the GPU
  /// warm and its clock up, and warms up for less (timing_loop.cpp).
  std::optional<std::chrono::steady_clock::time_point> last_timing_end;
  /// Host memory an output is copied through on its way to its file, kept from call to call (check_call.cpp).
  std::vector<float> output_staging;
  /// The judge's output window, with --output-window (mapped by main before any learner code runs).
  std::optional<output_window_map> outputs;

  /// [MHz] the maximum SM clock: NVML's when it is available, else what CUDA reports.
  double clock_max_mhz() const { return clock.available() ? clock.max_sm_mhz() : device.clock_rate_mhz; }
};

} // namespace judge_harness
