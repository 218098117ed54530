#include "server.hpp"

#include "interrupt.hpp"
#include "submission_request.hpp"
#include "workers.hpp"

#include <unistd.h>

#include <chrono>
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

void set_error_pages(httplib::Server& server) {
  server.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
    try {
      std::rethrow_exception(ep);
    } catch (const bad_request& e) {
      res.status = 400;
      res.set_content(nlohmann::json{{"error", e.what()}}.dump(), "application/json");
    } catch (const std::exception& e) {
      res.status = 500;
      res.set_content(nlohmann::json{{"error", std::string("the judge failed: ") + e.what()}}.dump(),
                      "application/json");
    }
  });
  // Whatever found no route or was refused without a body of its own: still one clear JSON line.
  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    std::string message = "HTTP " + std::to_string(res.status);
    if (res.status == 404) message = "no such page: " + req.method + " " + req.path;
    if (res.status == 413) message = "the request is larger than a submission may be";
    res.set_content(nlohmann::json{{"error", message}}.dump(), "application/json");
  });
}
} // namespace

void serve(const server_options& options, const std::function<void(const std::string&)>& log) {
  service_state state(options);
  const std::size_t recovered = state.with_store([](store_connection& c) { return c.queue.recover(); });
  if (recovered)
    log(std::to_string(recovered) + " submission(s) in progress when the server last stopped go back to the queue");

  httplib::Server server;
  set_error_pages(server);
  // A submission's JSON is its files' bytes plus escaping (up to 6 bytes for 1) and names.
  server.set_payload_max_length(options.max_files * options.max_file_bytes * 6 + 64 * 1024);
  add_api_routes(server, state);
#ifdef JUDGE_SERVICE_WEB
  add_web_routes(server, state);
#endif
  const int port = options.port == 0 ? server.bind_to_any_port(options.host)
                                     : (server.bind_to_port(options.host, options.port) ? options.port : -1);
  if (port < 0)
    throw std::runtime_error("cannot listen on " + options.host + ":" + std::to_string(options.port) +
                             " (in use, or not an address of this machine)");

  std::vector<std::thread> threads;
  if (!options.accept_only) {
    std::string why;
    const std::vector<gpu_slot> gpus = find_gpus(options.gpus, why);
    grading_setup setup{state.problems_root(), state.testcases_root(), options.db,
                        std::filesystem::temp_directory_path() / ("gpu-judge-serve-" + std::to_string(getpid())),
                        false};
    if (gpus.empty())
      log("no GPU (" + why + "): submissions are compiled and end \"not run: no CUDA device is present\"");
    const unsigned compilers =
        options.compile_threads ? options.compile_threads : std::max(1u, std::thread::hardware_concurrency());
    for (unsigned i = 0; i < compilers; ++i)
      threads.emplace_back(
          [&, i, setup] { compile_loop(state, "compile " + std::to_string(i + 1), gpus.empty(), setup, log); });
    const std::vector<std::string> command = {own_executable(), "--root", options.root.string()};
    for (const gpu_slot& g : gpus)
      threads.push_back(supervise_gpu_worker(g, command, options.db, state.stopping(), log));
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
  server.listen_after_bind();
  state.stopping() = true;
  watcher.join();
  state.notify_queued();
  state.notify_compiled();
  for (std::thread& t : threads) t.join();
  const std::size_t back = state.with_store([](store_connection& c) { return c.queue.recover(); });
  log("stopped" +
      (back ? "; " + std::to_string(back) + " submission(s) in progress go back to the queue" : std::string()));
}

} // namespace judge::service
