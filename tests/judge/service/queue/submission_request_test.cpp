#include "catch.hpp"
#include "judge/service/queue/gpu_list.hpp"
#include "results_fixtures.hpp"
#include "judge/service/queue/submission_request.hpp"
#include "text_match.hpp"

using namespace judge;
using namespace judge::service;
using judge_test::contains;
using judge_test::temp_folder;

namespace {
bool only_matmul(const std::string& name) { return name == "matmul"; }
} // namespace

TEST_CASE("source names are plain file names ending .cu .cuh or .h", "[service]") {
  for (const char* good : {"a.cu", "my_kernel-2.cu", "util.cuh", "x.h", "A.B.cu"}) {
    CAPTURE(good);
    CHECK(valid_source_name(good));
  }
  for (const char* bad : {"", ".cu", "../a.cu", "a/b.cu", "a.cpp", "a .cu", "a.cu\n", "caf\xc3\xa9.cu", ".hidden.cu"}) {
    CAPTURE(bad);
    CHECK_FALSE(valid_source_name(bad));
  }
}

TEST_CASE("a well-formed submission keeps its files in order", "[service]") {
  const auto r = parse_submission_request(
      R"({"problem": "matmul", "files": [{"name": "b.cu", "content": "B"}, {"name": "a.cuh", "content": "A"}]})", {},
      only_matmul);
  CHECK(r.problem == "matmul");
  REQUIRE(r.files.size() == 2);
  CHECK(r.files[0].name == "b.cu");
  CHECK(r.files[1].content == "A");
}

TEST_CASE("a file at the size limit passes and one byte more is refused", "[service]") {
  submission_limits limits{2, 10};
  auto body = [](std::size_t n) {
    return R"({"problem": "matmul", "files": [{"name": "a.cu", "content": ")" + std::string(n, 'x') + "\"}]}";
  };
  CHECK(parse_submission_request(body(10), limits, only_matmul).files[0].content.size() == 10);
  CHECK_THROWS_AS(parse_submission_request(body(11), limits, only_matmul), bad_request);
}

TEST_CASE("a duplicate file name is refused by position", "[service]") {
  try {
    parse_submission_request(
        R"({"problem": "matmul", "files": [{"name": "a.cu", "content": ""}, {"name": "a.cu", "content": ""}]})", {},
        only_matmul);
    FAIL("accepted");
  } catch (const bad_request& e) {
    CHECK(contains(e.what(), "files[1]: \"a.cu\" appears twice"));
  }
}

TEST_CASE("utc_text writes ISO-8601 UTC as utc_now does", "[service]") {
  CHECK(utc_text(std::chrono::system_clock::from_time_t(0)) == "1970-01-01T00:00:00Z");
  CHECK(utc_text(std::chrono::system_clock::from_time_t(1700000000)) == "2023-11-14T22:13:20Z");
}

TEST_CASE("the rate limit refuses at the limits and says which", "[service]") {
  temp_folder dir;
  results_db store(dir / "judge.db");
  submission_queue queue(store);
  const auto now = std::chrono::system_clock::now();
  CHECK_FALSE(rate_limit(queue, "alice", 2, 2, now));
  const auto first = queue.enqueue("alice", "matmul", {{"a.cu", ""}});
  CHECK_FALSE(rate_limit(queue, "alice", 2, 2, now));
  queue.enqueue("alice", "matmul", {{"a.cu", ""}});
  const auto waiting = rate_limit(queue, "alice", 5, 2, now);
  REQUIRE(waiting);
  CHECK(contains(waiting->message, "at most 2 at once"));
  queue.fail(first, "x");
  const auto per_minute = rate_limit(queue, "alice", 2, 5, now);
  REQUIRE(per_minute);
  CHECK(per_minute->retry_after == 60);
  // A minute later the two no longer count.
  CHECK_FALSE(rate_limit(queue, "alice", 2, 5, now + std::chrono::seconds(62)));
  CHECK_FALSE(rate_limit(queue, "bob", 1, 1, now));
}

TEST_CASE("nvidia-smi's GPU list is read as index and UUID and name and compute capability", "[service]") {
  const auto gpus = parse_gpu_list("0, GPU-aaaa-1111, NVIDIA H200\n1, GPU-bbbb-2222, NVIDIA H200\n\nNo devices\n");
  REQUIRE(gpus.size() == 2);
  CHECK(gpus[1].index == 1);
  CHECK(gpus[1].uuid == "GPU-bbbb-2222");
  CHECK(gpus[0].name == "NVIDIA H200");
  CHECK(gpus[1].cc.empty());
  CHECK(parse_gpu_list("").empty());
  CHECK(archs_of(gpus).empty()); // unknown: the workers compile for themselves

  const auto newer =
      parse_gpu_list("0, GPU-a, NVIDIA H200, 9.0\n1, GPU-b, NVIDIA A100-SXM4-80GB, 8.0\n2, GPU-c, NVIDIA H200, 9.0\n");
  REQUIRE(newer.size() == 3);
  CHECK(newer[1].name == "NVIDIA A100-SXM4-80GB");
  CHECK(newer[1].cc == "8.0");
  CHECK(archs_of(newer) == "90a,80"); // each GPU's compile target, once
  std::string why;
  CHECK_THROWS_AS(find_gpus("0;1", why), std::invalid_argument);
}
