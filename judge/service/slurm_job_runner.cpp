// `judge slurm-job`, on the compute node (slurm_backend.hpp): fetch the batch, grade it, post each result.
#include "judge/run/device_probe.hpp"
#include "judge/report/report_json.hpp"
#include "judge/service/slurm_backend.hpp"

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <thread>

namespace judge::service {

namespace {
/// A client for the server that sends the job's token; the server may be busy on a deadline night, so
/// reads wait long.
httplib::Client client_for(const std::string& server, const std::string& token) {
  httplib::Client http(server);
  http.set_bearer_token_auth(token.c_str());
  http.set_connection_timeout(10);
  http.set_read_timeout(60);
  return http;
}

/// `call` until it reaches the server, up to 5 times, waiting 1, 2, 4, 8 s between (a server restarting).
template <typename F> httplib::Result with_retries(F call) {
  for (int attempt = 0;; ++attempt) {
    httplib::Result r = call();
    if (r || attempt == 4) return r;
    std::this_thread::sleep_for(std::chrono::seconds(1 << attempt));
  }
}

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}
} // namespace

int run_slurm_job(const std::string& server, const std::string& key, const std::string& token,
                  const grading_setup& setup, bool expect_gpu, const std::function<void(const std::string&)>& log) {
  httplib::Client http = client_for(server, token);
  const std::string base = "/api/v1/slurm/jobs/" + key;
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
      const std::string path = base + "/fault";
      const nlohmann::json body = {{"node", node}, {"why", why}};
      const httplib::Result posted =
          with_retries([&] { return http.Post(path.c_str(), body.dump(), "application/json"); });
      log("node " + node + " has " + why + ": reported to the server (" +
          (posted ? std::to_string(posted->status) : httplib::to_string(posted.error())) + ")");
      return 1;
    }
    log("GPU " + probe.device->uuid + " " + probe.device->name);
  }
  const httplib::Result got = with_retries([&] { return http.Get(base.c_str()); });
  if (!got) {
    log("cannot reach the server at " + server + " (" + httplib::to_string(got.error()) + ")");
    return 1;
  }
  if (got->status != 200) {
    log("the server refused the job (" + std::to_string(got->status) + "): " + got->body);
    return 1;
  }
  std::vector<submission> batch;
  const nlohmann::json reply = nlohmann::json::parse(got->body); // held: the loop reads into it
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
    const std::string path = base + "/results";
    const httplib::Result posted =
        with_retries([&] { return http.Post(path.c_str(), body.dump(), "application/json"); });
    if (!posted || (posted->status != 200 && posted->status != 409)) {
      log("submission " + std::to_string(s.id) + ": the server did not take its result (" +
          (posted ? std::to_string(posted->status) + " " + posted->body : httplib::to_string(posted.error())) + ")");
      all_taken = false;
      return;
    }
    log("submission " + std::to_string(s.id) + ": " + posted->body);
  });
  return all_taken ? 0 : 1;
}

} // namespace judge::service
