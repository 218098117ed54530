// `judge slurm-job`, on the compute node (slurm_backend.hpp): fetch the batch, grade it, post each result,
// through the API's client (queue/api_client.hpp) with the job's token.
#include "judge/base/environment.hpp"
#include "judge/run/device_probe.hpp"
#include "judge/report/report_json.hpp"
#include "judge/service/queue/api_client.hpp"
#include "judge/service/slurm/slurm_backend.hpp"

#include <nlohmann/json.hpp>

namespace judge::service {

namespace {
std::string env_or(const char* name, const std::string& fallback) {
  const char* v = non_empty_env(name);
  return v ? v : fallback;
}

/// How a post went, for the log: the status, or the transport's error.
std::string outcome_of(const api_answer& posted) { return posted ? std::to_string(posted.status) : posted.error; }
} // namespace

int run_slurm_job(const std::string& server, const std::string& key, const std::string& token,
                  const grading_setup& setup, bool expect_gpu, const std::function<void(const std::string&)>& log) {
  api_client client(parse_server_url(server), token, job_limits);
  const std::string node = env_or("SLURMD_NODENAME", "");
  log("job " + env_or("SLURM_JOB_ID", "?") + " on node " + node +
      ", CUDA_VISIBLE_DEVICES=" + env_or("CUDA_VISIBLE_DEVICES", "(unset)"));
  if (expect_gpu) {
    // The job asked for a GPU (--gres=gpu:1): finding none is the node's fault, not a result. The server
    // sends the batch to another node; grading here would end every submission "not run".
    const probe_result probe = probe_device(false);
    if (!probe.device) {
      const std::string why =
          probe.no_device ? "no CUDA device (" + probe.error + ")" : "a GPU probe that failed (" + probe.error + ")";
      const api_answer posted = client.post_job_fault(key, {{"node", node}, {"why", why}});
      log("node " + node + " has " + why + ": reported to the server (" + outcome_of(posted) + ")");
      return 1;
    }
    log("GPU " + probe.device->uuid + " " + probe.device->name);
  }
  const api_answer got = client.job_batch(key);
  if (!got) {
    log("cannot reach the server at " + server + " (" + got.error + ")");
    return 1;
  }
  if (got.status != 200) {
    log("the server refused the job (" + std::to_string(got.status) + "): " + got.body);
    return 1;
  }
  std::vector<submission> batch;
  const nlohmann::json reply = nlohmann::json::parse(got.body); // held: the loop reads into it
  for (const auto& j : reply.at("submissions")) {
    submission s;
    s.id = j.at("id");
    s.account = j.at("account");
    s.problem = j.at("problem");
    for (const auto& f : j.at("files")) s.files.push_back({f.at("name"), f.at("content")});
    s.now = state::running;
    batch.push_back(std::move(s));
  }
  log(std::to_string(batch.size()) + " submission(s) to grade");
  bool all_taken = true;
  grade_submissions(batch, setup, [&](const submission& s, const graded& g) {
    if (g.interrupted) { // SIGTERM (scancel, the time limit): the server gives it to another job
      all_taken = false;
      return;
    }
    nlohmann::json body = {{"submission", s.id}, {"node", node}};
    if (g.result)
      body["result"] = to_json(*g.result);
    else
      body["failure"] = g.failure;
    const api_answer posted = client.post_job_result(key, body);
    if (!posted || (posted.status != 200 && posted.status != 409)) {
      log("submission " + std::to_string(s.id) + ": the server did not take its result (" +
          (posted ? std::to_string(posted.status) + " " + posted.body : posted.error) + ")");
      all_taken = false;
      return;
    }
    log("submission " + std::to_string(s.id) + ": " + posted.body);
  });
  return all_taken ? 0 : 1;
}

} // namespace judge::service
