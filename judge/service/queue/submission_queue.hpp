// The durable queue of submissions, in the results store's SQLite file: a submission is committed before
// the server acknowledges it, and every move between states is one transaction, so a server killed at
// any moment loses nothing; recover() puts back what was in progress, so each is graded exactly once.
//
//   queued → compiling → compiled → running → done
//                 └──────────┴──────────┴──→ failed (with why)
//
// A done submission whose failure compute-sanitizer can explain carries that explanation apart, pending
// (the verdict is out first): a GPU worker with nothing to grade claims it, runs it and stores it
// (claim_explanation, explained), and it ends done, over budget or failed.
//
// Compiling runs on CPU threads ahead of the GPUs; each GPU's worker claims compiled submissions. Both
// claims are round-robin over accounts: the account served longest ago goes first, so one student's
// ten submissions do not starve the class.
//
// The queue is made on the results_db, so that finish() records the solution_result in the same
// transaction that marks the submission done (exactly once); the stored result is its to_json(). A
// submission also keeps its contest view (contest_result).
#pragma once

#include "judge/record/grade_result.hpp"
#include "judge/store/results_db.hpp"
#include "judge/store/state_names.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace judge::service {

/// A submission's state: the store's enum, beside the names its table holds (store/state_names.hpp).
using state = store::submission_state;

/// "queued", "compiling", ... as the API and the table write it (store/state_names.hpp spells them).
std::string state_name(state s);
state parse_state(const std::string& text);

struct source_file {
  std::string name;
  std::string content;
};

struct submission {
  std::int64_t id = 0;
  std::string account;
  std::string problem;
  std::vector<source_file> files;
  state now = state::queued;
  std::string submitted_at, started_at, finished_at; ///< ISO-8601 UTC; "" until then
  std::string worker;                                ///< who holds it now or last held it ("compile-1", "gpu GPU-...")
  std::string gpu;   ///< UUID and model of the GPU that graded it ("" until graded on one)
  std::string error; ///< failed: why
  /// Where it stands while not yet graded, when there is more to say than its state (a Slurm job
  /// pending: "waiting for Slurm: PartitionDown"); "" once done or failed
  std::string note;
  std::string node; ///< the host that ran it, when not this server (a Slurm node's name); "" otherwise
  /// The submission this one grades again on the current cases (requeue()); 0 for one a person made
  std::int64_t rejudge_of = 0;
  std::optional<nlohmann::json> result; ///< done: to_json(solution_result), as `judge run --json` writes it
  /// done: the same in contest view (report/contest_view.hpp): what a student sees in contest mode
  std::optional<nlohmann::json> contest_result;
  /// done on a GPU: device_json() of it (UUID, model, clock, peaks); nullopt otherwise
  std::optional<nlohmann::json> device;
  /// Its standing in the course when it was made (course/course_rules.hpp): the assignment it was made
  /// for ("" for none) and how late it was for it [s] (0: in time).
  std::string assignment;
  std::int64_t late_seconds = 0;
  /// Where compute-sanitizer's explanation of its result stands (the result's "sanitizer" holds it whole);
  /// none when there is nothing to explain.
  explanation_state sanitizer = explanation_state::none;
};

/// A submission's standing in the course, as enqueue() stores it.
struct course_mark {
  std::string assignment;        ///< "" for none
  std::int64_t late_seconds = 0; ///< [s] past the student's deadline; 0 in time
};

/// Where a submission not yet done or failed stands in the queue now.
struct line_place {
  submission s; ///< without its files
  /// [1-based] its place among those waiting in its state for the next claim (queued: for a compile
  /// thread; compiled: for a GPU), in the order the claims take them; 0 while a worker holds it
  /// (compiling, running)
  std::size_t position = 0;
  std::size_t waiting = 0; ///< how many wait in its state (0 while held)
};

/// How many submissions a problem has had, from how many accounts, and how many are not yet done or failed.
struct problem_tally {
  std::string problem;
  std::size_t submissions = 0, accounts = 0, in_line = 0;
};

/// Use from one thread at a time: it uses the connection of the results_db it is given (one per thread).
class submission_queue {
public:
  /// Its tables are the store's (store/store_schema.hpp), made when `store` was opened.
  explicit submission_queue(results_db& store);

  /// Stores a new queued submission with its standing in the course, committed before it returns;
  /// returns its id.
  std::int64_t enqueue(const std::string& account, const std::string& problem, std::vector<source_file> files,
                       const course_mark& mark = {});
  /// A new queued copy (same account, problem and files; rejudge_of its original) of each done or failed
  /// submission to `problem` that a person made at or after `since` (ISO-8601 UTC; "" for all), oldest
  /// first, in one transaction; the originals and their results are left as they are. Returns the
  /// copies' ids.
  std::vector<std::int64_t> requeue(const std::string& problem, const std::string& since);
  /// queued → compiling for the next submission in round-robin order; nullopt when none is queued.
  std::optional<submission> claim_for_compile(const std::string& worker);
  /// compiling → compiled.
  void compiled(std::int64_t id);
  /// compiled → running for the next submission in round-robin order (of `problem` only, when given: a
  /// GPU worker grades several of one problem in one run, timing the baseline once); nullopt when none.
  std::optional<submission> claim_for_gpu(const std::string& worker, const std::string& problem = "");
  /// → done: stores to_json(result) and, when `record` is set, records `result` in the results store
  /// (the leaderboard's source), both in one transaction. `gpu` says where it ran ("" for nowhere).
  /// A submission already done or failed is left as it is (returns false): exactly once. A result whose
  /// explanation is pending waits for claim_explanation().
  bool finish(std::int64_t id, const solution_result& result, bool record, const std::string& gpu);
  /// The oldest done submission whose explanation is pending and that no worker holds, now held by
  /// `worker` (its explanation stays pending to readers until explained()); nullopt when none.
  std::optional<submission> claim_explanation(const std::string& worker);
  /// Stores `result`'s explanation (its state, and the explained case's runs) in the submission's
  /// documents and, when its result was recorded, in the results store, in one transaction; the
  /// submission's verdict and the rest of its result stay as they are. False when its explanation is not
  /// pending (stored already): exactly once.
  bool explained(std::int64_t id, const solution_result& result);
  /// → failed with `why` (the judge could not grade it: never the learner's fault). False when already
  /// done or failed.
  bool fail(std::int64_t id, const std::string& why);
  /// At start, before any worker: compiling → queued and running → compiled, and every explanation held
  /// is free to claim again. Returns how many moved.
  std::size_t recover();
  /// What `worker` holds goes back (running → compiled, compiling → queued, an explanation it runs to
  /// pending and free): a worker that ended without finishing (stopped, or its process died). Returns how
  /// many moved.
  std::size_t release(const std::string& worker);

  /// Sets the note of each of `ids` (submission::note); a done or failed one keeps none.
  void set_note(const std::vector<std::int64_t>& ids, const std::string& note);
  /// Records the host that ran `id` (submission::node).
  void set_node(std::int64_t id, const std::string& node);

  /// The submissions `worker` holds now (running or compiling), by id: what a lost Slurm job takes back.
  std::vector<std::int64_t> held_by(const std::string& worker);

  std::optional<submission> get(std::int64_t id);
  /// The submissions to `problem` that are done without a result in the results store (compiled, not run:
  /// no GPU), oldest first: `judge history` lists them beside the stored results, as the web's History does.
  std::vector<submission> done_not_recorded(const std::string& problem);
  /// Each account's latest submission to `problem` (rejudged copies aside), with its files, by account.
  std::vector<submission> latest_per_account(const std::string& problem);
  /// `account`'s submissions, newest first (without their files).
  std::vector<submission> of_account(const std::string& account, std::size_t limit);
  /// Everyone's submissions, newest first (without their files): for instructors.
  std::vector<submission> recent(std::size_t limit);
  /// `account`'s submissions not yet done or failed, rejudged copies aside: for the "queued at once" limit.
  std::size_t queued_of(const std::string& account);
  /// `account`'s submissions made at or after `utc_time` (ISO-8601), rejudged copies aside: for the
  /// per-minute limit.
  std::size_t submitted_since(const std::string& account, const std::string& utc_time);
  /// Every submission to `problem`, newest first (without their files), rejudged copies included.
  std::vector<submission> of_problem(const std::string& problem);
  /// Every submission not yet done or failed, of every problem: those held (running, then compiling),
  /// then those waiting for a GPU, then those waiting for a compile thread, each in the order the claims
  /// will take them if nothing new arrives (round-robin over accounts, as claim_for_compile() and
  /// claim_for_gpu() choose).
  std::vector<line_place> line();
  /// Each problem that has submissions, by name.
  std::vector<problem_tally> tally();
  /// How many submissions are in state `s` (the server's status line and tests).
  std::size_t count(state s);

private:
  std::size_t move_back(const std::string& worker);
  std::optional<submission> claim(state from, state to, const char* lane, const std::string& worker,
                                  const std::string& problem);
  bool end(std::int64_t id, state to, const std::string& error, const solution_result* result, const std::string& gpu,
           bool record);

  results_db& m_store;
  sqlite::database& m_db;
};

} // namespace judge::service
