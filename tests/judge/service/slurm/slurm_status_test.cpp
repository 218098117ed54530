#include "catch.hpp"
#include "judge/service/slurm/slurm_status.hpp"

using namespace judge::service;

TEST_CASE("squeue's lines are read by job id and other lines are left out", "[service][slurm]") {
  const auto jobs = parse_squeue("12|PENDING|PartitionDown|\n"
                                 "13|RUNNING|None|gpu07\n"
                                 "14|PENDING|ReqNodeNotAvail, UnavailableNodes:gpu03|\n"
                                 "squeue: error: something\n"
                                 "15_2|RUNNING|None|gpu01\n"
                                 "16|COMPLETED\n");
  REQUIRE(jobs.size() == 3);
  CHECK(jobs.at("12").state == "PENDING");
  CHECK(jobs.at("12").reason == "PartitionDown");
  CHECK(jobs.at("12").node.empty());
  CHECK(jobs.at("13").node == "gpu07");
  CHECK(jobs.at("14").reason == "ReqNodeNotAvail, UnavailableNodes:gpu03");
}

TEST_CASE("a job in an end state will not run again and one pending or running will", "[service][slurm]") {
  for (const char* s : {"COMPLETED", "CANCELLED", "FAILED", "TIMEOUT", "NODE_FAIL", "PREEMPTED", "OUT_OF_MEMORY"}) {
    CAPTURE(s);
    CHECK(finished_state(s));
  }
  for (const char* s : {"PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED"}) {
    CAPTURE(s);
    CHECK_FALSE(finished_state(s));
  }
}

TEST_CASE("a pending job's reason says whether it waits its turn, needs an admin or can never run",
          "[service][slurm]") {
  CHECK(classify_pending("Priority") == pending_kind::waiting);
  CHECK(classify_pending("Resources") == pending_kind::waiting);
  CHECK(classify_pending("QOSMaxJobsPerUserLimit") == pending_kind::waiting);
  CHECK(classify_pending("SomeReasonSlurmAddsLater") == pending_kind::waiting);
  CHECK(classify_pending("PartitionDown") == pending_kind::blocked);
  CHECK(classify_pending("ReqNodeNotAvail, UnavailableNodes:gpu03") == pending_kind::blocked);
  CHECK(classify_pending("NodeDown") == pending_kind::blocked);
  CHECK(classify_pending("BadConstraints") == pending_kind::impossible);
  CHECK(classify_pending("PartitionTimeLimit") == pending_kind::impossible);
  CHECK(classify_pending("InvalidAccount") == pending_kind::impossible);
}
