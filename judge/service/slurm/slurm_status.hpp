// What Slurm says of a job, as the backend reads it: squeue's lines parsed into facts, whether a state
// is final, and what a pending job's reason means for the submissions it holds. Pure functions, so the
// decisions are tested without a cluster (tests/judge/service/slurm/slurm_status_test.cpp).
#pragma once

#include <map>
#include <string>

namespace judge::service {

/// One line of `squeue --format=%i|%T|%r|%N`.
struct slurm_job_state {
  std::string state;  ///< PENDING, RUNNING, COMPLETED, CANCELLED, ...
  std::string reason; ///< why it pends (Resources, Priority, PartitionDown, ...); "None" otherwise
  std::string node;   ///< the node it runs on; "" while pending
};

/// squeue's output (lines `id|STATE|reason|nodes`), by job id; lines of another shape are left out.
std::map<std::string, slurm_job_state> parse_squeue(const std::string& output);

/// A state in which a job will never run (again): what it holds goes back to the queue.
bool finished_state(const std::string& state);

/// What a pending job's reason means.
enum class pending_kind {
  waiting,    ///< its turn will come (Priority, Resources, a QOS or association limit, a begin time)
  blocked,    ///< it cannot start until an admin acts (PartitionDown, ReqNodeNotAvail, NodeDown, ...)
  impossible, ///< it can never run as submitted (BadConstraints, PartitionTimeLimit, InvalidAccount, ...)
};
pending_kind classify_pending(const std::string& reason);

} // namespace judge::service
