#include "judge/service/slurm/slurm_status.hpp"

#include <sstream>

namespace judge::service {

std::map<std::string, slurm_job_state> parse_squeue(const std::string& output) {
  std::map<std::string, slurm_job_state> out;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    std::string fields[4];
    std::size_t n = 0, from = 0;
    for (; n < 4; ++n) {
      const std::size_t bar = line.find('|', from);
      fields[n] = line.substr(from, bar == std::string::npos ? std::string::npos : bar - from);
      if (bar == std::string::npos) break;
      from = bar + 1;
    }
    // id|STATE|reason|nodes: four fields, an id of digits (an array task's "12_3" is not ours).
    if (n != 3 || fields[0].empty() || fields[0].find_first_not_of("0123456789") != std::string::npos) continue;
    out[fields[0]] = slurm_job_state{fields[1], fields[2], fields[3]};
  }
  return out;
}

bool finished_state(const std::string& state) {
  for (const char* end : {"COMPLETED", "CANCELLED", "FAILED", "TIMEOUT", "NODE_FAIL", "PREEMPTED", "BOOT_FAIL",
                          "DEADLINE", "OUT_OF_MEMORY", "SPECIAL_EXIT", "REVOKED"})
    if (state == end) return true;
  return false;
}

pending_kind classify_pending(const std::string& reason) {
  // Slurm's reason codes (squeue(1), "JOB REASON CODES"); "ReqNodeNotAvail, UnavailableNodes:n1" is read
  // by its first word. A reason not listed waits: Slurm adds codes, and a job that truly never starts is
  // caught by the pending limit.
  const std::string code = reason.substr(0, reason.find_first_of(", "));
  for (const char* r : {"BadConstraints", "PartitionConfig", "PartitionTimeLimit", "PartitionNodeLimit",
                        "InvalidAccount", "InvalidQOS", "AccountNotAllowed", "DependencyNeverSatisfied"})
    if (code == r) return pending_kind::impossible;
  for (const char* r :
       {"PartitionDown", "PartitionInactive", "ReqNodeNotAvail", "NodeDown", "FrontEndDown", "JobHeldAdmin"})
    if (code == r) return pending_kind::blocked;
  return pending_kind::waiting;
}

} // namespace judge::service
