#include "judge/service/slurm/slurm_backend.hpp"

#include "judge/grading/grader.hpp"
#include "common/hex.hpp"
#include "judge/report/report_json.hpp"
#include "judge/service/queue/service_state.hpp"
#include "judge/service/slurm/slurm_jobs.hpp"
#include "judge/service/slurm/slurm_limits.hpp"
#include "judge/service/slurm/slurm_status.hpp"
#include "judge/problem/cases.hpp"

#include "judge/sandbox/tool_command.hpp"

#include <openssl/rand.h>

#include <chrono>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

namespace judge::service {

namespace fs = std::filesystem;

namespace {
using log_fn = std::function<void(const std::string&)>;

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string new_job_key() {
  unsigned char bytes[8];
  if (RAND_bytes(bytes, sizeof bytes) != 1) throw std::runtime_error("OpenSSL's RAND_bytes could not make a job key");
  return judge_hex::encode(bytes, sizeof bytes);
}

/// A single-quoted word for the job script's shell.
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// The first line of `text`, for a note (sbatch's error is one line; a note stays short).
std::string first_line(const std::string& text) { return trimmed(text.substr(0, text.find('\n'))); }

class backend {
public:
  backend(service_state& shared, slurm_options options, std::string callback, std::string judge, log_fn log)
      : m_shared(shared), m_options(std::move(options)), m_callback(std::move(callback)), m_judge(std::move(judge)),
        m_log(std::move(log)), m_store(shared.options().db), m_queue(m_store), m_jobs(m_store) {
    m_caps.max_minutes = m_options.minutes;
    const auto memory = parse_memory_mib(m_options.memory);
    if (!memory) throw std::invalid_argument("--slurm-mem " + m_options.memory + ": not a size sbatch --mem takes");
    m_caps.max_memory_mib = *memory;
    m_caps.fixed = m_options.fixed_limits;
  }

  void run() {
    // Jobs of an earlier run of the server: their submissions went back to the queue at start (recover());
    // the jobs are cancelled, so a node does not grade what a new job grades too.
    for (const slurm_job& j : m_jobs.live()) end_job(j, "the server restarted", true, false);
    m_log("slurm: partition " + m_options.partition + ", up to " + std::to_string(m_options.batch) +
          " submission(s) a job, jobs post results to " + m_callback +
          (m_options.expect_gpu ? "; a node without a CUDA device is a fault of the node" : ""));
    auto last_poll = std::chrono::steady_clock::now() - std::chrono::hours(1);
    while (!m_shared.stopping()) {
      if (std::chrono::steady_clock::now() - last_poll >= std::chrono::duration<double>(m_options.poll_seconds)) {
        track();
        last_poll = std::chrono::steady_clock::now();
      }
      if (!dispatch()) m_shared.wait_for_compiled(m_options.poll_seconds / 2);
    }
    for (const slurm_job& j : m_jobs.live()) end_job(j, "the server stopped", true, false);
  }

private:
  /// What the backend remembers of a live job between polls.
  struct watch {
    std::chrono::steady_clock::time_point submitted;
    std::string note;     ///< the note its submissions carry now
    bool blocked = false; ///< its blocked reason was logged
  };

  const slurm_problem_facts& facts_of(const std::string& problem) {
    auto it = m_facts.find(problem);
    if (it != m_facts.end()) return it->second;
    const problem_spec* spec = m_shared.spec(problem);
    if (!spec) throw std::runtime_error("slurm: a queued submission of an unknown problem " + problem);
    const auto cases = load_cases(*spec, m_shared.testcases_root() / problem / "cases.yaml");
    return m_facts.emplace(problem, problem_facts(*spec, cases, grade_options{}.checks)).first->second;
  }

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
    // As many as the time cap allows, then the limits of the batch as claimed.
    const slurm_problem_facts& facts = facts_of(first->problem);
    std::vector<std::int64_t> ids = {first->id};
    while (ids.size() < job_limits(facts, m_options.batch, m_caps).batch)
      if (auto more = m_queue.claim_for_gpu(worker, first->problem))
        ids.push_back(more->id);
      else
        break;
    const slurm_job_limits limits = job_limits(facts, ids.size(), m_caps);
    const std::string token = m_jobs.add(key, ids);
    const tool_result r = sbatch(key, token, first->problem, limits);
    const std::string id = trimmed(r.run.out.kept);
    if (!r.succeeded() || id.empty() || id.find_first_not_of("0123456789;") != std::string::npos) {
      // An sbatch that timed out may still have queued the job: its token is revoked here, so such a job
      // fetches nothing and ends.
      const std::string why =
          r.succeeded() ? "it printed no job id: " + first_line(id) : r.failure_text(command_limit());
      m_log("slurm: sbatch failed (" + why + "); " + std::to_string(ids.size()) +
            " submission(s) back to the queue, next try in 5 s");
      m_jobs.end(key, "sbatch failed");
      m_queue.release(worker);
      m_queue.set_note(ids, "waiting for Slurm: sbatch refused the job (" + why + "); trying again");
      // Left-out nodes may be all the partition has: Slurm then refuses every job. Try them again.
      if (!m_bad_nodes.empty()) {
        m_log("slurm: node(s) left out before are tried again");
        m_bad_nodes.clear();
      }
      for (int i = 0; i < 50 && !m_shared.stopping(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
      return false;
    }
    const std::string slurm_id = id.substr(0, id.find(';')); // --parsable: "id" or "id;cluster"
    m_jobs.set_slurm_id(key, slurm_id);
    m_watch[key] = watch{std::chrono::steady_clock::now(), "", false};
    std::string list;
    for (auto s : ids) list += (list.empty() ? "" : ",") + std::to_string(s);
    m_log("slurm: job " + slurm_id + " (" + key + "): " + first->problem + ", submission(s) " + list + "; --time " +
          std::to_string(limits.minutes) + " --mem " + std::to_string(limits.memory_mib) + "M" +
          (limits.time_capped ? " (time capped by --slurm-minutes)" : "") +
          (limits.memory_capped ? " (memory capped by --slurm-mem)" : ""));
    return true;
  }

  /// How long one of Slurm's commands may take before it is killed (slurm_options::command_seconds).
  std::chrono::duration<double> command_limit() const {
    return std::chrono::duration<double>(m_options.command_seconds);
  }

  /// Runs sbatch, squeue or scancel, bounded: a hung Slurm controller costs one poll, never the backend.
  tool_result slurm_command(const std::vector<std::string>& argv) const {
    return run_trusted_tool(argv, command_limit());
  }

  tool_result sbatch(const std::string& key, const std::string& token, const std::string& problem,
                     const slurm_job_limits& limits) {
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
          << " slurm-job --server " << quoted(m_callback) << " --job " << key
          << (m_options.expect_gpu ? " --expect-gpu" : "") << (m_shared.options().strict ? " --strict" : "") << "\n";
    }
    std::vector<std::string> argv = {"sbatch",
                                     "--parsable",
                                     "--job-name=gpu-judge",
                                     "--partition=" + m_options.partition,
                                     "--gres=gpu:1",
                                     "--nodes=1",
                                     "--ntasks=1",
                                     "--no-requeue", // the server resubmits, as a new job with a new token
                                     "--time=" + std::to_string(limits.minutes),
                                     "--mem=" + std::to_string(limits.memory_mib) + "M",
                                     "--output=" + m_options.output,
                                     "--chdir=/tmp"};
    if (m_options.exclusive) argv.push_back("--exclusive");
    if (!m_bad_nodes.empty()) {
      std::string nodes;
      for (const std::string& n : m_bad_nodes) nodes += (nodes.empty() ? "" : ",") + n;
      argv.push_back("--exclude=" + nodes);
    }
    std::istringstream extra(m_options.extra);
    for (std::string word; extra >> word;) argv.push_back(word);
    argv.push_back(script.string());
    tool_result r = slurm_command(argv);
    std::error_code ignored;
    fs::remove(script, ignored);
    return r;
  }

  /// Asks squeue about the live jobs; a job that ended, or that Slurm no longer knows, ends here too, as
  /// does one that reported a fault of its node, one Slurm says can never run, and one pending too long.
  /// The submissions of the others get a note of where they stand.
  void track() {
    const std::vector<slurm_job> live = m_jobs.live();
    if (live.empty()) return;
    std::string ids;
    for (const slurm_job& j : live)
      if (!j.slurm_id.empty()) ids += (ids.empty() ? "" : ",") + j.slurm_id;
    if (ids.empty()) return;
    const tool_result r =
        slurm_command({"squeue", "--noheader", "--states=all", "--jobs=" + ids, "--format=%i|%T|%r|%N"});
    // "Invalid job id": a job Slurm has forgotten; the others are listed all the same.
    if (!r.succeeded() && (r.timed_out() || r.run.err.kept.find("Invalid job id") == std::string::npos)) {
      m_log("slurm: squeue failed (" + r.failure_text(command_limit()) + "); asking again later");
      return;
    }
    const std::map<std::string, slurm_job_state> states = parse_squeue(r.run.out.kept);
    const auto now = std::chrono::steady_clock::now();
    for (const slurm_job& j : live) {
      if (!j.fault.empty()) {
        if (!j.fault_node.empty()) m_bad_nodes.insert(j.fault_node);
        m_log("slurm: node " + j.fault_node + " of job " + j.slurm_id + " cannot grade (" + j.fault +
              "): left out of later jobs");
        end_job(j, "its node " + j.fault_node + " had " + j.fault, true, true);
        continue;
      }
      const auto it = states.find(j.slurm_id);
      if (it == states.end()) {
        end_job(j, "no longer known to Slurm", false, true);
        continue;
      }
      const slurm_job_state& s = it->second;
      if (finished_state(s.state)) {
        end_job(j, s.state, false, true);
        continue;
      }
      watch& w = m_watch.try_emplace(j.key, watch{now, "", false}).first->second;
      if (s.state == "PENDING") {
        const pending_kind kind = classify_pending(s.reason);
        const double waited = std::chrono::duration<double>(now - w.submitted).count();
        if (kind == pending_kind::impossible) {
          end_job(j, "Slurm cannot run it: " + s.reason, true, true);
          continue;
        }
        if (waited > m_options.pending_limit_seconds) {
          end_job(j,
                  "not started within " + std::to_string(static_cast<long>(m_options.pending_limit_seconds)) + " s (" +
                      s.reason + ")",
                  true, true);
          continue;
        }
        if (kind == pending_kind::blocked && !w.blocked) {
          w.blocked = true;
          m_log("slurm: job " + j.slurm_id + " cannot start until an admin acts: " + s.reason);
        }
        note(j, w,
             s.reason.empty() || s.reason == "None"
                 ? "waiting for Slurm: job " + j.slurm_id + " pending"
                 : "waiting for Slurm: " + s.reason + " (job " + j.slurm_id + " pending)");
      } else if (s.state == "RUNNING") {
        note(j, w, "running on node " + s.node + " (Slurm job " + j.slurm_id + ")");
      }
    }
  }

  /// Gives `j`'s submissions the note `text`, unless they carry it already.
  void note(const slurm_job& j, watch& w, const std::string& text) {
    if (w.note == text) return;
    w.note = text;
    m_queue.set_note(m_queue.held_by(slurm_worker_name(j.key)), text);
  }

  /// Revokes the job, cancels it when asked, and gives back what it still holds; `lost`: the job counts
  /// against each submission, and one lost with too many jobs fails, saying so (never the learner's fault).
  void end_job(const slurm_job& j, const std::string& why, bool cancel, bool lost) {
    m_watch.erase(j.key);
    if (!m_jobs.end(j.key, why)) return;
    if (cancel && !j.slurm_id.empty()) {
      const tool_result r = slurm_command({"scancel", j.slurm_id});
      // Refused for a job that ended meanwhile, which is what was wanted; only a hung or missing one is news.
      if (!r.started() || r.timed_out())
        m_log("slurm: scancel " + j.slurm_id + " failed (" + r.failure_text(command_limit()) + ")");
    }
    const std::string worker = slurm_worker_name(j.key);
    const std::vector<std::int64_t> held = m_queue.held_by(worker);
    if (held.empty()) return;
    m_queue.release(worker);
    std::vector<std::int64_t> back;
    std::string list;
    for (std::int64_t id : held) {
      if (lost && m_jobs.lost_one(id) >= m_options.max_lost) {
        m_queue.fail(id, "not graded: " + std::to_string(m_options.max_lost) +
                             " Slurm jobs ended before grading it (last: job " + j.slurm_id + ", " + why + ")");
        m_log("slurm: submission " + std::to_string(id) + " failed: lost with " + std::to_string(m_options.max_lost) +
              " jobs");
        continue;
      }
      back.push_back(id);
      list += (list.empty() ? "" : ",") + std::to_string(id);
    }
    if (!back.empty()) {
      m_queue.set_note(back,
                       "waiting for Slurm: job " + j.slurm_id + " ended (" + why + "); in the queue for a new job");
      m_log("slurm: job " + j.slurm_id + " (" + j.key + ") ended (" + why + ") holding submission(s) " + list +
            ": back to the queue, resubmitted in a new job");
    }
    m_shared.notify_compiled();
  }

  service_state& m_shared;
  slurm_options m_options;
  slurm_caps m_caps;
  std::string m_callback, m_judge;
  log_fn m_log;
  results_db m_store;
  submission_queue m_queue;
  slurm_jobs m_jobs;
  std::optional<std::chrono::steady_clock::time_point> m_ready_since; ///< when a compiled one first waited
  std::map<std::string, slurm_problem_facts> m_facts;                 ///< by problem
  std::map<std::string, watch> m_watch;                               ///< by job key
  std::set<std::string> m_bad_nodes; ///< nodes that reported they cannot grade: --exclude'd
};

std::string bearer(const http_request& req) {
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

bool slurm_job_request(service_state& state, const http_request& head) {
  static const std::regex route(R"(/api/v1/slurm/jobs/([0-9a-f]{16})(/.*)?)");
  std::smatch m;
  if (!std::regex_match(head.path, m, route)) return false;
  slurm_job job;
  return state.with_store([&](store_connection& c) {
    return slurm_jobs(c.store).authenticate(m[1], bearer(head), job) == job_access::granted;
  });
}

void add_slurm_routes(http_router& server, service_state& state) {
  // Only a live job's own token opens its routes: an unknown key is 404, anything else 401.
  auto job_of = [&state](const http_request& req, http_response& res) -> std::optional<slurm_job> {
    const std::string key = req.matches[1];
    slurm_job job;
    const job_access access =
        state.with_store([&](store_connection& c) { return slurm_jobs(c.store).authenticate(key, bearer(req), job); });
    if (access == job_access::unknown) {
      send_json(res, 404, {{"error", "no Slurm job " + key + " on this server"}});
      return std::nullopt;
    }
    if (access == job_access::refused) {
      send_json(res, 401, {{"error", "not the token of Slurm job " + key + ", or the job has ended"}});
      return std::nullopt;
    }
    return job;
  };
  server.get(R"(/api/v1/slurm/jobs/([0-9a-f]{16}))", [&state, job_of](const http_request& req, http_response& res) {
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
  server.post(R"(/api/v1/slurm/jobs/([0-9a-f]{16})/results)", [&state, job_of](const http_request& req,
                                                                               http_response& res) {
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
        g.result = record_from_json(body.at("result"));
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
      c.queue.set_node(id, node);
      return state_name(settle(c.queue, *s, g, false));
    });
    if (outcome.empty())
      return send_json(res, 409, {{"error", "submission " + std::to_string(id) + " is not held by this job"}});
    const std::string gpu = g.result ? g.result->device.uuid : "";
    send_json(res, 200, {{"id", id}, {"state", outcome}, {"node", node}, {"gpu_uuid", gpu}});
  });
  server.post(R"(/api/v1/slurm/jobs/([0-9a-f]{16})/fault)",
              [&state, job_of](const http_request& req, http_response& res) {
                const auto job = job_of(req, res);
                if (!job) return;
                std::string node, why;
                try {
                  const nlohmann::json body = nlohmann::json::parse(req.body);
                  node = body.at("node").get<std::string>();
                  why = body.at("why").get<std::string>();
                } catch (const std::exception& e) {
                  return send_json(res, 400, {{"error", std::string("a fault is {\"node\", \"why\"}: ") + e.what()}});
                }
                // The backend ends the job at its next poll and sends its batch out again without this node.
                state.with_store([&](store_connection& c) { slurm_jobs(c.store).record_fault(job->key, node, why); });
                send_json(res, 202, {{"job", job->key}, {"node", node}});
              });
}

} // namespace judge::service
