// The Slurm backend's record of its jobs, in the results store's SQLite file next to the queue: which
// submissions each job holds, the SHA-256 of the job's token (the job posts its results with it), its
// Slurm id, and whether it is still live. A job that ended is revoked: its token no longer works, so a
// late post from a job already replaced cannot settle a submission a second time. Per submission, how
// many jobs were lost while holding it (the backend gives up, and says so, after a few).
#pragma once

#include "judge/store/results_db.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace judge::service {

struct slurm_job {
  std::string key;                       ///< the backend's name for the job (URL-safe hex)
  std::string slurm_id;                  ///< sbatch's job id ("" until submitted)
  std::vector<std::int64_t> submissions; ///< what it was given to grade
  bool live = true;                      ///< false once ended (revoked)
  std::string submitted_at;              ///< ISO-8601 UTC
  /// What the job reported of its node before it graded anything ("" if nothing): the node it ran on
  /// lacks what the job was promised (`judge slurm-job --expect-gpu` found no CUDA device).
  std::string fault, fault_node;
};

/// Who may use a job's routes: its own live token only.
enum class job_access {
  granted, ///< a live job, and its token
  unknown, ///< no job of that key (404)
  refused, ///< not its token, or the job has ended (revoked): 401
};

/// "slurm <key>": the job's name as the queue's worker.
std::string slurm_worker_name(const std::string& key);

/// Use from one thread at a time (the connection of the results_db it is given).
class slurm_jobs {
public:
  explicit slurm_jobs(results_db& store); ///< its tables are the store's (store/store_schema.hpp)

  /// Records a new live job holding `submissions`; returns its token (kept only as a hash).
  std::string add(const std::string& key, const std::vector<std::int64_t>& submissions);
  void set_slurm_id(const std::string& key, const std::string& slurm_id);
  /// Whether `token` opens job `key`'s routes, and the job when it does.
  job_access authenticate(const std::string& key, const std::string& token, slurm_job& job);
  /// The job says its node cannot grade (`why`); the backend ends it and sends its batch elsewhere.
  void record_fault(const std::string& key, const std::string& node, const std::string& why);
  /// Every live job.
  std::vector<slurm_job> live();
  /// Ends (revokes) the job; false when it had already ended.
  bool end(const std::string& key, const std::string& why);
  /// One more job was lost while holding `id`; returns how many have been.
  int lost_one(std::int64_t id);

private:
  sqlite::database& m_db;
};

} // namespace judge::service
