#include "catch.hpp"
#include "text_match.hpp"

#include "fake_runner/fake_runner.hpp"
#include "judge/run/runner_session.hpp"

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

using judge_test::contains;

using namespace judge;
using judge_test::fake_runner;
using judge_test::temp_folder;

namespace {

/// Vector addition of 8 elements: A and B generated (B from explicit data), C out, `checks` checks.
judge_wire::case_request vector_add_case(std::size_t checks, bool timed = false) {
  judge_wire::case_request c;
  c.name = "n_8";
  c.case_index = 2;
  c.sizes = {8};
  c.buffers = {
      {"A", judge_wire::buffer_role::input, 8, judge_data::distribution{}, std::nullopt},
      {"B", judge_wire::buffer_role::input, 8, judge_data::distribution{}, std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8}},
      {"C", judge_wire::buffer_role::output, 8, std::nullopt, std::nullopt}};
  for (std::size_t k = 0; k < checks; ++k)
    c.checks.push_back({1000 + k, judge_wire::poison_for_check(k), {"2." + std::to_string(k) + ".C.bin"}});
  if (timed) c.timing = judge_wire::timing_spec{};
  return c;
}

/// A session with the fake runner in `scenario`, in its own scratch folder.
struct fake_session {
  explicit fake_session(const std::string& scenario) : scratch("session"), session(options(scenario, scratch)) {}

  static runner_options options(const std::string& scenario, const temp_folder& scratch) {
    runner_options o;
    o.runner = fake_runner(scenario);
    o.scratch = scratch.path();
    o.sandbox = false;
    o.hello_seconds = 10;
    return o;
  }

  temp_folder scratch;
  runner_session session;
};

} // namespace

TEST_CASE("a runner that answers every check gives typed answers naming the judge's output files", "[runner_session]") {
  fake_session f("ok");
  REQUIRE(f.session.start());
  CHECK(f.session.hello().device == "Fake GPU");
  CHECK(f.session.hello().protocol == judge_wire::protocol_version);
  const auto calls = f.session.run_checks(vector_add_case(2), 10);
  REQUIRE(calls.size() == 2);
  for (std::size_t k = 0; k < calls.size(); ++k) {
    CAPTURE(k);
    CHECK(calls[k].request.outcome == request_outcome::answered);
    REQUIRE(calls[k].answer);
    CHECK(calls[k].answer->status == judge_wire::call_status::ok);
    CHECK(calls[k].answer->check == k);
    const std::string file = "2." + std::to_string(k) + ".C.bin";
    CHECK(calls[k].answer->outputs == std::vector<std::string>{file});
    CHECK(std::filesystem::file_size(f.scratch.path() / file) == 8 * sizeof(float));
  }
  const auto timing = f.session.run_timing(vector_add_case(0, true), 10);
  REQUIRE(timing.answer);
  CHECK(timing.answer->gpu_ms.size() == static_cast<std::size_t>(judge_wire::timing_spec{}.min_samples));
  CHECK(timing.answer->stop_reason == judge_wire::stop_reason::precision);
  f.session.finish();
  CHECK(contains(f.session.learner_output(), "solve() of case n_8"));
}

TEST_CASE("each answer is handed over as it arrives, while the runner makes the next call", "[runner_session]") {
  fake_session f("slow_checks"); // each check answered 0.2 s after the one before
  REQUIRE(f.session.start());
  using clock = std::chrono::steady_clock;
  std::vector<clock::time_point> seen;
  std::vector<std::size_t> order;
  const auto began = clock::now();
  const auto calls = f.session.run_checks(vector_add_case(3), 10, [&](std::size_t k, const call_facts& facts) {
    order.push_back(k);
    seen.push_back(clock::now());
    REQUIRE(facts.answer);
    CHECK(facts.answer->check == k);
  });
  const auto ended = clock::now();
  REQUIRE(calls.size() == 3);
  CHECK(order == std::vector<std::size_t>{0, 1, 2});
  // The first was handed over before the second had been made.
  CHECK(std::chrono::duration<double>(ended - seen.front()).count() > 0.3);
  CHECK(std::chrono::duration<double>(seen.front() - began).count() > 0.15);
}

TEST_CASE("a check answered while the judge was busy with the one before is not late", "[runner_session]") {
  fake_session f("slow_checks"); // each check answered 0.2 s after the one before
  REQUIRE(f.session.start());
  // The judge spends 0.6 s on each answer, past the next call's limit of 0.5 s from its start; the
  // runner answered that call 0.2 s after starting it, in time.
  const auto calls = f.session.run_checks(vector_add_case(2), 0.5, [](std::size_t, const call_facts&) {
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
  });
  REQUIRE(calls.size() == 2);
  for (const call_facts& c : calls) {
    CHECK(c.request.outcome == request_outcome::answered);
    CHECK(c.answer);
  }
}

TEST_CASE("the runner times by the method the judge names on its command line", "[runner_session]") {
  const judge_wire::timing_method method =
      GENERATE(judge_wire::timing_method::events, judge_wire::timing_method::cupti);
  CAPTURE(judge_wire::to_string(method));
  temp_folder scratch("session");
  runner_options o = fake_session::options("ok", scratch);
  o.timing = method;
  runner_session session(o);
  REQUIRE(session.start());
  CHECK(session.hello().method == method);
  const auto timing = session.run_timing(vector_add_case(0, true), 10);
  REQUIRE(timing.answer);
  CHECK(timing.answer->method == method);
  session.finish();
}

TEST_CASE("a line on the result channel that is not an answer ends the conversation", "[runner_session]") {
  // A judge that skipped such lines let a forged answer in front of the genuine one decide.
  const std::string scenario = GENERATE(as<std::string>{}, "noise", "garbled");
  fake_session f(scenario);
  const auto calls = f.session.run_checks(vector_add_case(2), 10);
  REQUIRE(calls.size() == 1);
  CHECK_FALSE(calls[0].answer);
  CHECK(calls[0].request.outcome == request_outcome::out_of_step);
}

TEST_CASE("how a runner ended is a typed fact", "[runner_session]") {
  SECTION("exit(0) before hello") {
    fake_session f("exit_before_hello");
    CHECK_FALSE(f.session.start());
    const request_facts& r = f.session.start_facts();
    CHECK(r.outcome == request_outcome::runner_ended);
    CHECK(r.before_hello);
    REQUIRE(r.exit);
    CHECK(r.exit->exited);
    CHECK(r.exit->exit_code == 0);
  }
  SECTION("exit(0) where an answer was due") {
    fake_session f("exit_in_solve");
    const auto calls = f.session.run_checks(vector_add_case(2), 10);
    REQUIRE(calls.size() == 1);
    const request_facts& r = calls[0].request;
    CHECK(r.outcome == request_outcome::runner_ended);
    CHECK_FALSE(r.before_hello);
    REQUIRE(r.exit);
    CHECK(r.exit->exited);
    CHECK(r.exit->exit_code == 0);
    CHECK_FALSE(calls[0].answer);
  }
  SECTION("a signal") {
    fake_session f("segfault");
    const auto calls = f.session.run_checks(vector_add_case(2), 10);
    REQUIRE(calls.size() == 1);
    const request_facts& r = calls[0].request;
    CHECK(r.outcome == request_outcome::runner_ended);
    REQUIRE(r.exit);
    CHECK(r.exit->signaled);
    CHECK(r.exit->signal == SIGSEGV);
    CHECK_FALSE(r.exit->killed_by_judge);
  }
  SECTION("killed at the time limit") {
    fake_session f("hang");
    const auto calls = f.session.run_checks(vector_add_case(2), 0.5);
    REQUIRE(calls.size() == 1);
    const request_facts& r = calls[0].request;
    CHECK(r.outcome == request_outcome::timed_out);
    REQUIRE(r.exit);
    CHECK(r.exit->killed_by_judge);
  }
  SECTION("killed at the time limit of timing") {
    fake_session f("timing_hang");
    REQUIRE(f.session.run_checks(vector_add_case(1), 10).at(0).answer);
    const auto timing = f.session.run_timing(vector_add_case(0, true), 0.5);
    CHECK(timing.request.outcome == request_outcome::timed_out);
    CHECK_FALSE(timing.answer);
  }
}

TEST_CASE("a runner that cannot run here, or fails itself, is told apart from a crash", "[runner_session]") {
  SECTION("no CUDA device") {
    fake_session f("no_device");
    CHECK_FALSE(f.session.start());
    CHECK(f.session.start_facts().outcome == request_outcome::not_started);
    CHECK(contains(f.session.start_facts().detail, "no CUDA device: the fake runner has none"));
  }
  SECTION("a runner program that does not exist") {
    temp_folder scratch("session");
    runner_options o;
    o.runner = scratch.path() / "no-such-runner";
    o.scratch = scratch.path();
    o.sandbox = false;
    runner_session session(o);
    const auto calls = session.run_checks(vector_add_case(1), 10);
    REQUIRE(calls.size() == 1);
    CHECK(calls[0].request.before_hello);
    CHECK(calls[0].request.outcome == request_outcome::not_started);
    CHECK(contains(calls[0].request.detail, "No such file"));
  }
  SECTION("an error answer of the runner's own") {
    fake_session f("error_answer");
    const auto calls = f.session.run_checks(vector_add_case(2), 10);
    REQUIRE(calls.size() == 1);
    CHECK(calls[0].request.outcome == request_outcome::runner_failed);
    CHECK(contains(calls[0].request.detail, "cannot create output file"));
  }
}

TEST_CASE("a system call the runner's filter denied is a typed fact naming the call and the rule", "[runner_session]") {
  SECTION("in place of a check answer") {
    fake_session f("denied");
    const auto calls = f.session.run_checks(vector_add_case(2), 10);
    REQUIRE(calls.size() == 1);
    const request_facts& r = calls[0].request;
    CHECK(r.outcome == request_outcome::denied);
    CHECK_FALSE(r.before_hello);
    REQUIRE(r.denied);
    CHECK(r.denied->call == "clone");
    CHECK(r.denied->rule == "no new processes (threads are fine)");
    REQUIRE(r.exit);
    CHECK(r.exit->exit_code == 4);
    CHECK_FALSE(calls[0].answer);
  }
  SECTION("in place of the hello") {
    fake_session f("denied_before_hello");
    CHECK_FALSE(f.session.start());
    const request_facts& r = f.session.start_facts();
    CHECK(r.outcome == request_outcome::denied);
    CHECK(r.before_hello);
    REQUIRE(r.denied);
    CHECK(r.denied->call == "socket");
  }
  SECTION("a runner ended by SIGSYS is a runner that ended, by that signal") {
    fake_session f("sigsys");
    const auto calls = f.session.run_checks(vector_add_case(2), 10);
    REQUIRE(calls.size() == 1);
    CHECK(calls[0].request.outcome == request_outcome::runner_ended);
    REQUIRE(calls[0].request.exit);
    CHECK(calls[0].request.exit->signal == SIGSYS);
  }
}

TEST_CASE("answers out of step with the requests are protocol failures naming what was wrong", "[runner_session]") {
  SECTION("an answer for another case") {
    fake_session f("wrong_case");
    const auto calls = f.session.run_checks(vector_add_case(2), 10);
    REQUIRE(calls.size() == 1);
    CHECK(calls[0].request.outcome == request_outcome::out_of_step);
    CHECK(contains(calls[0].request.detail, "answered for case 'other' check 0 where case 'n_8' check 0 was due"));
  }
  SECTION("a check answer without status") {
    fake_session f("no_status");
    const auto calls = f.session.run_checks(vector_add_case(2), 10);
    REQUIRE(calls.size() == 1);
    CHECK(calls[0].request.outcome == request_outcome::out_of_step);
    CHECK(calls[0].request.detail == "check answer field status: missing");
  }
  SECTION("a hello of another protocol version") {
    fake_session f("old_protocol");
    CHECK_FALSE(f.session.start());
    CHECK(f.session.start_facts().outcome == request_outcome::out_of_step);
    CHECK(contains(f.session.start_facts().detail, "protocol version 1, this judge version 7"));
  }
}

TEST_CASE("a runner that lost its CUDA context is replaced for the next case", "[runner_session]") {
  fake_session f("cuda_error");
  for (int round = 0; round < 2; ++round) {
    CAPTURE(round);
    const auto calls = f.session.run_checks(vector_add_case(2), 10);
    REQUIRE(calls.size() == 1);
    REQUIRE(calls[0].answer);
    CHECK(calls[0].answer->status == judge_wire::call_status::cuda_error);
    CHECK(contains(calls[0].answer->error.value_or(""), "cudaErrorIllegalAddress"));
  }
}

namespace {
/// The events the fake runner logged (fake_runner.cpp, --event-log), one "EVENT ROLE PID NANOSECONDS" each.
std::vector<std::string> logged_events(const std::filesystem::path& log) {
  std::vector<std::string> events;
  std::ifstream in(log);
  for (std::string event, role, pid, ns; in >> event >> role >> pid >> ns;) events.push_back(event + " " + role);
  return events;
}
} // namespace

/// A recording session with the fake runner held before it loads (runner_options::load_on_request),
/// logging its events.
struct held_session {
  held_session() : session(options(scratch, log)) {}

  static runner_options options(const temp_folder& scratch, const std::filesystem::path& log) {
    runner_options o = fake_session::options("ok", scratch);
    o.runner = fake_runner("ok", log);
    o.role = runner_role::recording;
    o.load_on_request = true;
    return o;
  }

  temp_folder logs{"held-runner"};
  const std::filesystem::path log = logs.path() / "events";
  temp_folder scratch{"session"};
  runner_session session;
};

TEST_CASE("a recording runner held before its solution loads loads it only when start() asks", "[runner_session]") {
  held_session held;
  held.session.start_early();
  for (int i = 0; i < 100 && logged_events(held.log).empty(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  // Long enough, once it runs, for an unheld runner to have loaded and said hello.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(logged_events(held.log) == std::vector<std::string>{"start recording", "held recording"});
  REQUIRE(held.session.start());
  CHECK(held.session.hello().device == "Fake GPU");
  CHECK(held.session.hello_wait_seconds() > 0);
  const auto calls = held.session.run_checks(vector_add_case(1), 10);
  REQUIRE(calls.size() == 1);
  CHECK(calls[0].answer->status == judge_wire::call_status::ok);
  held.session.finish();
  CHECK(logged_events(held.log) == std::vector<std::string>{"start recording", "held recording", "load recording",
                                                            "hello recording", "case recording", "end recording"});
}

TEST_CASE("a held recording runner ended before its turn never loads its solution", "[runner_session]") {
  held_session held;
  held.session.start_early();
  held.session.finish();
  CHECK(logged_events(held.log) == std::vector<std::string>{"start recording", "held recording", "end recording"});
  CHECK(held.session.learner_output().empty());
}

TEST_CASE("a held runner has started once it says held, and loads nothing until start()", "[runner_session]") {
  held_session held;
  held.session.start_early();
  REQUIRE(held.session.wait_until_started());
  CHECK(held.session.wait_until_started()); // once held, it stays so
  CHECK(logged_events(held.log) == std::vector<std::string>{"start recording", "held recording"});
  CHECK(held.session.hello_wait_seconds() == 0); // the caller counts that wait
  REQUIRE(held.session.start());
  CHECK(held.session.hello().device == "Fake GPU");
  held.session.finish();
  CHECK(logged_events(held.log) ==
        std::vector<std::string>{"start recording", "held recording", "load recording", "hello recording", "end recording"});
}

TEST_CASE("a runner that ends while it starts early fails its first request, and is not started again for it",
          "[runner_session]") {
  temp_folder logs{"early-failure"};
  const std::filesystem::path log = logs.path() / "events";
  temp_folder scratch{"session"};
  runner_options o = fake_session::options("exit_before_hello", scratch);
  o.runner = fake_runner("exit_before_hello", log);
  runner_session session(o);
  session.start_early();
  CHECK_FALSE(session.wait_until_started());
  const auto calls = session.run_checks(vector_add_case(1), 10);
  REQUIRE(calls.size() == 1);
  CHECK_FALSE(calls[0].answer);
  CHECK(calls[0].request.before_hello);
  CHECK(logged_events(log) == std::vector<std::string>{"start trusted", "load trusted"});
}
