// The options of `judge serve`, each default written once, here: the command line binds its options to
// these fields (cli/cli_serve.cpp) and its help shows their defaults. The server's own, and those of the
// Slurm backend (slurm/slurm_backend.hpp, docs/slurm.md) when it grades through Slurm.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace judge::service {

/// `judge serve --backend slurm`: where and how the jobs run.
struct slurm_options {
  std::string partition;     ///< --partition (required for the backend)
  std::size_t batch = 8;     ///< submissions of one problem per job, at most (fewer when the time cap says so)
  std::size_t max_jobs = 16; ///< jobs live (pending or running) at once
  /// Caps of a job's --time [min] and --mem (sbatch's units): a job asks what its problem's limits and
  /// batch need (slurm/slurm_limits.hpp), never more; with `fixed_limits`, exactly these.
  int minutes = 60;
  std::string memory = "16G";
  bool fixed_limits = false;
  /// [s] a job still pending after this long is cancelled and its batch sent out again (counted as lost).
  double pending_limit_seconds = 1800;
  /// The nodes promise a GPU: a job that finds no CUDA device reports its node (which is then left out of
  /// later jobs) instead of grading "not run: no CUDA device". Off on a test cluster without GPUs.
  bool expect_gpu = false;
  bool exclusive = false; ///< sbatch --exclusive: no other job on a grading job's node
  std::string callback;   ///< the server's URL as the nodes reach it ("": the address it listens on)
  std::string judge;      ///< the judge's executable on the nodes ("": this server's own)
  std::string output = "/tmp/gpu-judge-slurm-%j.out"; ///< --output of a job, on the node
  std::string extra;         ///< more sbatch options, split on spaces (--account=..., --qos=...)
  int max_lost = 3;          ///< jobs lost holding a submission before it fails ("not graded")
  double poll_seconds = 1.0; ///< how often squeue is asked
  /// [s] how long sbatch, squeue or scancel may take before it is killed: a Slurm controller that hangs
  /// costs a poll (squeue: asked again later; sbatch: the batch back to the queue), never the backend.
  double command_seconds = 30;
  double gather_seconds = 3.0; ///< how long a compiled submission may wait for its batch to fill
};

/// The server: where it listens, its store and problems, its limits, who grades.
struct server_options {
  std::string host = "127.0.0.1";
  int port = 8080;                      ///< 0: any free port (the log line "listening on ..." names it)
  std::filesystem::path db;             ///< the results store (and queue, accounts)
  std::filesystem::path root;           ///< holds problems/ and testcases/
  /// The course file (course/course_file.hpp): assignments, releases, deadlines; empty for none.
  std::filesystem::path course;
  std::string gpus = "all";             ///< "all", "none", or indexes "0,1"
  int per_minute = 6;                   ///< submissions per student per minute
  int queued_at_once = 3;               ///< a student's submissions not yet graded
  int instructor_queued_at_once = 50;   ///< an instructor's submissions not yet graded (0: no cap)
  double request_deadline_seconds = 30; ///< for a whole request, first byte to last (http_limits)
  std::size_t max_connections = 4096;   ///< open at once (http_limits::connections)
  bool contest = false;                 ///< students see hidden cases' name, shape and verdict only
  /// Robustness cases decide like every other case (grade_options::strict), for every submission.
  bool strict = false;
  std::size_t max_files = 8, max_file_bytes = 256 * 1024;
  unsigned compile_threads = 0; ///< 0: cores
  /// Queue only: no compile threads, no GPU workers (a load test of accepting; workers run elsewhere).
  bool accept_only = false;
  /// "local": a worker process per GPU of this host; "slurm": a job per batch on a Slurm cluster
  /// (slurm/slurm_backend.hpp, docs/slurm.md), with `slurm`'s options.
  std::string backend = "local";
  slurm_options slurm;
};

} // namespace judge::service
