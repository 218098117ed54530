#include "judge/service/server.hpp"

#include "judge/base/environment.hpp"
#include "judge/course/course.hpp"
#include "judge/grading/interrupt.hpp"
#include "judge/service/queue/gpu_list.hpp"
#include "judge/service/queue/store_lock.hpp"
#include "judge/service/queue/workers.hpp"
#include "judge/service/slurm/slurm_backend.hpp"
#include "judge/service/web/web_routes.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>

#include <chrono>
#include <cstdlib>
#include <set>
#include <thread>

namespace judge::service {

namespace {
/// The judge's own executable, to start GPU workers with.
std::string own_executable() {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) throw std::runtime_error("cannot find the judge's executable (/proc/self/exe): " + error.message());
  return self.string();
}

/// The server's URL as a compute node reaches it: its host name when it listens on every address.
std::string callback_url(const std::string& host, int port) {
  std::string name = host;
  if (host == "0.0.0.0" || host == "::" || host.empty()) {
    char buffer[256] = {};
    gethostname(buffer, sizeof buffer - 1);
    name = buffer;
  } else if (host.find(':') != std::string::npos) {
    name = "[" + host + "]";
  }
  return "http://" + name + ":" + std::to_string(port);
}

/// Compile threads never touch a GPU the workers time on (the device probe of a compile-only run would
/// open a CUDA context on GPU 0): this process sees none (CUDA_VISIBLE_DEVICES=-1; each worker gets its
/// own GPU's UUID instead), and compiles for the workers' compute capabilities (JUDGE_ARCHS, unless set),
/// so a worker finds every submission it runs already built in the cache. Called before any thread starts.
void keep_compilers_off_the_gpus(const std::vector<gpu_slot>& gpus,
                                 const std::function<void(const std::string&)>& log) {
  if (!env_value(judge_env::archs)) {
    const std::string found = archs_of(gpus);
    if (!found.empty()) setenv(env_name(judge_env::archs), found.c_str(), 1);
    log(found.empty() ? "the GPUs' compute capabilities are unknown (old nvidia-smi): the workers compile again"
                      : "compiling for " + found + " (the GPUs' compile targets)");
  }
  setenv("CUDA_VISIBLE_DEVICES", "-1", 1);
}

/// Staging folders of servers and workers that died without removing theirs (SIGKILL): named
/// gpu-judge-{serve,worker}-<pid>, removed once no such process lives.
void remove_stale_staging(const std::filesystem::path& temp) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(temp, error)) {
    const std::string name = entry.path().filename().string();
    for (const std::string prefix : {"gpu-judge-serve-", "gpu-judge-worker-"}) {
      if (name.rfind(prefix, 0) != 0) continue;
      const std::string pid = name.substr(prefix.size());
      if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos || pid.size() > 9) continue;
      if (::kill(static_cast<pid_t>(std::stol(pid)), 0) == 0 || errno != ESRCH) continue;
      std::error_code ignored;
      std::filesystem::remove_all(entry.path(), ignored);
    }
  }
}

} // namespace

void serve(const server_options& options, const std::function<void(const std::string&)>& log) {
  // Before anything reads the queue: a second server's recover() would take the first one's work.
  const store_lock lock(options.db);
  service_state state(options);
  state.set_log(log);
  if (const auto course = state.course()) {
    log("course: " + course->file + ", " + std::to_string(course->assignments.size()) + " assignment(s)");
    // A name the course file gives that no account has is most likely a typo: an extension that
    // would extend no one. Said once here; accounts added later are welcome to it.
    const auto names = state.with_store([](store_connection& c) {
      std::set<std::string> out;
      for (const account& a : c.users.list()) out.insert(a.name);
      return out;
    });
    for (const course::assignment& a : course->assignments)
      for (const auto& [who, until] : a.extensions)
        if (!names.count(who))
          log("course: assignment '" + a.name + "' extends the deadline of '" + who + "', who has no account yet");
  }
  const std::size_t recovered = state.with_store([](store_connection& c) { return c.queue.recover(); });
  if (recovered)
    log(std::to_string(recovered) + " submission(s) in progress when the server last stopped go back to the queue");

  http_router routes;
  add_api_routes(routes, state);
  add_web_routes(routes, state);
  if (options.backend == "slurm" && !options.accept_only) add_slurm_routes(routes, state);
  // A body larger than a stranger's comes only with a valid token: a student's or instructor's, or a
  // Slurm job's on its own routes.
  routes.set_trusted([&state, slurm = options.backend == "slurm"](const http_request& head) {
    return state.authenticate(head).has_value() || (slurm && slurm_job_request(state, head));
  });
  http_limits limits;
  // A submission's JSON is its files' bytes plus escaping (up to 6 bytes for 1) and names.
  limits.body = options.max_files * options.max_file_bytes * 6 + 64 * 1024;
  limits.request_deadline =
      std::chrono::milliseconds(static_cast<std::int64_t>(options.request_deadline_seconds * 1000));
  limits.connections = options.max_connections;
  http_server server(routes, limits);
  const int port = server.bind(options.host, options.port);

  remove_stale_staging(std::filesystem::temp_directory_path());
  const std::filesystem::path scratch =
      std::filesystem::temp_directory_path() / ("gpu-judge-serve-" + std::to_string(getpid()));
  std::vector<std::thread> threads;
  if (options.backend == "slurm" && !options.accept_only) {
    grading_setup setup{state.problems_root(), state.testcases_root(), options.db, scratch, false};
    setup.strict = options.strict;
    const unsigned compilers =
        options.compile_threads ? options.compile_threads : std::max(1u, std::thread::hardware_concurrency());
    // Compile-only here (compile errors come back without a job); the GPU run is the job's.
    for (unsigned i = 0; i < compilers; ++i)
      threads.emplace_back(
          [&, i, setup] { compile_loop(state, "compile " + std::to_string(i + 1), false, setup, log); });
    const std::string callback =
        options.slurm.callback.empty() ? callback_url(options.host, port) : options.slurm.callback;
    threads.push_back(start_slurm_backend(state, options.slurm, callback,
                                          options.slurm.judge.empty() ? own_executable() : options.slurm.judge, log));
    log(std::to_string(compilers) + " compile thread(s); GPU runs are Slurm jobs in partition " +
        options.slurm.partition);
  } else if (!options.accept_only) {
    std::string why;
    const std::vector<gpu_slot> gpus = find_gpus(options.gpus, why);
    grading_setup setup{state.problems_root(), state.testcases_root(), options.db, scratch, false};
    setup.strict = options.strict;
    if (gpus.empty()) {
      log("no GPU (" + why + "): submissions are compiled and end \"not run: no CUDA device is present\"");
      state.set_no_gpu_reason("This server has no GPU (" + why +
                              "): submissions are compiled but not run, so no result is timed and the board stays "
                              "empty.");
    } else
      keep_compilers_off_the_gpus(gpus, log);
    const unsigned compilers =
        options.compile_threads ? options.compile_threads : std::max(1u, std::thread::hardware_concurrency());
    for (unsigned i = 0; i < compilers; ++i)
      threads.emplace_back(
          [&, i, setup] { compile_loop(state, "compile " + std::to_string(i + 1), gpus.empty(), setup, log); });
    const std::vector<std::string> command = {own_executable(), "--root", options.root.string()};
    // Each worker's CPU reference gets its share of the cores: with a thread per core in every worker,
    // two workers on a two-GPU host graded 60 submissions in 0.66 of one worker's time instead of ~0.5.
    const unsigned share =
        gpus.empty() ? 1u : std::max(1u, std::thread::hardware_concurrency() / static_cast<unsigned>(gpus.size()));
    for (const gpu_slot& g : gpus)
      threads.push_back(supervise_gpu_worker(g, command, options.db, share, options.strict, state.stopping(), log));
    log(std::to_string(compilers) + " compile thread(s), " + std::to_string(gpus.size()) + " GPU worker(s)");
  } else {
    log("accept only: submissions are queued for workers started elsewhere");
  }

  // SIGTERM/SIGINT set g_interrupted (cli/main.cpp): stop listening, let the workers end.
  std::thread watcher([&] {
    while (!g_interrupted && !state.stopping()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    state.stopping() = true;
    server.stop();
  });
  log("listening on http://" + options.host + ":" + std::to_string(port) + "/");
  server.run();
  state.stopping() = true;
  watcher.join();
  state.notify_queued();
  state.notify_compiled();
  for (std::thread& t : threads) t.join();
  std::error_code ignored;
  std::filesystem::remove_all(scratch, ignored);
  const std::size_t back = state.with_store([](store_connection& c) { return c.queue.recover(); });
  log("stopped" +
      (back ? "; " + std::to_string(back) + " submission(s) in progress go back to the queue" : std::string()));
}

} // namespace judge::service
