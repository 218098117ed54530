#include "judge/report/contest_view.hpp"
#include "catch.hpp"
#include "previous_store.hpp"
#include "judge/record/record_json.hpp"
#include "judge/report/report_json.hpp"
#include "judge/report/report_terminal.hpp"
#include "results_fixtures.hpp"
#include "judge/service/queue/submission_queue.hpp"

#include <map>

using namespace judge;
using namespace judge::service;
using judge::testing::accepted_result;
using judge_test::temp_folder;

namespace {
std::vector<source_file> one_file(const std::string& text) { return {{"a.cu", text}}; }

std::int64_t stored_results(results_db& store) {
  sqlite::statement st = store.connection().prepare("SELECT COUNT(*) FROM submissions");
  st.step();
  return st.get_int(0);
}
} // namespace

TEST_CASE("a submission moves from queued through compiling and compiled and running to done and keeps its files",
          "[service]") {
  temp_folder dir;
  results_db store(dir / "judge.db");
  submission_queue queue(store);
  const std::int64_t id = queue.enqueue("alice", "matmul", {{"a.cu", "int x;"}, {"b.cuh", "// b"}});
  CHECK(queue.get(id)->now == state::queued);
  CHECK(queue.count(state::queued) == 1);

  const auto claimed = queue.claim_for_compile("compile-1");
  REQUIRE(claimed);
  CHECK(claimed->id == id);
  CHECK(claimed->now == state::compiling);
  CHECK(claimed->worker == "compile-1");
  REQUIRE(claimed->files.size() == 2);
  CHECK(claimed->files[1].name == "b.cuh");
  CHECK(claimed->files[1].content == "// b");
  CHECK_FALSE(claimed->started_at.empty());
  CHECK_FALSE(queue.claim_for_compile("compile-2"));
  CHECK_FALSE(queue.claim_for_gpu("gpu-0"));

  queue.compiled(id);
  const auto running = queue.claim_for_gpu("gpu GPU-1");
  REQUIRE(running);
  CHECK(running->now == state::running);

  const solution_result r = accepted_result("alice", 5000);
  CHECK(queue.finish(id, r, true, "GPU-1 NVIDIA H200"));
  const auto done = queue.get(id);
  CHECK(done->now == state::done);
  CHECK(done->gpu == "GPU-1 NVIDIA H200");
  CHECK_FALSE(done->finished_at.empty());
  REQUIRE(done->result);
  CHECK(*done->result == to_json(r));
  REQUIRE(done->device);
  CHECK(*done->device == device_json(r.device));
  CHECK((*done->device)["name"] == "NVIDIA H200");
  CHECK(stored_results(store) == 1);
}

TEST_CASE("a submission is finished once: a second finish or a fail changes nothing", "[service]") {
  temp_folder dir;
  results_db store(dir / "judge.db");
  submission_queue queue(store);
  const std::int64_t id = queue.enqueue("alice", "matmul", one_file("x"));
  CHECK(queue.finish(id, accepted_result("alice", 100), true, ""));
  CHECK_FALSE(queue.finish(id, accepted_result("alice", 200), true, ""));
  CHECK_FALSE(queue.fail(id, "late"));
  CHECK(stored_results(store) == 1);
  CHECK(queue.get(id)->result->at("score") == 100);
  CHECK(queue.get(id)->error.empty());
}

TEST_CASE("a failed submission keeps why and records no result", "[service]") {
  temp_folder dir;
  results_db store(dir / "judge.db");
  submission_queue queue(store);
  const std::int64_t id = queue.enqueue("alice", "matmul", one_file("x"));
  CHECK(queue.fail(id, "the judge's compiler is missing"));
  CHECK(queue.get(id)->now == state::failed);
  CHECK(queue.get(id)->error == "the judge's compiler is missing");
  CHECK_FALSE(queue.get(id)->result);
  CHECK(stored_results(store) == 0);
}

TEST_CASE("recover puts submissions in progress back one step and leaves the rest", "[service]") {
  temp_folder dir;
  results_db store(dir / "judge.db");
  submission_queue queue(store);
  const auto a = queue.enqueue("a", "matmul", one_file("1"));
  const auto b = queue.enqueue("b", "matmul", one_file("2"));
  const auto c = queue.enqueue("c", "matmul", one_file("3"));
  const auto d = queue.enqueue("d", "matmul", one_file("4"));
  REQUIRE(queue.claim_for_compile("w")->id == a);
  REQUIRE(queue.claim_for_compile("w")->id == b);
  queue.compiled(b);
  REQUIRE(queue.claim_for_gpu("g")->id == b);
  REQUIRE(queue.claim_for_compile("w")->id == c);
  queue.compiled(c);
  CHECK(queue.recover() == 2);
  CHECK(queue.get(a)->now == state::queued);
  CHECK(queue.get(b)->now == state::compiled);
  CHECK(queue.get(c)->now == state::compiled);
  CHECK(queue.get(d)->now == state::queued);
  CHECK(queue.recover() == 0);
}

TEST_CASE("claims go round-robin over accounts and oldest first within one", "[service]") {
  temp_folder dir;
  results_db store(dir / "judge.db");
  submission_queue queue(store);
  // alice floods the queue first; bob and carol come later and still get the next turns.
  for (int i = 0; i < 5; ++i) queue.enqueue("alice", "matmul", one_file("alice " + std::to_string(i)));
  queue.enqueue("bob", "matmul", one_file("bob 0"));
  queue.enqueue("bob", "matmul", one_file("bob 1"));
  queue.enqueue("carol", "matmul", one_file("carol 0"));
  std::vector<std::string> order;
  while (auto s = queue.claim_for_compile("w")) {
    order.push_back(s->files[0].content);
    queue.compiled(s->id);
  }
  const std::vector<std::string> want = {"alice 0", "bob 0",   "carol 0", "alice 1",
                                         "bob 1",   "alice 2", "alice 3", "alice 4"};
  CHECK(order == want);
  // The GPU lane keeps its own turns: the same fairness again.
  std::vector<std::string> gpu_order;
  while (auto s = queue.claim_for_gpu("g")) gpu_order.push_back(s->account);
  CHECK(gpu_order == std::vector<std::string>{"alice", "bob", "carol", "alice", "bob", "alice", "alice", "alice"});
}

TEST_CASE("the counts behind the rate limits", "[service]") {
  temp_folder dir;
  results_db store(dir / "judge.db");
  submission_queue queue(store);
  const auto first = queue.enqueue("alice", "matmul", one_file("1"));
  queue.enqueue("alice", "matmul", one_file("2"));
  queue.enqueue("bob", "matmul", one_file("3"));
  CHECK(queue.queued_of("alice") == 2);
  queue.fail(first, "x");
  CHECK(queue.queued_of("alice") == 1);
  CHECK(queue.submitted_since("alice", "2000-01-01T00:00:00Z") == 2);
  CHECK(queue.submitted_since("alice", "2999-01-01T00:00:00Z") == 0);
  CHECK(queue.of_account("alice", 10).size() == 2);
  CHECK(queue.of_account("alice", 1).size() == 1);
  CHECK(queue.recent(10).size() == 3);
  CHECK(queue.recent(10).front().account == "bob");
}

TEST_CASE("a finished submission keeps a contest view without hidden cases' details", "[service]") {
  temp_folder dir;
  results_db store(dir / "judge.db");
  submission_queue queue(store);
  const auto id = queue.enqueue("alice", "matmul", one_file("x"));
  const solution_result r = judge::testing::wrong_result("alice");
  queue.finish(id, r, true, "");
  const auto s = queue.get(id);
  REQUIRE(s->contest_result);
  CHECK(*s->contest_result == to_json(contest_view(r)));
  CHECK(*s->contest_result != *s->result);
}

TEST_CASE("release gives back only what one worker holds", "[service]") {
  temp_folder dir;
  results_db store(dir / "judge.db");
  submission_queue queue(store);
  const auto a = queue.enqueue("a", "matmul", one_file("1"));
  const auto b = queue.enqueue("b", "matmul", one_file("2"));
  queue.compiled(queue.claim_for_compile("c")->id);
  queue.compiled(queue.claim_for_compile("c")->id);
  REQUIRE(queue.claim_for_gpu("gpu 1")->id == a);
  REQUIRE(queue.claim_for_gpu("gpu 2")->id == b);
  CHECK(queue.release("gpu 1") == 1);
  CHECK(queue.get(a)->now == state::compiled);
  CHECK(queue.get(b)->now == state::running);
}

TEST_CASE("a GPU claim can keep to one problem in fair order", "[service]") {
  temp_folder dir;
  results_db store(dir / "judge.db");
  submission_queue queue(store);
  const auto a = queue.enqueue("a", "matmul", one_file("1"));
  const auto b = queue.enqueue("b", "transpose", one_file("2"));
  const auto c = queue.enqueue("c", "matmul", one_file("3"));
  while (auto s = queue.claim_for_compile("w")) queue.compiled(s->id);
  CHECK(queue.claim_for_gpu("g", "matmul")->id == a);
  CHECK(queue.claim_for_gpu("g", "matmul")->id == c);
  CHECK_FALSE(queue.claim_for_gpu("g", "matmul"));
  CHECK(queue.claim_for_gpu("g")->id == b);
}

TEST_CASE("a note says where a submission stands until it is done, and the node that graded it stays",
          "[service][slurm]") {
  temp_folder dir;
  results_db store(dir / "judge.db");
  submission_queue queue(store);
  const std::int64_t id = queue.enqueue("alice", "matmul", one_file("int x;"));
  queue.set_note({id}, "waiting for Slurm: PartitionDown (job 12 pending)");
  CHECK(queue.get(id)->note == "waiting for Slurm: PartitionDown (job 12 pending)");
  queue.set_node(id, "gpu07");
  REQUIRE(queue.finish(id, accepted_result("alice", 100), true, "GPU-1 NVIDIA H200"));
  const submission done = *queue.get(id);
  CHECK(done.note.empty());
  CHECK(done.node == "gpu07");
  queue.set_note({id}, "too late");
  CHECK(queue.get(id)->note.empty());
}

TEST_CASE("a queue made before notes and nodes gets both columns, empty", "[service][slurm]") {
  temp_folder dir;
  {
    sqlite::database old(dir / "judge.db");
    old.exec(
        "CREATE TABLE queued_submissions (id INTEGER PRIMARY KEY, account TEXT NOT NULL, problem TEXT NOT NULL,"
        " files TEXT NOT NULL, state TEXT NOT NULL, submitted_at TEXT NOT NULL, started_at TEXT NOT NULL DEFAULT '',"
        " finished_at TEXT NOT NULL DEFAULT '', worker TEXT NOT NULL DEFAULT '', gpu TEXT NOT NULL DEFAULT '',"
        " error TEXT NOT NULL DEFAULT '', result TEXT, contest_result TEXT, device TEXT, result_id INTEGER);"
        "INSERT INTO queued_submissions (account, problem, files, state, submitted_at) VALUES"
        " ('alice', 'matmul', '[]', 'queued', '2026-11-30T21:20:20Z')");
  }
  results_db store(dir / "judge.db");
  submission_queue queue(store);
  const auto kept = queue.get(1);
  REQUIRE(kept);
  CHECK(kept->account == "alice");
  CHECK(kept->note.empty());
  CHECK(kept->node.empty());
  queue.set_note({1}, "waiting");
  CHECK(queue.get(1)->note == "waiting");
}

TEST_CASE("a finished submission the previous judge kept, its sandbox in words, reads back as facts", "[service]") {
  temp_folder dir;
  // What the judge before the record's codec stored for a done submission: the --json document, whose
  // sandbox was the reports' words.
  nlohmann::json old = to_json(accepted_result("alice", 100));
  old["sandbox"] = "on, without cgroup limits (cgroup v2 is not mounted)";
  {
    sqlite::database by_hand(dir / "judge.db");
    for (const char* sql : judge::testing::previous_store::all) by_hand.exec(sql);
    by_hand
        .prepare("INSERT INTO queued_submissions (account, problem, files, state, submitted_at, result, "
                 "contest_result) VALUES ('alice', 'matmul', '[]', 'done', '2026-11-30T21:20:20Z', ?1, ?1)")
        .bind(1, old.dump())
        .run();
  }
  results_db store(dir / "judge.db");
  submission_queue queue(store);
  const auto kept = queue.get(1);
  REQUIRE(kept);
  CHECK(kept->now == state::done);
  REQUIRE(kept->result);
  REQUIRE(kept->contest_result);
  const solution_result r = record_from_json(*kept->result);
  CHECK(r.sandbox.mode == sandbox_mode::on);
  CHECK_FALSE(r.sandbox.layers.on(sandbox_layer::cgroup));
  CHECK(r.score == 100);
  CHECK(record_from_json(*kept->contest_result).sandbox == r.sandbox);
}

TEST_CASE("a rejudge queues a copy of each graded submission a person made, and the originals stay", "[service]") {
  temp_folder dir;
  results_db store(dir / "judge.db");
  submission_queue queue(store);
  const auto a = queue.enqueue("alice", "matmul", one_file("alice's"));
  const auto b = queue.enqueue("bob", "matmul", {{"b.cu", "bob's"}, {"b.cuh", "// h"}});
  const auto waiting = queue.enqueue("carol", "matmul", one_file("carol's")); // not graded yet: graded anyway
  const auto other = queue.enqueue("alice", "softmax", one_file("another problem"));
  const solution_result graded = accepted_result("alice", 5000);
  CHECK(queue.finish(a, graded, false, ""));
  CHECK(queue.fail(b, "the judge failed"));
  CHECK(queue.finish(other, graded, false, ""));

  const std::vector<std::int64_t> copies = queue.requeue("matmul", "");
  REQUIRE(copies.size() == 2);
  const auto first = queue.get(copies[0]), second = queue.get(copies[1]);
  CHECK(first->account == "alice");
  CHECK(first->rejudge_of == a);
  CHECK(first->now == state::queued);
  REQUIRE(first->files.size() == 1);
  CHECK(first->files[0].content == "alice's");
  CHECK(second->account == "bob");
  CHECK(second->rejudge_of == b);
  CHECK(second->files.size() == 2);
  CHECK(queue.get(a)->now == state::done);
  CHECK(*queue.get(a)->result == to_json(graded));
  CHECK(queue.get(waiting)->rejudge_of == 0);

  // A rejudge copies what people made, never a copy: a second one queues the same two again.
  for (const auto id : copies) queue.fail(id, "x");
  CHECK(queue.requeue("matmul", "").size() == 2);
  CHECK(queue.requeue("matmul", "2999-01-01T00:00:00Z").empty());
}

TEST_CASE("rejudged copies count in no student's rate limits", "[service]") {
  temp_folder dir;
  results_db store(dir / "judge.db");
  submission_queue queue(store);
  const auto a = queue.enqueue("alice", "matmul", one_file("1"));
  queue.fail(a, "x");
  REQUIRE(queue.requeue("matmul", "").size() == 1);
  CHECK(queue.queued_of("alice") == 0);
  CHECK(queue.submitted_since("alice", "2000-01-01T00:00:00Z") == 1);
}

TEST_CASE("the similarity report's sources are each account's latest submission, with its files", "[service]") {
  temp_folder dir;
  results_db store(dir / "judge.db");
  submission_queue queue(store);
  queue.enqueue("bob", "matmul", one_file("bob 1"));
  const auto latest = queue.enqueue("bob", "matmul", one_file("bob 2"));
  queue.enqueue("alice", "matmul", one_file("alice 1"));
  queue.enqueue("alice", "softmax", one_file("elsewhere"));
  queue.fail(latest, "x");
  queue.requeue("matmul", ""); // a copy of bob's is not a newer submission of his
  const auto sources = queue.latest_per_account("matmul");
  REQUIRE(sources.size() == 2);
  CHECK(sources[0].account == "alice");
  CHECK(sources[1].account == "bob");
  CHECK(sources[1].id == latest);
  CHECK(sources[1].files.at(0).content == "bob 2");
}

TEST_CASE("a rejudged copy keeps its original's assignment and how late it was", "[service]") {
  temp_folder dir;
  results_db store(dir / "judge.db");
  submission_queue queue(store);
  const auto late = queue.enqueue("alice", "matmul", one_file("late"), course_mark{"a1", 3600});
  queue.fail(late, "x");
  const auto copies = queue.requeue("matmul", "");
  REQUIRE(copies.size() == 1);
  const auto copy = queue.get(copies[0]);
  CHECK(copy->assignment == "a1");
  CHECK(copy->late_seconds == 3600);
  CHECK(copy->rejudge_of == late);
}

TEST_CASE("the queue's line places each waiting submission where the claims will take it", "[service][dashboard]") {
  temp_folder dir;
  results_db store(dir / "judge.db");
  submission_queue queue(store);
  // bob was served just now, so alice's and carol's go before his second although his came first.
  queue.enqueue("bob", "matmul", one_file("bob 0"));
  queue.enqueue("bob", "matmul", one_file("bob 1"));
  const auto held = queue.claim_for_compile("compile 1");
  REQUIRE(held);
  for (int i = 0; i < 3; ++i) queue.enqueue("alice", "matmul", one_file("alice " + std::to_string(i)));
  queue.enqueue("carol", "softmax", one_file("carol 0"));

  const std::vector<line_place> line = queue.line();
  REQUIRE(line.size() == 6);
  CHECK(line[0].s.id == held->id);
  CHECK(line[0].s.now == state::compiling);
  CHECK(line[0].position == 0);
  CHECK(line[0].s.worker == "compile 1");
  CHECK(line[0].s.files.empty()); // a listing carries no sources
  std::vector<std::int64_t> placed;
  for (std::size_t i = 1; i < line.size(); ++i) {
    CHECK(line[i].position == i);
    CHECK(line[i].waiting == 5);
    placed.push_back(line[i].s.id);
  }
  // The claims take them in exactly that order.
  std::vector<std::int64_t> claimed;
  while (auto s = queue.claim_for_compile("compile 2")) claimed.push_back(s->id);
  CHECK(claimed == placed);
}

TEST_CASE("the line puts held submissions first, then those waiting for a GPU, then those waiting to compile",
          "[service][dashboard]") {
  temp_folder dir;
  results_db store(dir / "judge.db");
  submission_queue queue(store);
  const auto a = queue.enqueue("alice", "matmul", one_file("a"));
  const auto b = queue.enqueue("bob", "matmul", one_file("b"));
  const auto c = queue.enqueue("carol", "matmul", one_file("c"));
  const auto d = queue.enqueue("dave", "matmul", one_file("d"));
  queue.enqueue("erin", "matmul", one_file("e"));
  for (int i = 0; i < 3; ++i) queue.compiled(queue.claim_for_compile("w")->id); // a, b, c compiled
  REQUIRE(queue.claim_for_gpu("gpu 1")->id == a);                               // a running
  queue.claim_for_compile("w");                                                 // d compiling
  const auto done = queue.enqueue("alice", "matmul", one_file("done"));
  queue.fail(done, "x");

  const std::vector<line_place> line = queue.line();
  REQUIRE(line.size() == 5);
  CHECK(line[0].s.id == a);
  CHECK(line[0].s.now == state::running);
  CHECK(line[1].s.id == d);
  CHECK(line[1].s.now == state::compiling);
  CHECK(line[2].s.id == b);
  CHECK(line[2].position == 1);
  CHECK(line[2].waiting == 2);
  CHECK(line[3].s.id == c);
  CHECK(line[3].position == 2);
  CHECK(line[4].s.now == state::queued);
  CHECK(line[4].position == 1);
  CHECK(line[4].waiting == 1);
}

TEST_CASE("a problem's submissions are listed newest first and every problem is tallied", "[service][dashboard]") {
  temp_folder dir;
  results_db store(dir / "judge.db");
  submission_queue queue(store);
  const auto first = queue.enqueue("alice", "matmul", one_file("1"));
  queue.enqueue("bob", "softmax", one_file("2"));
  const auto last = queue.enqueue("alice", "matmul", one_file("3"));
  queue.fail(first, "x");
  const auto copies = queue.requeue("matmul", "");
  const std::vector<submission> listed = queue.of_problem("matmul");
  REQUIRE(listed.size() == 3);
  CHECK(listed[0].id == copies.at(0));
  CHECK(listed[0].rejudge_of == first);
  CHECK(listed[1].id == last);
  CHECK(listed[2].id == first);
  CHECK(listed[2].error == "x");
  CHECK(listed[1].files.empty());

  const std::vector<problem_tally> tallies = queue.tally();
  REQUIRE(tallies.size() == 2);
  CHECK(tallies[0].problem == "matmul");
  CHECK(tallies[0].submissions == 3);
  CHECK(tallies[0].accounts == 1);
  CHECK(tallies[0].in_line == 2);
  CHECK(tallies[1].problem == "softmax");
  CHECK(tallies[1].in_line == 1);
}
