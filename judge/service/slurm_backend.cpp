#include "slurm_backend.hpp"

#include "api_json.hpp"
#include "report_json.hpp"
#include "server.hpp"
#include "slurm_jobs.hpp"

#include <fcntl.h>
#include <openssl/rand.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

extern char** environ;

namespace judge::service {

namespace fs = std::filesystem;

namespace {
using log_fn = std::function<void(const std::string&)>;

struct command_result {
  int status = -1; ///< exit status; -1: could not run or killed
  std::string output;
};

/// Runs `argv` (found on PATH), its stdout and stderr captured together.
command_result run_command(const std::vector<std::string>& argv) {
  int pipe_fds[2];
  // Close-on-exec: a compile thread's child started meanwhile must not inherit the write end, or the read
  // below waits for that child too (seen: the backend hung after sbatch while nvcc ran elsewhere).
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) return {-1, "pipe failed"};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 2);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  command_result out;
  char buffer[4096];
  ssize_t n;
  while ((n = read(pipe_fds[0], buffer, sizeof buffer)) > 0) out.output.append(buffer, static_cast<std::size_t>(n));
  close(pipe_fds[0]);
  if (spawned != 0) return {-1, argv[0] + ": cannot run it (is Slurm's client installed?)"};
  int status = 0;
  waitpid(pid, &status, 0);
  out.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string new_job_key() {
  unsigned char bytes[8];
  if (RAND_bytes(bytes, sizeof bytes) != 1) throw std::runtime_error("OpenSSL's RAND_bytes could not make a job key");
  static const char hex[] = "0123456789abcdef";
  std::string key;
  for (unsigned char b : bytes) key += {hex[b >> 4], hex[b & 15]};
  return key;
}

/// Slurm's states in which a job will never run (again): what it holds goes back to the queue.
bool finished_state(const std::string& s) {
  for (const char* end : {"COMPLETED", "CANCELLED", "FAILED", "TIMEOUT", "NODE_FAIL", "PREEMPTED", "BOOT_FAIL",
                          "DEADLINE", "OUT_OF_MEMORY", "SPECIAL_EXIT", "REVOKED"})
    if (s == end) return true;
  return false;
}

/// A single-quoted word for the job script's shell.
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

class backend {
public:
  backend(service_state& shared, slurm_options options, std::string callback, std::string judge, log_fn log)
      : m_shared(shared), m_options(std::move(options)), m_callback(std::move(callback)), m_judge(std::move(judge)),
        m_log(std::move(log)), m_store(shared.options().db), m_queue(m_store), m_jobs(m_store) {}

  void run() {
    // Jobs of an earlier run of the server: their submissions went back to the queue at start (recover());
    // the jobs are cancelled, so a node does not grade what a new job grades too.
    for (const slurm_job& j : m_jobs.live()) end_job(j, "the server restarted", true);
    m_log("slurm: partition " + m_options.partition + ", " + std::to_string(m_options.batch) +
          " submission(s) a job, jobs post results to " + m_callback);
    auto last_poll = std::chrono::steady_clock::now() - std::chrono::hours(1);
    while (!m_shared.stopping()) {
      if (std::chrono::steady_clock::now() - last_poll >= std::chrono::duration<double>(m_options.poll_seconds)) {
        track();
        last_poll = std::chrono::steady_clock::now();
      }
      if (!dispatch()) m_shared.wait_for_compiled(m_options.poll_seconds / 2);
    }
    for (const slurm_job& j : m_jobs.live()) end_job(j, "the server stopped", true);
  }

private:
  /// Submits one job when there is work and room; true when it did (there may be more).
  bool dispatch() {
    if (m_jobs.live().size() >= m_options.max_jobs) return false;
    // A job costs seconds to start (docs/slurm.md): while more submissions are being compiled, wait up to
    // `gather_seconds` for a full batch rather than start a job for each as it comes.
    const std::size_t ready = m_queue.count(state::compiled);
    if (ready == 0) {
      m_ready_since.reset();
      return false;
    }
    const auto now = std::chrono::steady_clock::now();
    if (!m_ready_since) m_ready_since = now;
    const bool more_coming = m_queue.count(state::queued) + m_queue.count(state::compiling) > 0;
    if (ready < m_options.batch && more_coming &&
        now - *m_ready_since < std::chrono::duration<double>(m_options.gather_seconds))
      return false;
    m_ready_since.reset();
    const std::string key = new_job_key();
    const std::string worker = slurm_worker_name(key);
    const auto first = m_queue.claim_for_gpu(worker);
    if (!first) return false;
    std::vector<std::int64_t> ids = {first->id};
    while (ids.size() < m_options.batch)
      if (auto more = m_queue.claim_for_gpu(worker, first->problem))
        ids.push_back(more->id);
      else
        break;
    const std::string token = m_jobs.add(key, ids);
    const command_result r = sbatch(key, token, first->problem);
    const std::string id = trimmed(r.output);
    if (r.status != 0 || id.empty() || id.find_first_not_of("0123456789;") != std::string::npos) {
      m_log("slurm: sbatch failed (" + trimmed(r.output) + "); " + std::to_string(ids.size()) +
            " submission(s) back to the queue, next try in 5 s");
      m_jobs.end(key, "sbatch failed");
      m_queue.release(worker);
      for (int i = 0; i < 50 && !m_shared.stopping(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
      return false;
    }
    const std::string slurm_id = id.substr(0, id.find(';')); // --parsable: "id" or "id;cluster"
    m_jobs.set_slurm_id(key, slurm_id);
    std::string list;
    for (auto s : ids) list += (list.empty() ? "" : ",") + std::to_string(s);
    m_log("slurm: job " + slurm_id + " (" + key + "): " + first->problem + ", submission(s) " + list);
    return true;
  }

  command_result sbatch(const std::string& key, const std::string& token, const std::string& problem) {
    // The script carries the token, so it is written readable by the server's user only and removed once
    // submitted (Slurm keeps its copy, readable by the job's owner and the admins).
    const fs::path dir = m_shared.options().db.parent_path() / "slurm-jobs";
    fs::create_directories(dir);
    const fs::path script = dir / (key + ".sh");
    {
      std::ofstream out(script);
      fs::permissions(script, fs::perms::owner_read | fs::perms::owner_write);
      out << "#!/bin/sh\n"
          << "# gpu-judge: " << problem << "\n"
          << "export JUDGE_JOB_TOKEN=" << quoted(token) << "\n"
          << "exec " << quoted(m_judge) << " --root " << quoted(m_shared.options().root.string())
          << " slurm-job --server " << quoted(m_callback) << " --job " << key << "\n";
    }
    std::vector<std::string> argv = {"sbatch",
                                     "--parsable",
                                     "--job-name=gpu-judge",
                                     "--partition=" + m_options.partition,
                                     "--gres=gpu:1",
                                     "--nodes=1",
                                     "--ntasks=1",
                                     "--no-requeue", // the server resubmits, as a new job with a new token
                                     "--time=" + std::to_string(m_options.minutes),
                                     "--mem=" + m_options.memory,
                                     "--output=" + m_options.output,
                                     "--chdir=/tmp"};
    std::istringstream extra(m_options.extra);
    for (std::string word; extra >> word;) argv.push_back(word);
    argv.push_back(script.string());
    command_result r = run_command(argv);
    std::error_code ignored;
    fs::remove(script, ignored);
    return r;
  }

  /// Asks squeue about the live jobs; a job that ended, or that Slurm no longer knows, ends here too.
  void track() {
    const std::vector<slurm_job> live = m_jobs.live();
    if (live.empty()) return;
    std::string ids;
    for (const slurm_job& j : live)
      if (!j.slurm_id.empty()) ids += (ids.empty() ? "" : ",") + j.slurm_id;
    if (ids.empty()) return;
    const command_result r =
        run_command({"squeue", "--noheader", "--states=all", "--jobs=" + ids, "--format=%i|%T|%r"});
    if (r.status != 0 && r.output.find("Invalid job id") == std::string::npos) {
      m_log("slurm: squeue failed (" + trimmed(r.output) + "); asking again later");
      return;
    }
    std::map<std::string, std::string> states; // id → "STATE|reason"
    std::istringstream lines(r.output);
    for (std::string line; std::getline(lines, line);)
      if (const auto bar = line.find('|'); bar != std::string::npos) states[line.substr(0, bar)] = line.substr(bar + 1);
    for (const slurm_job& j : live) {
      const auto it = states.find(j.slurm_id);
      if (it == states.end()) {
        end_job(j, "no longer known to Slurm", false);
        continue;
      }
      const std::string state = it->second.substr(0, it->second.find('|'));
      if (finished_state(state)) end_job(j, state, false);
    }
  }

  /// Revokes the job, cancels it when asked, and gives back what it still holds; a submission lost with
  /// too many jobs fails, saying so (never the learner's fault).
  void end_job(const slurm_job& j, const std::string& why, bool cancel) {
    if (!m_jobs.end(j.key, why)) return;
    if (cancel && !j.slurm_id.empty()) run_command({"scancel", j.slurm_id});
    const std::string worker = slurm_worker_name(j.key);
    const std::vector<std::int64_t> held = m_queue.held_by(worker);
    if (held.empty()) return;
    m_queue.release(worker);
    std::string back;
    for (std::int64_t id : held) {
      if (!cancel && m_jobs.lost_one(id) >= m_options.max_lost) {
        m_queue.fail(id, "not graded: " + std::to_string(m_options.max_lost) +
                             " Slurm jobs ended before grading it (last: job " + j.slurm_id + ", " + why + ")");
        m_log("slurm: submission " + std::to_string(id) + " failed: lost with " + std::to_string(m_options.max_lost) +
              " jobs");
        continue;
      }
      back += (back.empty() ? "" : ",") + std::to_string(id);
    }
    if (!back.empty())
      m_log("slurm: job " + j.slurm_id + " (" + j.key + ") ended (" + why + ") holding submission(s) " + back +
            ": back to the queue, resubmitted in a new job");
    m_shared.notify_compiled();
  }

  service_state& m_shared;
  slurm_options m_options;
  std::string m_callback, m_judge;
  log_fn m_log;
  results_db m_store;
  submission_queue m_queue;
  slurm_jobs m_jobs;
  std::optional<std::chrono::steady_clock::time_point> m_ready_since; ///< when a compiled one first waited
};

void send_json(httplib::Response& res, int status, const nlohmann::json& body) {
  res.status = status;
  res.set_content(json_text(body), "application/json");
}

std::string bearer(const httplib::Request& req) {
  const std::string h = req.get_header_value("Authorization");
  return h.rfind("Bearer ", 0) == 0 ? h.substr(7) : "";
}
} // namespace

std::thread start_slurm_backend(service_state& shared, const slurm_options& options, const std::string& callback,
                                const std::string& judge_executable, const log_fn& log) {
  return std::thread([&shared, options, callback, judge_executable, log] {
    try {
      backend(shared, options, callback, judge_executable, log).run();
    } catch (const std::exception& e) {
      log(std::string("slurm: the backend stopped: ") + e.what());
    }
  });
}

void add_slurm_routes(httplib::Server& server, service_state& state) {
  // Only a live job's own token opens its routes; anything else is 401 (no hint whether the key exists).
  auto job_of = [&state](const httplib::Request& req, httplib::Response& res) -> std::optional<slurm_job> {
    const std::string key = req.matches[1];
    auto job =
        state.with_store([&](store_connection& c) { return slurm_jobs(c.store).authenticate(key, bearer(req)); });
    if (!job) send_json(res, 401, {{"error", "not a live Slurm job of this server, or not its token"}});
    return job;
  };
  server.Get(R"(/api/v1/slurm/jobs/([0-9a-f]{16}))",
             [&state, job_of](const httplib::Request& req, httplib::Response& res) {
               const auto job = job_of(req, res);
               if (!job) return;
               nlohmann::json batch = nlohmann::json::array();
               state.with_store([&](store_connection& c) {
                 for (std::int64_t id : job->submissions) {
                   const auto s = c.queue.get(id);
                   if (!s || s->now != state::running || s->worker != slurm_worker_name(job->key)) continue;
                   nlohmann::json files = nlohmann::json::array();
                   for (const source_file& f : s->files) files.push_back({{"name", f.name}, {"content", f.content}});
                   batch.push_back({{"id", s->id}, {"account", s->account}, {"problem", s->problem}, {"files", files}});
                 }
               });
               send_json(res, 200, {{"submissions", batch}});
             });
  server.Post(R"(/api/v1/slurm/jobs/([0-9a-f]{16})/results)", [&state, job_of](const httplib::Request& req,
                                                                               httplib::Response& res) {
    const auto job = job_of(req, res);
    if (!job) return;
    graded g;
    std::int64_t id = 0;
    std::string node;
    try {
      const nlohmann::json body = nlohmann::json::parse(req.body);
      id = body.at("submission").get<std::int64_t>();
      node = body.value("node", "");
      if (body.contains("result"))
        g.result = result_from_json(body.at("result"));
      else
        g.failure = body.at("failure").get<std::string>();
    } catch (const std::exception& e) {
      return send_json(
          res, 400, {{"error", std::string("a result is {\"submission\", \"result\" or \"failure\"}: ") + e.what()}});
    }
    const std::string outcome = state.with_store([&](store_connection& c) -> std::string {
      const auto s = c.queue.get(id);
      if (!s || s->now != state::running || s->worker != slurm_worker_name(job->key)) return "";
      if (g.result) g.result->author = s->account;
      return state_name(settle(c.queue, *s, g, false));
    });
    if (outcome.empty())
      return send_json(res, 409, {{"error", "submission " + std::to_string(id) + " is not held by this job"}});
    send_json(res, 200, {{"id", id}, {"state", outcome}, {"node", node}});
  });
}

} // namespace judge::service
