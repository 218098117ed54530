// The routes a Slurm job uses (slurm_backend.hpp), over HTTP against the server's own routes in this
// process: who may use them (unknown job 404, wrong token or ended job 401), and that a submission is
// settled exactly once (a second post of its result is 409), with the node it ran on.
#include "judge/service/api_json.hpp"
#include "catch.hpp"
#include "judge/report/report_json.hpp"
#include "results_fixtures.hpp"
#include "judge/service/server.hpp"
#include "judge/service/slurm/slurm_backend.hpp"
#include "judge/service/slurm/slurm_jobs.hpp"
#include "text_match.hpp"

#include <httplib.h>

#include <chrono>
#include <thread>

using namespace judge;
using namespace judge::service;
using judge_test::contains;
using judge_test::temp_folder;

namespace {
server_options options_in(const temp_folder& dir) {
  server_options o;
  o.root = JUDGE_SOURCE_DIR;
  o.db = dir / "judge.db";
  return o;
}

/// The Slurm routes on 127.0.0.1 with one job, `key`, holding one running submission of alice's.
struct slurm_routes {
  temp_folder dir;
  service_state state{options_in(dir)};
  http_router routes;
  std::unique_ptr<http_server> server;
  int port = 0;
  std::thread thread;
  const std::string key = "00112233aabbccdd";
  std::int64_t id = 0;
  std::string token;

  slurm_routes() {
    add_slurm_routes(routes, state);
    routes.set_trusted([this](const http_request& head) { return slurm_job_request(state, head); });
    server = std::make_unique<http_server>(routes, http_limits{});
    port = server->bind("127.0.0.1", 0);
    thread = std::thread([this] { server->run(); });
    state.with_store([&](store_connection& c) {
      id = c.queue.enqueue("alice", "vector_add", {{"a.cu", "// alice"}});
      c.queue.claim_for_compile("compile 1");
      c.queue.compiled(id);
      c.queue.claim_for_gpu(slurm_worker_name(key));
      token = slurm_jobs(c.store).add(key, {id});
    });
  }
  ~slurm_routes() {
    server->stop();
    thread.join();
  }

  httplib::Client client(const std::string& bearer) const {
    httplib::Client c("127.0.0.1", port);
    if (!bearer.empty()) c.set_bearer_token_auth(bearer.c_str());
    return c;
  }
  /// A "compiled, not run" result for submission `id`, posted from node `node`.
  std::string result_body(const std::string& node) const {
    solution_result r;
    r.problem = "vector_add";
    r.path = "submission " + std::to_string(id);
    r.v = verdict::internal_error;
    r.compiled_only = true;
    r.message = "compiled; not run: no CUDA device is present";
    return nlohmann::json{{"submission", id}, {"node", node}, {"result", to_json(r)}}.dump();
  }
  submission now() {
    return *state.with_store([&](store_connection& c) { return c.queue.get(id); });
  }
};
} // namespace

TEST_CASE("a Slurm job that does not exist is 404 on every route", "[service][slurm]") {
  slurm_routes s;
  httplib::Client c = s.client(s.token);
  const auto got = c.Get("/api/v1/slurm/jobs/ffffffffffffffff");
  REQUIRE(got);
  CHECK(got->status == 404);
  CHECK(contains(got->body, "no Slurm job ffffffffffffffff"));
  const auto posted = c.Post("/api/v1/slurm/jobs/ffffffffffffffff/results", s.result_body("gpu07"), "application/json");
  REQUIRE(posted);
  CHECK(posted->status == 404);
  CHECK(s.now().now == state::running);
}

TEST_CASE("a Slurm job's routes refuse another token, none, and its own once it has ended", "[service][slurm]") {
  slurm_routes s;
  const std::string path = "/api/v1/slurm/jobs/" + s.key + "/results";
  for (const std::string& wrong : {std::string("jt_not_this_jobs_token"), std::string()}) {
    CAPTURE(wrong);
    const auto posted = s.client(wrong).Post(path.c_str(), s.result_body("gpu07"), "application/json");
    REQUIRE(posted);
    CHECK(posted->status == 401);
    const auto got = s.client(wrong).Get(("/api/v1/slurm/jobs/" + s.key).c_str());
    REQUIRE(got);
    CHECK(got->status == 401);
  }
  CHECK(s.now().now == state::running);
  s.state.with_store([&](store_connection& c) { return slurm_jobs(c.store).end(s.key, "CANCELLED"); });
  const auto late = s.client(s.token).Post(path.c_str(), s.result_body("gpu07"), "application/json");
  REQUIRE(late);
  CHECK(late->status == 401);
  CHECK(contains(late->body, "the job has ended"));
  CHECK(s.now().now == state::running);
}

TEST_CASE("a Slurm job's result settles its submission once, with its node, and a second post is 409",
          "[service][slurm]") {
  slurm_routes s;
  httplib::Client c = s.client(s.token);
  const auto batch = c.Get(("/api/v1/slurm/jobs/" + s.key).c_str());
  REQUIRE(batch);
  REQUIRE(batch->status == 200);
  const auto listed = nlohmann::json::parse(batch->body).at("submissions");
  REQUIRE(listed.size() == 1);
  CHECK(listed[0].at("id") == s.id);

  const std::string path = "/api/v1/slurm/jobs/" + s.key + "/results";
  const auto first = c.Post(path.c_str(), s.result_body("gpu07"), "application/json");
  REQUIRE(first);
  CHECK(first->status == 200);
  const auto reply = nlohmann::json::parse(first->body);
  CHECK(reply.at("state") == "done");
  CHECK(reply.at("node") == "gpu07");
  const submission done = s.now();
  CHECK(done.now == state::done);
  CHECK(done.node == "gpu07");
  CHECK(submission_json(done, false).at("node") == "gpu07");
  const std::string finished_at = done.finished_at;

  const auto second = c.Post(path.c_str(), s.result_body("gpu99"), "application/json");
  REQUIRE(second);
  CHECK(second->status == 409);
  CHECK(contains(second->body, "is not held by this job"));
  const submission after = s.now();
  CHECK(after.node == "gpu07");
  CHECK(after.finished_at == finished_at);
  const auto emptied = c.Get(("/api/v1/slurm/jobs/" + s.key).c_str());
  REQUIRE(emptied);
  CHECK(nlohmann::json::parse(emptied->body).at("submissions").empty());
}

TEST_CASE("a Slurm job reports a fault of its node and the job records it for the backend", "[service][slurm]") {
  slurm_routes s;
  const std::string path = "/api/v1/slurm/jobs/" + s.key + "/fault";
  const auto bad = s.client(s.token).Post(path.c_str(), "{\"node\": 3}", "application/json");
  REQUIRE(bad);
  CHECK(bad->status == 400);
  const auto posted = s.client(s.token).Post(
      path.c_str(), nlohmann::json{{"node", "gpu07"}, {"why", "no CUDA device (no driver)"}}.dump(),
      "application/json");
  REQUIRE(posted);
  CHECK(posted->status == 202);
  const auto live = s.state.with_store([&](store_connection& c) { return slurm_jobs(c.store).live(); });
  REQUIRE(live.size() == 1);
  CHECK(live[0].fault == "no CUDA device (no driver)");
  CHECK(live[0].fault_node == "gpu07");
  CHECK(s.now().now == state::running); // the backend, not the route, sends it elsewhere
}
