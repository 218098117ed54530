// judge serve: the online judge on this host (judge/service/server.hpp; docs/deploy.md).
// judge worker: one GPU's worker, which `judge serve` starts for each GPU (judge/service/queue/workers.hpp).
// judge slurm-job: one Slurm job's batch, on its compute node (judge/service/slurm/slurm_backend.hpp).
#include "judge/cli/cli.hpp"

#include "judge/base/environment.hpp"
#include "judge/service/queue/accounts.hpp"
#include "judge/grading/grader.hpp"
#include "judge/grading/interrupt.hpp"
#include "judge/store/results_db.hpp"
#include "judge/service/server.hpp"
#include "judge/service/slurm/slurm_backend.hpp"
#include "judge/service/slurm/slurm_limits.hpp"
#include "judge/service/queue/store_lock.hpp"
#include "judge/base/usage_error.hpp"
#include "judge/service/queue/workers.hpp"

#include <unistd.h>

#include <cstdio>
#include <optional>

namespace judge::cli {

namespace {
/// What `judge serve` is asked: the server's options, bound to the command line as they are (so each
/// default is server_options' own), and what only the command line knows.
struct serve_flags {
  service::server_options options;
  std::string listen = options.host + ":" + std::to_string(options.port); ///< parsed into host and port
  std::string db_file;
  std::string course_file; ///< --course; "" for course.yaml beside problems/, when there is one
  bool demo = false;
};

void log_line(const std::string& line) {
  std::fprintf(stdout, "judge serve: %s\n", line.c_str());
  std::fflush(stdout);
}

/// "HOST:PORT" (the host may be [IPv6]); throws usage_error naming what is wrong.
std::pair<std::string, int> parse_listen(const std::string& text) {
  const auto colon = text.rfind(':');
  const std::string port = colon == std::string::npos ? "" : text.substr(colon + 1);
  if (colon == std::string::npos || colon == 0 || port.empty() || port.size() > 5 ||
      port.find_first_not_of("0123456789") != std::string::npos || std::stoi(port) > 65535)
    throw usage_error("--listen " + text + ": give HOST:PORT, e.g. 127.0.0.1:8080 (port 0: any free port)");
  std::string host = text.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  return {host, std::stoi(port)};
}

/// --demo: a class of three students and an instructor, their tokens made anew and printed.
void make_demo_class(const std::filesystem::path& db) {
  results_db store(db);
  service::accounts users(store);
  std::printf("demo class (tokens are shown once; sign in at the address below):\n");
  for (const auto& [name, who] :
       std::vector<std::pair<std::string, service::role>>{{"teacher", service::role::instructor},
                                                          {"alice", service::role::student},
                                                          {"bob", service::role::student},
                                                          {"carol", service::role::student}}) {
    const std::string token = users.find(name) ? users.rotate_token(name) : users.add(name, who);
    std::printf("  %-8s %-10s %s\n", name.c_str(), service::role_name(who).c_str(), token.c_str());
  }
}

int serve(const context& ctx, const serve_flags& f) {
  service::server_options o = f.options;
  if (o.contest) require_full_sandbox(false);
  std::tie(o.host, o.port) = parse_listen(f.listen);
  o.db = f.db_file.empty() && f.demo ? ctx.where.results() / "demo.db" : ctx.where.store(f.db_file);
  if (f.db_file.empty()) std::filesystem::create_directories(o.db.parent_path());
  check_output_path("--db", o.db);
  o.root = ctx.where.root;
  // A course file beside the problems is the course; --course names another.
  std::error_code no_course;
  if (!f.course_file.empty() || std::filesystem::is_regular_file(o.root / "course.yaml", no_course))
    o.course = course_file_of(ctx, f.course_file);
  if (o.backend == "slurm" && o.slurm.partition.empty())
    throw usage_error("--backend slurm needs --partition NAME (the Slurm partition of the GPU nodes)");
  if (o.backend == "slurm" && !service::parse_memory_mib(o.slurm.memory))
    throw usage_error("--slurm-mem " + o.slurm.memory + ": not a size as sbatch --mem takes it (8G, 512M)");
  if (f.demo) make_demo_class(o.db);
  try {
    service::serve(o, log_line);
  } catch (const std::invalid_argument& e) { // --gpus
    throw usage_error(e.what());
  } catch (const service::listen_error& e) { // --listen
    throw usage_error(e.what());
  } catch (const service::store_in_use& e) { // --db: another server's store
    throw usage_error(e.what());
  }
  return all_accepted;
}

struct worker_flags {
  std::string gpu, db_file;
  unsigned cpu_threads = 0;
  bool strict = false;
};

int worker(const context& ctx, const worker_flags& f) {
  service::grading_setup setup;
  setup.problems_root = ctx.where.problems();
  setup.testcases_root = ctx.where.testcases();
  setup.db = ctx.where.store(f.db_file);
  setup.cpu_threads = f.cpu_threads;
  setup.strict = f.strict;
  setup.scratch = std::filesystem::temp_directory_path() / ("gpu-judge-worker-" + std::to_string(getpid()));
  service::gpu_worker_loop(setup.db, setup, f.gpu, g_interrupted, [](const std::string& line) {
    std::fprintf(stdout, "judge worker: %s\n", line.c_str());
    std::fflush(stdout);
  });
  std::error_code ignored;
  std::filesystem::remove_all(setup.scratch, ignored);
  return all_accepted;
}
} // namespace

void add_serve(CLI::App& app, context& ctx) {
  auto flags = std::make_shared<serve_flags>();
  service::server_options& o = flags->options;
  service::slurm_options& slurm = o.slurm;
  CLI::App* sub = add_command(app, ctx, "serve", "run the online judge: HTTP API and pages, queue, GPU workers",
                              [&ctx, flags] { return serve(ctx, *flags); });
  // Every option shows its default, which is the bound field's own (service/queue/server_options.hpp).
  sub->add_option("--listen", flags->listen, "HOST:PORT to listen on (port 0: any free port; TLS: a proxy in front)")
      ->capture_default_str();
  sub->add_option("--gpus", o.gpus, "GPUs to grade on: all, none, or indexes such as 0,1")->capture_default_str();
  add_store_option(*sub, flags->db_file);
  sub->add_option("--course", flags->course_file,
                  "the course file: assignments, releases, deadlines, late policy, extensions, public boards "
                  "(default: course.yaml beside problems/, when there is one)");
  sub->add_option("--per-minute", o.per_minute, "submissions a student may make per minute")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub->add_option("--queued-at-once", o.queued_at_once, "submissions of a student waiting to be graded at once")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub->add_option("--instructor-queued", o.instructor_queued_at_once,
                  "submissions of an instructor waiting to be graded at once (0: no cap)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  sub->add_option("--max-connections", o.max_connections,
                  "connections open at once; beyond, the one waiting longest for its request gives way")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 20))
      ->capture_default_str();
  sub->add_option("--request-deadline", o.request_deadline_seconds,
                  "seconds a client may take to send one whole request, headers and body")
      ->check(CLI::Range(0.1, 3600.0))
      ->capture_default_str();
  sub->add_option("--compile-threads", o.compile_threads, "parallel compiles (0: one per core)")->capture_default_str();
  sub->add_flag("--contest", o.contest,
                "students see only name, shape and verdict of a failed hidden case; needs the full sandbox");
  sub->add_flag("--demo", flags->demo,
                "create a demo class (teacher, alice, bob, carol) in results/demo.db and print their tokens");
  sub->add_flag("--accept-only", o.accept_only, "queue submissions, grade none (workers run elsewhere)");
  sub->add_flag("--strict", o.strict,
                "robustness cases (beyond_limits in cases.yaml) decide like every other case: timed, and a "
                "failure there is the submission's verdict (default: reported apart, never deciding)");
  sub->add_option("--backend", o.backend, "where GPU runs happen: local (this host's GPUs) or slurm (docs/slurm.md)")
      ->check(CLI::IsMember({"local", "slurm"}))
      ->capture_default_str();
  sub->add_option("--partition", slurm.partition, "slurm: the partition of the GPU nodes");
  sub->add_option("--slurm-batch", slurm.batch, "slurm: submissions of one problem per job")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub->add_option("--slurm-gather", slurm.gather_seconds,
                  "slurm: seconds a compiled submission may wait for its job's batch to fill")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  sub->add_option("--slurm-jobs", slurm.max_jobs, "slurm: jobs pending or running at once")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub->add_option("--slurm-minutes", slurm.minutes,
                  "slurm: most minutes a job may ask; a job asks what its problem's limits and batch need, and a "
                  "batch shrinks to fit")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub->add_option("--slurm-mem", slurm.memory, "slurm: most memory a job may ask, as sbatch --mem takes it")
      ->capture_default_str();
  sub->add_flag("--slurm-fixed-limits", slurm.fixed_limits,
                "slurm: every job asks exactly --slurm-minutes and --slurm-mem, whatever its problem");
  sub->add_option("--slurm-pending-limit", slurm.pending_limit_seconds,
                  "slurm: seconds a job may stay pending before it is cancelled and its batch sent again")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub->add_flag("--slurm-expect-gpu", slurm.expect_gpu,
                "slurm: the nodes have GPUs: a job that finds no CUDA device is the node's fault (sent elsewhere), "
                "not \"not run: no CUDA device\" (leave off on a test cluster without GPUs)");
  sub->add_flag("--slurm-exclusive", slurm.exclusive,
                "slurm: jobs ask for their node to themselves (sbatch --exclusive), for timing without neighbours");
  sub->add_option("--slurm-max-lost", slurm.max_lost,
                  "slurm: jobs lost holding a submission before it fails as not graded")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub->add_option("--slurm-callback", slurm.callback,
                  "slurm: this server's URL as the nodes reach it (default: the address it listens on)");
  sub->add_option("--slurm-judge", slurm.judge,
                  "slurm: the judge's executable on the nodes (default: this one; on shared storage)");
  sub->add_option("--slurm-output", slurm.output, "slurm: a job's log on the node, as sbatch --output takes it")
      ->capture_default_str();
  sub->add_option("--slurm-sbatch", slurm.extra, "slurm: more sbatch options, e.g. \"--account=course --qos=high\"");
}

struct slurm_job_flags {
  std::string server, job;
  bool expect_gpu = false, strict = false;
};

int slurm_job(const context& ctx, const slurm_job_flags& f) {
  const std::optional<std::string> token = env_value(judge_env::job_token);
  if (!token) throw usage_error("judge slurm-job: JUDGE_JOB_TOKEN is not set (the server's job script sets it)");
  service::grading_setup setup;
  setup.problems_root = ctx.where.problems();
  setup.testcases_root = ctx.where.testcases();
  setup.strict = f.strict;
  if (const char* cpus = non_empty_env("SLURM_CPUS_ON_NODE"))
    setup.cpu_threads = static_cast<unsigned>(std::atoi(cpus));
  setup.scratch = std::filesystem::temp_directory_path() / ("gpu-judge-slurm-job-" + std::to_string(getpid()));
  const int rc = service::run_slurm_job(f.server, f.job, *token, setup, f.expect_gpu, [](const std::string& line) {
    std::fprintf(stdout, "judge slurm-job: %s\n", line.c_str());
    std::fflush(stdout);
  });
  std::error_code ignored;
  std::filesystem::remove_all(setup.scratch, ignored);
  return rc == 0 ? all_accepted : internal_failure;
}

void add_slurm_job(CLI::App& app, context& ctx) {
  auto flags = std::make_shared<slurm_job_flags>();
  CLI::App* sub = add_command(app, ctx, "slurm-job",
                              "grade one Slurm job's batch of the online judge (the job script of `judge serve "
                              "--backend slurm` runs it on the compute node; token in $JUDGE_JOB_TOKEN)",
                              [&ctx, flags] { return slurm_job(ctx, *flags); });
  sub->add_option("--server", flags->server, "the server's URL")->required();
  sub->add_option("--job", flags->job, "the job's key")->required();
  sub->add_flag("--expect-gpu", flags->expect_gpu,
                "the job was promised a GPU: finding no CUDA device is reported as the node's fault, not graded");
  sub->add_flag("--strict", flags->strict, "robustness cases decide like every other case (the server's --strict)");
}

void add_worker(CLI::App& app, context& ctx) {
  auto flags = std::make_shared<worker_flags>();
  CLI::App* sub = add_command(app, ctx, "worker",
                              "grade compiled submissions of the online judge's queue on one GPU (started by "
                              "`judge serve`, with CUDA_VISIBLE_DEVICES set to that GPU)",
                              [&ctx, flags] { return worker(ctx, *flags); });
  sub->add_option("--gpu", flags->gpu, "the GPU's UUID (nvidia-smi -L), its name in the queue")->required();
  sub->add_option("--cpu-threads", flags->cpu_threads, "threads for the CPU reference (default: all cores)");
  sub->add_flag("--strict", flags->strict, "robustness cases decide like every other case (the server's --strict)");
  add_store_option(*sub, flags->db_file);
}

} // namespace judge::cli
