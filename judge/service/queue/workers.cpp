#include "judge/service/queue/workers.hpp"

#include "judge/grading/interrupt.hpp"
#include "judge/sanitizer/sanitizer_json.hpp"
#include "judge/service/queue/service_state.hpp"
#include "judge/service/queue/submission_explanation.hpp"

#include "judge/run/gpu_lock.hpp"
#include "judge/sandbox/helper_process.hpp"
#include "judge/sandbox/process.hpp"

#include <fmt/format.h>

#include <chrono>
#include <map>
#include <optional>
#include <system_error>

namespace judge::service {

std::string gpu_worker_name(const std::string& uuid) { return "gpu " + uuid; }

namespace {
/// Runs `step` until it succeeds or `stop` is set. A store that cannot be written (a full disk, an I/O
/// error) is waited out: an exception escaping a worker thread would end the whole server, and under
/// Restart=on-failure it would start, recover and die again in a loop. Returns false when stopped first;
/// what `step` was to record then stays as the store last had it (in progress), and the next start puts it
/// back in the queue.
template <typename F>
bool until_stored(const std::atomic<bool>& stop, const std::string& what, const log_fn& log, F&& step) {
  for (int attempt = 0;; ++attempt) {
    try {
      step();
      if (attempt > 0) log(what + ": stored after " + std::to_string(attempt) + " retries");
      return true;
    } catch (const std::exception& e) {
      if (attempt == 0) log(what + ": the store cannot be written (" + e.what() + "); trying again every 5 s");
    }
    for (int i = 0; i < 50 && !stop; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (stop) return false;
  }
}
} // namespace

void compile_loop(service_state& shared, const std::string& name, bool no_gpu, const grading_setup& setup,
                  const log_fn& log) {
  grading_setup mine = setup;
  mine.compile_only = !no_gpu;
  // The compile threads share one memo: a compile needs only the GPU's architecture, which a probe per
  // submission would ask again each time.
  static device_memo compile_devices;
  if (!mine.devices) mine.devices = &compile_devices;
  while (!shared.stopping()) {
    std::optional<submission> s;
    if (!until_stored(shared.stopping(), name + ": claiming a submission", log, [&] {
          s = shared.with_store([&](store_connection& c) { return c.queue.claim_for_compile(name); });
        }))
      break;
    if (!s) {
      shared.wait_for_queued(1.0); // polls too: `judge worker` or another server may share the store
      continue;
    }
    const graded g = grade_submission(*s, mine);
    state now = state::queued;
    if (!until_stored(shared.stopping(), "submission " + std::to_string(s->id), log, [&] {
          now = shared.with_store([&](store_connection& c) { return settle(c.queue, *s, g, mine.compile_only); });
        }))
      break;
    if (now == state::compiled) shared.notify_compiled();
    log("submission " + std::to_string(s->id) + " (" + s->account + ", " + s->problem + "): " + state_name(now) +
        (g.failure.empty() ? "" : ": " + g.failure));
  }
}

namespace {
/// How long before a kept probe answer grows old (device_memo) an idle worker probes again, and how long it
/// waits after an attempt, answered or not, before the next.
constexpr std::chrono::seconds probe_refresh_margin{60};

/// Probes the worker's GPU while it has nothing to grade, at its start and whenever the kept answers are
/// about to grow old, so that no batch waits for the two probes (0.6 to 1.5 s on an H200, which a class's
/// first submission paid). The bandwidth probe times the GPU: it runs only under the GPU's lock.
void refresh_probes(device_memo& devices, const std::atomic<bool>& stop, const log_fn& log, const std::string& name) {
  const bool plain_due = devices.expires_within(probe_refresh_margin, false);
  const probe_result plain = plain_due ? devices.probe_now(false) : devices.probe(false);
  if (!plain.device) {
    if (plain_due) log(name + ": GPU probed while idle: " + plain.error);
    return;
  }
  if (stop || !devices.expires_within(probe_refresh_margin, true)) return;
  const gpu_lock lock(gpu_lock_dir(), plain.device->uuid, "judge worker: measuring the GPU's bandwidth", {}, &stop);
  if (!lock.held()) return;
  const probe_result measured = devices.probe_now(true);
  log(measured.device ? fmt::format("{}: GPU probed while idle: {}, copy bandwidth {:.0f} GB/s", name,
                                    measured.device->name, measured.device->measured_bandwidth_gbps)
                      : name + ": GPU probed while idle: the bandwidth probe failed: " + measured.error);
}

/// How often, while an explanation runs, the worker looks for a submission to grade.
constexpr std::chrono::milliseconds give_way_poll{100};

/// Runs and stores the explanation of `s`, which this worker holds (claim_explanation), and logs it. A
/// submission compiled meanwhile is graded first: the explanation gives way (its tool's run is killed, with
/// everything else this process started) and stays pending, to start again when the GPU has nothing to
/// grade. So grading never waits for an explanation longer than one look at the queue and a kill.
void explain_one(const std::filesystem::path& db, submission_queue& queue, const submission& s,
                 const grading_setup& setup, const std::atomic<bool>& stop, const log_fn& log,
                 const std::string& name) {
  const auto began = std::chrono::steady_clock::now();
  std::atomic<bool> give_way{false}, finished{false};
  std::thread watch([&] {
    try {
      results_db own(db); // a connection per thread
      submission_queue waiting(own);
      while (!finished && !stop) {
        if (give_way || waiting.count(state::compiled) > 0) {
          give_way = true;
          // Again at every look until the explanation returns: a tool started just before it saw the
          // flag goes too. Its only children are the explanation's (the worker does one thing at a time).
          kill_all_children();
        }
        std::this_thread::sleep_for(give_way_poll);
      }
    } catch (const std::exception&) {
      // The store cannot be read now: the explanation runs to its bound, as if nothing waited.
    }
  });
  grading_setup mine = setup;
  mine.give_way = &give_way;
  const graded g = explain_submission(s, mine);
  finished = true;
  watch.join();
  const std::string who = "submission " + std::to_string(s.id);
  if (g.interrupted) {
    if (stop) return; // the worker's own release gives it back
    until_stored(stop, name + ": " + who, log, [&] { queue.release(name); });
    log(fmt::format("{}: {} ({}, {}): compute-sanitizer's explanation gave way to a submission to grade; it runs "
                    "again when the GPU is free",
                    name, who, s.account, s.problem));
    return;
  }
  explanation_state now = explanation_state::pending;
  if (!until_stored(stop, name + ": " + who, log, [&] { now = settle_explanation(queue, s, g); })) return;
  log(fmt::format("{}: {} ({}, {}): compute-sanitizer's explanation {} in {:.2f} s{}", name, who, s.account, s.problem,
                  explanation_state_name(now),
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count(),
                  g.failure.empty() ? "" : ": " + g.failure));
}
} // namespace

void gpu_worker_loop(const std::filesystem::path& db, const grading_setup& setup, const std::string& uuid,
                     const std::atomic<bool>& stop, const log_fn& log, std::size_t max_batch, double poll_seconds) {
  results_db store(db);
  submission_queue queue(store);
  const std::string name = gpu_worker_name(uuid);
  grading_setup mine = setup;
  mine.compile_only = false;
  mine.explain_failures = true;
  device_memo devices; // this worker's GPU, probed once per ten minutes rather than once per batch
  if (!mine.devices) mine.devices = &devices;
  log(name + ": waiting for compiled submissions");
  std::optional<std::chrono::steady_clock::time_point> refreshed;
  while (!stop) {
    const auto first = queue.claim_for_gpu(name);
    if (!first) {
      // Nothing to grade: the GPU explains a failure whose verdict is out. One at a time, and only now,
      // so that a submission never waits for an explanation queued before it; one that comes meanwhile
      // makes it give way.
      if (const auto waiting = queue.claim_explanation(name)) {
        explain_one(db, queue, *waiting, mine, stop, log, name);
        continue;
      }
      // Only this worker's own memo is refreshed: one a caller passed in is the caller's to keep.
      const auto now = std::chrono::steady_clock::now();
      if (mine.devices == &devices && (!refreshed || now - *refreshed >= probe_refresh_margin)) {
        refresh_probes(devices, stop, log, name);
        refreshed = now;
        continue; // a submission may have come meanwhile
      }
      std::this_thread::sleep_for(std::chrono::duration<double>(poll_seconds));
      continue;
    }
    std::vector<submission> batch = {*first};
    while (batch.size() < max_batch)
      if (auto more = queue.claim_for_gpu(name, first->problem))
        batch.push_back(*more);
      else
        break;
    const auto began = std::chrono::steady_clock::now();
    const run_phases phases = grade_submissions(batch, mine, [&](const submission& s, const graded& g) {
      state now = state::running;
      if (!until_stored(stop, name + ": submission " + std::to_string(s.id), log,
                        [&] { now = settle(queue, s, g, false); }))
        return;
      log(name + ": submission " + std::to_string(s.id) + " (" + s.account + ", " + s.problem +
          "): " + state_name(now));
    });
    // Where a batch's time went, so that an operator can tell a slow GPU from a slow queue.
    log(fmt::format("{}: batch of {} {} submission(s) in {:.2f} s{}", name, batch.size(), first->problem,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count(),
                    phases.empty() ? "" : ": " + describe_phases(phases)));
  }
  if (const std::size_t back = queue.release(name)) log(name + ": " + std::to_string(back) + " back to the queue");
}

std::thread supervise_gpu_worker(const gpu_slot& gpu, std::vector<std::string> command, const std::filesystem::path& db,
                                 unsigned cpu_threads, bool strict, const std::atomic<bool>& stop, const log_fn& log) {
  return std::thread([gpu, command, db, cpu_threads, strict, &stop, log] {
    std::vector<std::string> argv = command;
    for (const std::string& a : {std::string("worker"), std::string("--gpu"), gpu.uuid, std::string("--db"),
                                 db.string(), std::string("--cpu-threads"), std::to_string(cpu_threads)})
      argv.push_back(a);
    if (strict) argv.push_back("--strict");
    const std::string name = gpu_worker_name(gpu.uuid);
    while (!stop) {
      std::map<std::string, std::string> env = judge_environment();
      env["CUDA_VISIBLE_DEVICES"] = gpu.uuid;
      std::optional<helper_process> worker;
      try {
        worker.emplace(argv, env);
      } catch (const std::system_error& e) {
        log(name + ": cannot start its worker: " + e.what());
        return;
      }
      log(name + " (" + gpu.name + ", GPU " + std::to_string(gpu.index) + "): worker pid " +
          std::to_string(worker->pid()));
      bool signalled = false;
      std::optional<int> status;
      while (!(status = worker->poll())) {
        if (stop && !signalled) {
          worker->terminate();
          signalled = true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
      // Whatever it held goes back: it is graded again, by the next worker, from the start.
      until_stored(stop, name, log, [&] {
        results_db store(db);
        submission_queue queue(store);
        if (const std::size_t back = queue.release(name))
          log(name + ": its worker ended holding " + std::to_string(back) +
              " submission(s); they go back to the queue");
      });
      if (!stop) {
        log(name + ": worker ended (status " + std::to_string(*status) + "); restarting in 5 s");
        for (int i = 0; i < 50 && !stop; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    }
  });
}

} // namespace judge::service
