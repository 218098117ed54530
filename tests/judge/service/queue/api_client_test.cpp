#include "catch.hpp"
#include "results_fixtures.hpp"
#include "text_match.hpp"

#include "judge/report/report_json.hpp"
#include "judge/base/usage_error.hpp"
#include "judge/service/queue/api_client.hpp"

#include <httplib.h>

#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <thread>

using namespace judge::service;
using judge::usage_error;
using judge_test::contains;
using judge_test::temp_folder;

namespace {
template <typename F> std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

/// A stand-in for `judge serve` on 127.0.0.1 (a free port), answering as docs/api.md says, so the
/// client is tested alone; the real server is tested in serve_test.cpp.
class stand_in_server {
public:
  httplib::Server http;
  std::string last_authorization, last_body;
  int port = 0;

  stand_in_server() {
    http.Post("/api/v1/submissions", [this](const httplib::Request& req, httplib::Response& res) {
      last_authorization = req.get_header_value("Authorization");
      last_body = req.body;
      if (last_authorization != "Bearer jt_good") return refuse(res, 401, "not signed in");
      const auto j = nlohmann::json::parse(req.body);
      if (j["problem"] != "matmul") return refuse(res, 400, "unknown problem: " + j["problem"].get<std::string>());
      if (j["files"].size() > 2) {
        res.set_header("Retry-After", "42");
        return refuse(res, 429, "6 submissions in the last minute");
      }
      res.status = 202;
      res.set_content(R"({"id": 17, "state": "queued"})", "application/json");
    });
    http.Get(R"(/api/v1/submissions/(\d+))", [](const httplib::Request&, httplib::Response& res) {
      nlohmann::json s = {{"id", 17}, {"state", "done"}, {"gpu", "GPU-1 NVIDIA H200"}};
      s["result"] = judge::to_json(judge::testing::accepted_result("alice", 15000));
      res.set_content(s.dump(), "application/json");
    });
    http.Get("/api/v1/slurm/jobs/k1", [this](const httplib::Request& req, httplib::Response& res) {
      last_authorization = req.get_header_value("Authorization");
      res.set_content(R"({"submissions": []})", "application/json");
    });
    http.Post("/api/v1/slurm/jobs/k1/results", [this](const httplib::Request& req, httplib::Response& res) {
      last_body = req.body;
      refuse(res, 409, "submission 3 is not held by this job");
    });
    http.Get("/prefix/api/v1/problems/matmul", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(R"({"name": "matmul", "baseline": "cuBLAS"})", "application/json");
    });
    port = http.bind_to_any_port("127.0.0.1");
    m_thread = std::thread([this] { http.listen_after_bind(); });
    // stop() does nothing to a server not yet running: wait for it, so the destructor always ends it.
    while (!http.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~stand_in_server() {
    http.stop();
    m_thread.join();
  }
  server_url url(const std::string& prefix = "") const { return {"http://127.0.0.1:" + std::to_string(port), prefix}; }

private:
  static void refuse(httplib::Response& res, int status, const std::string& message) {
    res.status = status;
    res.set_content(nlohmann::json{{"error", message}}.dump(), "application/json");
  }
  std::thread m_thread;
};

void write_file(const std::filesystem::path& path, const std::string& text, mode_t mode) {
  std::ofstream(path) << text;
  ::chmod(path.c_str(), mode);
}
} // namespace

TEST_CASE("a server's URL is its origin and an optional path", "[submit]") {
  CHECK(parse_server_url("http://127.0.0.1:8080").origin == "http://127.0.0.1:8080");
  CHECK(parse_server_url("http://127.0.0.1:8080/").prefix.empty());
  const server_url behind_proxy = parse_server_url("https://judge.example.edu/gpu/");
  CHECK(behind_proxy.origin == "https://judge.example.edu");
  CHECK(behind_proxy.prefix == "/gpu");
  CHECK(parse_server_url("http://[::1]:8080").origin == "http://[::1]:8080");
}

TEST_CASE("a URL that is not a server's is refused naming it", "[submit]") {
  for (const char* url : {"judge.example.edu", "ftp://x", "http://", "http://host:port", "http://a b"}) {
    CAPTURE(url);
    const std::string why = error_of([&] { parse_server_url(url); });
    CHECK(contains(why, std::string("--server ") + url));
  }
  CHECK(contains(error_of([] { parse_server_url("http://h:70000"); }), "70000 is not a port"));
}

TEST_CASE("the token comes from the environment before the file", "[submit]") {
  temp_folder dir;
  write_file(dir / "token", "jt_from_file\n", 0600);
  CHECK(read_token("jt_from_env", dir / "token") == "jt_from_env");
  CHECK(read_token("", dir / "token") == "jt_from_file");
  CHECK(read_token(nullptr, dir / "token") == "jt_from_file");
}

TEST_CASE("a token file others can read is refused with how to fix it", "[submit]") {
  temp_folder dir;
  write_file(dir / "token", "jt_secret\n", 0644);
  const std::string why = error_of([&] { read_token(nullptr, dir / "token"); });
  CHECK(contains(why, "others can read this token file (mode 644)"));
  CHECK(contains(why, "chmod 600 " + (dir / "token").string()));
}

TEST_CASE("without a token the learner is told where to put one", "[submit]") {
  temp_folder dir;
  const std::string why = error_of([&] { read_token(nullptr, dir / "missing"); });
  CHECK(contains(why, "set JUDGE_TOKEN"));
  CHECK(contains(why, (dir / "missing").string()));
  write_file(dir / "empty", "\n", 0600);
  CHECK(contains(error_of([&] { read_token(nullptr, dir / "empty"); }), "the token file is empty"));
}

TEST_CASE("a submission is sent with the bearer token and its files and its id comes back", "[submit]") {
  stand_in_server server;
  api_client client(server.url(), "jt_good");
  CHECK(client.submit("matmul", {{"a.cu", "__global__ void k() {}"}, {"a.cuh", "#pragma once"}}) == 17);
  CHECK(server.last_authorization == "Bearer jt_good");
  const auto body = nlohmann::json::parse(server.last_body);
  CHECK(body["problem"] == "matmul");
  CHECK(body["files"][1]["name"] == "a.cuh");
  CHECK(body["files"][0]["content"] == "__global__ void k() {}");
}

TEST_CASE("a refusal carries the server's message and status", "[submit]") {
  stand_in_server server;
  SECTION("an unknown token") {
    api_client client(server.url(), "jt_bad");
    try {
      client.submit("matmul", {{"a.cu", ""}});
      FAIL("not refused");
    } catch (const server_refusal& e) {
      CHECK(e.status() == 401);
      CHECK(contains(e.what(), "not signed in; check the token (JUDGE_TOKEN or"));
    }
  }
  SECTION("an unknown problem") {
    api_client client(server.url(), "jt_good");
    CHECK(contains(error_of([&] { client.submit("nope", {{"a.cu", ""}}); }), "unknown problem: nope"));
  }
  SECTION("a rate limit, with when to try again") {
    api_client client(server.url(), "jt_good");
    try {
      client.submit("matmul", {{"a.cu", ""}, {"b.cu", ""}, {"c.cu", ""}});
      FAIL("not refused");
    } catch (const server_refusal& e) {
      CHECK(e.status() == 429);
      CHECK(e.retry_after_s() == 42);
      CHECK(contains(e.what(), "6 submissions in the last minute; try again in 42 s"));
    }
  }
}

TEST_CASE("a finished submission's result reads back as the same result", "[submit]") {
  stand_in_server server;
  api_client client(server.url(), "jt_good");
  const nlohmann::json s = client.submission(17);
  CHECK(s["state"] == "done");
  const judge::solution_result r = judge::record_from_json(s["result"]);
  CHECK(r.v == judge::verdict::accepted);
  CHECK(r.score == 15000);
}

TEST_CASE("a server under a path is asked under that path", "[submit]") {
  stand_in_server server;
  api_client client(server.url("/prefix"), "jt_good");
  CHECK(client.problem("matmul")["baseline"] == "cuBLAS");
  CHECK(client.page_url(17) == server.url().origin + "/prefix/submissions/17");
}

TEST_CASE("a server that does not answer is named with the transport's error", "[submit]") {
  int port = 0;
  {
    stand_in_server gone;
    port = gone.port;
  }
  api_client client({"http://127.0.0.1:" + std::to_string(port), ""}, "jt_good");
  try {
    client.submit("matmul", {{"a.cu", ""}});
    FAIL("no error");
  } catch (const server_unreachable& e) {
    CHECK(contains(e.what(), "cannot reach the judge at http://127.0.0.1:" + std::to_string(port)));
  }
}

TEST_CASE("a Slurm job's calls carry its token and give the answer back as it came", "[submit]") {
  stand_in_server server;
  api_client client(server.url(), "jt_job", job_limits);
  const api_answer batch = client.job_batch("k1");
  REQUIRE(batch);
  CHECK(batch.status == 200);
  CHECK(nlohmann::json::parse(batch.body)["submissions"].empty());
  CHECK(server.last_authorization == "Bearer jt_job");
  const api_answer posted = client.post_job_result("k1", {{"submission", 3}, {"node", "gpu07"}});
  CHECK(posted.status == 409);
  CHECK(contains(posted.body, "not held by this job"));
  CHECK(nlohmann::json::parse(server.last_body)["node"] == "gpu07");
}

TEST_CASE("a call that gets no answer says why, in the transport's words and in a learner's", "[submit]") {
  int port = 0;
  {
    stand_in_server gone;
    port = gone.port;
  }
  api_client client({"http://127.0.0.1:" + std::to_string(port), ""}, "jt_job");
  const api_answer none = client.job_batch("k1");
  CHECK_FALSE(none);
  CHECK(none.error == httplib::to_string(httplib::Error::Connection));
  CHECK(contains(none.reason, "the connection was refused"));
}
