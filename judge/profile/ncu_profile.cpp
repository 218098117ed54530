#include "judge/profile/ncu_profile.hpp"

#include "judge/base/environment.hpp"
#include "judge/base/file_input.hpp"
#include "judge/sandbox/process.hpp"
#include "judge/run/runner_session.hpp"
#include "judge/sandbox/sandbox_limits.hpp"
#include "judge/sandbox/tool_path.hpp"
#include "common/wire_json.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <unistd.h>

namespace judge {
namespace {

using clock_type = std::chrono::steady_clock;

/// The last `lines` lines of `text`: where a failing program says why.
std::string last_lines(const std::string& text, int lines) {
  std::size_t at = text.size();
  while (lines-- > 0 && at > 0) {
    const std::size_t newline = text.rfind('\n', at - 1);
    if (newline == std::string::npos) return text;
    at = newline;
  }
  return text.substr(at == 0 ? 0 : at + 1);
}

/// Why the runner's checked calls under ncu did not all end ok ("" when they did), from the answers it
/// wrote to `answers`: a call that failed under the profiler has figures of a run that went wrong.
std::string unanswered_checks(const std::filesystem::path& answers) {
  std::error_code unreadable;
  const std::string text = read_file(answers, unreadable).value_or("");
  int ok = 0;
  std::size_t begin = 0;
  while (begin < text.size()) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    const auto line = judge_wire::json::parse(text.substr(begin, end - begin), nullptr, false);
    begin = end + 1;
    if (line.is_discarded() || !line.is_object()) continue;
    try {
      const judge_wire::answer answer = judge_wire::answer_from_json(line);
      if (const auto* check = std::get_if<judge_wire::check_answer>(&answer)) {
        if (check->status != judge_wire::call_status::ok)
          return fmt::format("the checked call ended with {} under ncu: {}", judge_wire::to_string(check->status),
                             check->error.value_or(""));
        ++ok;
      } else if (const auto* error = std::get_if<judge_wire::error_answer>(&answer)) {
        return "the runner failed under ncu: " + error->error;
      }
    } catch (const std::exception&) {
      continue; // an answer of another protocol version says nothing here
    }
  }
  return ok > 0 ? "" : "the runner answered no checked call under ncu";
}

} // namespace

std::optional<std::filesystem::path> find_ncu(const toolchain& tools) {
  const found_tool ncu = find_cuda_tool("ncu", env_name(judge_env::ncu), tools.nvcc);
  if (ncu.executable.empty()) return std::nullopt;
  return ncu.executable;
}

std::vector<std::string> ncu_arguments(const ncu_request& r) {
  std::string metrics;
  for (const std::string& m : r.metrics) metrics += (metrics.empty() ? "" : ",") + m;
  std::vector<std::string> args = {
      // The judge's own kernels (input generation, comparison, the L2 flush) are named judge_*.
      "--kernel-name-base", "demangled", "--kernel-name", "regex:^(?!.*judge_)", "--launch-count",
      std::to_string(r.launch_count),
      // Clocks as the driver sets them, as in grading; ncu would otherwise lock them at base clock.
      "--clock-control", "none",
      // Every cache flushed before each replay pass (ncu's default, said here because grading relies on
      // the same cold state: it flushes L2 before every timed sample).
      "--cache-control", "all", "--target-processes", "all", "--metrics", metrics, "--export",
      ncu_report_in_scratch(r).string(),
      "--force-overwrite",
      // The runner writes its answers to fd 3; under ncu they go to a file the judge reads afterwards.
      "/bin/sh", "-c", "f=$1; shift; exec \"$@\" 3>\"$f\"", "sh", (r.scratch / "answers.jsonl").string(),
      r.runner.string(), "--solution", r.solution.string(), "--scratch", (r.scratch / "outputs").string(),
      // ncu holds CUPTI, so the runner times (if asked) with events; it is only asked for checked calls.
      "--timing", "events", "--profiler"};
  return args;
}

std::filesystem::path ncu_report_in_scratch(const ncu_request& r) { return r.scratch / "profile.ncu-rep"; }

namespace {

/// ncu's own folder (the front end sits beside its sections, injection libraries and host files); the
/// link in the toolkit's bin/ is followed to it.
std::filesystem::path ncu_folder(const std::filesystem::path& ncu) {
  std::error_code ec;
  const std::filesystem::path real = std::filesystem::canonical(ncu, ec);
  return (ec ? ncu : real).parent_path();
}

/// The environment ncu runs in: its temporary files and settings in the scratch folder. ncu keeps a
/// lock file in $TMPDIR (/tmp/nsight-compute-lock), which another user's ncu may own; the judge's own
/// GPU lock already keeps two judges apart.
void ncu_environment(process_options& p, const std::filesystem::path& scratch) {
  p.env["TMPDIR"] = (scratch / "tmp").string();
  p.env["HOME"] = (scratch / "home").string();
  p.env["CUDA_CACHE_DISABLE"] = "1";
}

} // namespace

process_options ncu_profile_process(const ncu_request& r) {
  // The runner's own sandbox, the same as grading's, with ncu in front of it.
  runner_options runner;
  runner.runner = r.runner;
  runner.solution = r.solution;
  runner.scratch = r.scratch;
  runner.sandbox = r.sandbox;
  runner.hidden_paths = r.hidden_paths;
  runner.read_only_paths = r.read_only_paths;
  runner.read_only_paths.push_back(ncu_folder(r.ncu));
  process_options p = runner_process_options(runner);
  p.argv = {r.ncu.string()};
  for (std::string& a : ncu_arguments(r)) p.argv.push_back(std::move(a));
  // Under ncu the runner's answers go to a file (ncu_arguments), not to a channel of the judge's.
  p.result_channel = false;
  // Each folder run_ncu made in the scratch folder is named, so that each is handed to the sandbox's user.
  p.writable_paths = {r.scratch, r.scratch / "outputs", r.scratch / "tmp", r.scratch / "home"};
  ncu_environment(p, r.scratch);
  // ncu's front end and its injected library talk over TCP on the loopback interface as well as over
  // local sockets: the sandbox's network namespace has it up, and nothing else.
  p.loopback = true;
  p.output_cap = 256 * 1024;
  return p;
}

process_options ncu_import_process(const ncu_request& r) {
  process_options p;
  p.argv = {r.ncu.string(), "--import", ncu_report_in_scratch(r).string(), "--csv", "--page", "raw",
            "--print-units", "base"};
  p.env = child_environment();
  ncu_environment(p, r.scratch);
  p.working_dir = r.scratch;
  p.output_cap = 64u << 20;
  p.sandbox = r.sandbox;
  p.hidden_paths = r.hidden_paths;
  p.read_only_paths = {ncu_folder(r.ncu)};
  p.writable_paths = {r.scratch, r.scratch / "tmp", r.scratch / "home"}; // ncu's lock and settings
  p.memory_bytes = sandbox_limits::runner::memory_bytes;
  p.max_pids = sandbox_limits::runner::max_pids;
  return p;
}

ncu_result run_ncu(const ncu_request& r) {
  ncu_result result;
  std::error_code ignored;
  std::filesystem::create_directories(r.scratch / "outputs", ignored);
  std::filesystem::create_directories(r.scratch / "tmp", ignored);
  std::filesystem::create_directories(r.scratch / "home", ignored);
  std::filesystem::remove(r.report, ignored);
  const std::filesystem::path report = ncu_report_in_scratch(r);
  const process_options p = ncu_profile_process(r);
  const auto start = clock_type::now();
  try {
    child_process child(p);
    result.sandboxed = child.sandboxed();
    result.layers = child.layers();
    bool sent = true;
    for (const std::string& line : r.requests) sent = sent && child.send_line(line);
    child.close_stdin();
    const auto deadline =
        start + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(r.seconds));
    const child_process::exit_status status = child.wait(deadline);
    result.seconds = std::chrono::duration<double>(clock_type::now() - start).count();
    const std::string output = child.out().kept + child.err().kept;
    if (status.killed_by_judge) {
      result.outcome = ncu_outcome::timed_out;
      result.detail = fmt::format("stopped after {:.0f} s", r.seconds);
      return result;
    }
    if (output.find("ERR_NVGPUCTRPERM") != std::string::npos) {
      result.outcome = ncu_outcome::no_permission;
      return result;
    }
    if (!std::filesystem::is_regular_file(std::filesystem::symlink_status(report, ignored))) {
      const bool none = output.find("No kernels were profiled") != std::string::npos;
      result.outcome = none ? ncu_outcome::no_kernels : ncu_outcome::failed;
      result.detail =
          none ? ""
               : describe(status) + (sent ? "" : " (it stopped reading requests)") + ":\n" + last_lines(output, 12);
      return result;
    }
  } catch (const std::exception& e) {
    result.detail = e.what();
    return result;
  }
  if (std::string why = unanswered_checks(r.scratch / "answers.jsonl"); !why.empty()) {
    result.detail = std::move(why);
    return result;
  }
  const run_result csv = run_to_completion(ncu_import_process(r), std::chrono::seconds(60));
  if (!csv.status.exited || csv.status.exit_code != 0) {
    result.detail = "reading the report back: " + describe(csv.status) + ":\n" + last_lines(csv.err.kept, 12);
    return result;
  }
  // Kept where the caller asked, for Nsight Compute's own viewer; a plain file (checked above), copied.
  if (r.report.has_parent_path()) std::filesystem::create_directories(r.report.parent_path(), ignored);
  std::filesystem::copy_file(report, r.report, std::filesystem::copy_options::overwrite_existing, ignored);
  result.csv = csv.out.kept;
  result.outcome = ncu_outcome::ok;
  return result;
}

} // namespace judge
