// The Slurm backend of `judge serve` (docs/slurm.md). The queue stays the server's: compile threads build
// submissions on the server's cores as with local GPUs; then, instead of local GPU workers, one thread
// hands compiled submissions to Slurm, a batch of one problem per job (`sbatch --gres=gpu:1`), tracks the
// jobs with squeue, and gives back to the queue (so they go out again in a new job) the submissions of a
// job that ended without settling them: killed, timed out, its node lost, preempted. The job runs
// `judge slurm-job` on the compute node, which fetches its batch from the server and posts each result
// back over HTTP with the job's own token (slurm_jobs.hpp): nodes never open the SQLite file.
// Exactly once: a result settles a submission only while the job that posts it still holds it, in the
// queue's one transaction (submission_queue::finish); an ended job's token is revoked.
#pragma once

#include "judge/service/http/http_server.hpp"
#include "judge/service/queue/server_options.hpp"
#include "judge/service/queue/submission_grading.hpp"

#include <atomic>
#include <functional>
#include <string>
#include <thread>

namespace judge::service {

class service_state;

/// Runs the backend until `shared.stopping()`; on the way out, cancels its live jobs and gives their
/// submissions back to the queue. `callback` is the server's URL for the jobs.
std::thread start_slurm_backend(service_state& shared, const slurm_options& options, const std::string& callback,
                                const std::string& judge_executable,
                                const std::function<void(const std::string&)>& log);

/// The routes the jobs use: GET /api/v1/slurm/jobs/{key} (the batch), POST .../{key}/results (one result)
/// and POST .../{key}/fault (the node cannot grade). An unknown key is 404; a wrong token or an ended
/// job's is 401; a result for a submission the job no longer holds (already settled) is 409.
void add_slurm_routes(http_router& server, service_state& state);
/// Whether `head` is a request to a live Slurm job's route with that job's token (its results may be
/// larger than a stranger's body may be).
bool slurm_job_request(service_state& state, const http_request& head);

/// `judge slurm-job`: on the node, fetch the batch of job `key` from `server`, grade it in one grading run
/// (grade_submissions), post each result as it comes, with the node's name (SLURMD_NODENAME). With
/// `expect_gpu`, a node without a CUDA device reports that (the fault route) and grades nothing.
/// Returns 0 when every result was taken (or refused as no longer this job's), 1 otherwise (the server
/// then gives the rest to another job).
int run_slurm_job(const std::string& server, const std::string& key, const std::string& token,
                  const grading_setup& setup, bool expect_gpu, const std::function<void(const std::string&)>& log);

} // namespace judge::service
