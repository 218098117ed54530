// judge submit <problem> <files...> --server URL [--no-wait] [--wait-sanitizer]: grade on a judge server
// (`judge serve`) instead of here. Waits, showing the submission's state, then prints the same report and
// returns the same exit status as `judge run` would for that solution. A failure's compute-sanitizer
// explanation comes after the verdict on a server: it is waited for only when asked.
#include "judge/cli/cli.hpp"

#include "judge/grading/grader.hpp"
#include "judge/report/report_json.hpp"
#include "judge/report/report_terminal.hpp"
#include "judge/base/environment.hpp"
#include "judge/base/usage_error.hpp"
#include "judge/service/queue/api_client.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

namespace judge::cli {

namespace {
struct submit_flags {
  std::string problem;
  std::vector<std::string> files;
  std::string server;
  bool no_wait = false;
  bool wait_sanitizer = false;
  double timeout_s = 0;
};

bool is_source(const std::filesystem::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".cu" || ext == ".cuh" || ext == ".h";
}

/// The files as sent: each under its own name, since a submission on the server is one flat folder. A
/// folder stands for its source files; a file in a subfolder (kernels/tile.cuh), or files from different
/// folders, are refused here, before anything is sent, rather than flattened into names that the sources'
/// #include lines no longer find.
std::vector<service::source_file> read_sources(const std::vector<std::string>& arguments) {
  std::vector<std::filesystem::path> paths;
  for (const std::string& a : arguments) {
    const std::filesystem::path path(a);
    if (!std::filesystem::is_directory(path)) {
      paths.push_back(path);
      continue;
    }
    std::vector<std::filesystem::path> found;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(path)) {
      if (!entry.is_regular_file() || !is_source(entry.path())) continue;
      if (entry.path().lexically_relative(path).has_parent_path())
        throw usage_error(fmt::format(
            "{}: in a subfolder of {}; a submission is one flat folder on the server, so its #include would not be "
            "found there. Move it up beside the other files and include it by its name alone",
            entry.path().string(), a));
      found.push_back(entry.path());
    }
    if (found.empty()) throw usage_error(a + ": a folder without .cu, .cuh or .h files");
    std::sort(found.begin(), found.end());
    paths.insert(paths.end(), found.begin(), found.end());
  }
  std::vector<service::source_file> files;
  for (const std::filesystem::path& path : paths) {
    const std::string p = path.string();
    if (!std::filesystem::is_regular_file(path))
      throw usage_error(fmt::format("{}: {}", p, std::filesystem::exists(path) ? "not a file" : "no such file"));
    if (std::filesystem::weakly_canonical(path).parent_path() !=
        std::filesystem::weakly_canonical(paths.front()).parent_path())
      throw usage_error(fmt::format("{}: not in the folder of {}; a submission is one flat folder on the server, so "
                                    "send files of one folder (or the folder itself)",
                                    p, paths.front().string()));
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) throw usage_error(p + ": cannot be read");
    for (const auto& f : files)
      if (f.name == path.filename().string())
        throw usage_error(fmt::format("{}: two files named {}; the server keeps one folder per submission", p, f.name));
    files.push_back({path.filename().string(), text.str()});
  }
  return files;
}

/// What the report calls the solution: the file or folder sent, or the files' names.
std::string solution_label(const std::vector<std::string>& arguments) {
  if (arguments.size() == 1) return std::filesystem::path(arguments.front()).lexically_normal().string();
  std::string out;
  for (const std::string& a : arguments)
    out += (out.empty() ? "" : ", ") + std::filesystem::path(a).filename().string();
  return out;
}

/// "matmul, softmax, vector_add", or "" when the server cannot say.
std::string problem_names(service::api_client& client) {
  try {
    std::string names;
    for (const auto& p : client.problems()) names += (names.empty() ? "" : ", ") + p.value("name", std::string());
    return names;
  } catch (const std::exception&) {
    return "";
  }
}

/// The exit status `judge run` returns for this one result.
int status_of(const solution_result& r) {
  if (r.compiled_only) return no_gpu;
  return r.v == verdict::accepted ? all_accepted : some_not_accepted;
}

/// After the verdict of `r` (submission `id`) is printed with its explanation pending: says where the
/// explanation will be, or, with --wait-sanitizer, waits for it (within --timeout from `start`) and prints
/// it. The verdict is out either way: the explanation never changes it, nor the exit status.
void wait_for_explanation(service::api_client& client, std::int64_t id, solution_result& r, const submit_flags& f,
                          std::chrono::steady_clock::time_point start) {
  const std::string where = client.page_url(id);
  if (!f.wait_sanitizer) {
    std::fprintf(stderr,
                 "judge: compute-sanitizer's explanation of case %s follows on the server (it never changes the "
                 "verdict): see %s, or wait for it with --wait-sanitizer\n",
                 r.sanitizer.case_name.c_str(), where.c_str());
    return;
  }
  std::fprintf(stderr, "submission %lld: compute-sanitizer on %s pending\n", static_cast<long long>(id),
               r.sanitizer.case_name.c_str());
  for (;;) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (g_interrupted || (f.timeout_s > 0 && elapsed > f.timeout_s)) {
      std::fprintf(stderr, "judge: stopped waiting for compute-sanitizer's explanation; it follows on %s\n",
                   where.c_str());
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    nlohmann::json s;
    try {
      s = client.submission(id);
    } catch (const service::server_unreachable& e) {
      std::fprintf(stderr, "judge: %s; still trying (submission %lld)\n", e.what(), static_cast<long long>(id));
      continue;
    }
    if (s.value("sanitizer", std::string("pending")) == "pending" || !s.contains("result") || !s["result"].is_object())
      continue;
    const std::string path = r.path;
    r = record_from_json(s["result"]);
    r.path = path;
    std::fputs(render_explanation(r).c_str(), stdout);
    return;
  }
}

int submit(const context&, const submit_flags& f) {
  if (f.problem.empty() ||
      f.problem.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") !=
          std::string::npos)
    throw usage_error(fmt::format("{}: not a problem name (see `judge list`)", f.problem));
  const service::server_url server = service::parse_server_url(f.server);
  const std::vector<service::source_file> files = read_sources(f.files);
  service::api_client client(
      server, service::read_token(non_empty_env(env_name(judge_env::token)), service::default_token_file()));
  std::int64_t id = 0;
  try {
    id = client.submit(f.problem, files);
  } catch (const service::server_refusal& e) {
    if (e.status() >= 500) throw std::runtime_error(fmt::format("the server failed: {}", e.what()));
    if (e.status() == 400 && std::string(e.what()).find("unknown problem") != std::string::npos) {
      const std::string names = problem_names(client);
      throw usage_error(
          fmt::format("the server has no problem \"{}\"{}", f.problem, names.empty() ? "" : "; it has: " + names));
    }
    throw usage_error(fmt::format("the server refused the submission: {}", e.what()));
  } catch (const service::server_unreachable& e) {
    throw usage_error(e.what());
  }
  if (f.no_wait) {
    std::printf("%lld\n", static_cast<long long>(id));
    std::fprintf(stderr, "judge: submission %lld queued; see %s\n", static_cast<long long>(id),
                 client.page_url(id).c_str());
    return all_accepted;
  }

  // Poll often while it is close to done: the verdict should reach the learner within a second of the
  // server having it.
  const auto start = std::chrono::steady_clock::now();
  std::string last_state;
  nlohmann::json s;
  for (;;) {
    try {
      s = client.submission(id);
    } catch (const service::server_unreachable& e) {
      std::fprintf(stderr, "judge: %s; still trying (submission %lld)\n", e.what(), static_cast<long long>(id));
      s = {{"state", last_state}};
    }
    const std::string state = s.value("state", "");
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (state != last_state && !state.empty()) {
      std::fprintf(stderr, "submission %lld: %s%s\n", static_cast<long long>(id), state.c_str(),
                   elapsed >= 0.1 ? fmt::format(" ({:.1f} s)", elapsed).c_str() : "");
      last_state = state;
    }
    if (state == "done" || state == "failed") break;
    if (g_interrupted) {
      std::fprintf(stderr, "judge: stopped waiting; submission %lld goes on on the server: %s\n",
                   static_cast<long long>(id), client.page_url(id).c_str());
      return interrupted;
    }
    if (f.timeout_s > 0 && elapsed > f.timeout_s) {
      std::fprintf(stderr, "judge: no verdict after %.0f s; submission %lld is %s on the server: %s\n", f.timeout_s,
                   static_cast<long long>(id), state.c_str(), client.page_url(id).c_str());
      return internal_failure;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }

  if (s.value("state", "") == "failed") {
    std::fprintf(stderr, "judge: the server could not grade submission %lld: %s\n", static_cast<long long>(id),
                 s.value("error", std::string("no reason given")).c_str());
    return internal_failure;
  }
  if (!s.contains("result") || !s["result"].is_object())
    throw std::runtime_error(fmt::format("submission {} is done but the server sent no result", id));
  solution_result r = record_from_json(s["result"]);
  // The server names it "submission N"; the learner knows it by the file they sent.
  r.path = solution_label(f.files);
  const terminal_style style = terminal_style::for_stream(stdout);
  const std::string gpu = s.value("gpu", std::string());
  std::printf("%s%s (submission %lld, %s)\n", f.problem.c_str(), gpu.empty() ? "" : (" on " + gpu).c_str(),
              static_cast<long long>(id), client.page_url(id).c_str());
  std::string baseline = "baseline";
  try {
    baseline = client.problem(f.problem).value("baseline", baseline);
  } catch (const std::exception&) {
    // Only the column's heading depends on it.
  }
  std::fputs(render_solution(r, baseline, style).c_str(), stdout);
  std::fputs(render_summary({r}, style).c_str(), stdout);
  if (r.compiled_only)
    std::fputs("judge: the server has no CUDA device: the solution compiled but was not run; ask your instructor "
               "for a server with an NVIDIA GPU for its verdict\n",
               stderr);
  if (r.sanitizer.state == explanation_state::pending) wait_for_explanation(client, id, r, f, start);
  return status_of(r);
}
} // namespace

void add_submit(CLI::App& app, context& ctx) {
  auto [sub, flags] = add_problem_command<submit_flags>(
      app, ctx, "submit",
      "grade on a judge server: send files, wait, report as `judge run` does (the token comes from $JUDGE_TOKEN or "
      "~/.config/gpu-judge/token, never from the command line)",
      submit);
  sub->add_option("files", flags->files, "the solution's files (.cu, .cuh, .h)")->required();
  sub->add_option("--server", flags->server, "the server's URL, e.g. http://judge.example.edu:8080")
      ->envname(env_name(judge_env::server))
      ->required();
  sub->add_flag("--no-wait", flags->no_wait, "print the submission's id and return at once");
  sub->add_flag("--wait-sanitizer", flags->wait_sanitizer,
                "after the verdict, also wait for compute-sanitizer's explanation of a failure, and print it (by "
                "default it follows on the submission's page)");
  sub->add_option("--timeout", flags->timeout_s, "stop waiting after this many seconds (default: wait)")
      ->check(CLI::PositiveNumber);
}

} // namespace judge::cli
