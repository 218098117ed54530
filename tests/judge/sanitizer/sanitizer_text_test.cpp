#include "catch.hpp"
#include "text_match.hpp"

#include "judge/sanitizer/sanitizer_text.hpp"

using namespace judge;
using judge_test::contains;

namespace {

sanitizer_finding write_past_end(std::uint64_t distance) {
  sanitizer_finding f;
  f.kind = sanitizer_error_kind::invalid_access;
  f.space = memory_space::global;
  f.access = access_kind::write;
  f.size = 4;
  f.kernel = "one_past(float *, long long)";
  f.at = {"writes_past_end.cu", 21};
  f.thread = std::array<int, 3>{0, 0, 0};
  f.block = std::array<int, 3>{0, 0, 0};
  f.address = 0x1000 + 4096 + distance;
  f.buffer = "C";
  f.buffer_bytes = 4096;
  f.relation = buffer_relation::after;
  f.distance = distance;
  return f;
}

} // namespace

TEST_CASE("an invalid write names the line, the thread and where it missed the buffer", "[sanitizer]") {
  CHECK(finding_text(write_past_end(0)) ==
        "invalid global write of 4 bytes in one_past at writes_past_end.cu:21 by thread (0,0,0) of block (0,0,0): "
        "just past the end of C (4096 bytes)");
  CHECK(contains(finding_text(write_past_end(8)), ": 8 bytes past the end of C (4096 bytes)"));
  sanitizer_finding before = write_past_end(4);
  before.relation = buffer_relation::before;
  CHECK(contains(finding_text(before), ": 4 bytes before the start of C (4096 bytes)"));
  sanitizer_finding wild = write_past_end(0);
  wild.buffer.clear();
  wild.relation = buffer_relation::unknown;
  CHECK(contains(finding_text(wild), "writes_past_end.cu:21 by thread (0,0,0) of block (0,0,0): address 0x2000, far "
                                     "from every buffer solve() was given"));
  sanitizer_finding own = write_past_end(1);
  own.buffer.clear();
  own.buffer_bytes = 4000;
  CHECK(contains(finding_text(own), ": 1 bytes past the end of an allocation of 4000 bytes that is none of the "
                                    "judge's buffers"));
}

TEST_CASE("a race names both lines and the missing barrier", "[sanitizer]") {
  sanitizer_finding f;
  f.tool = sanitizer_tool::racecheck;
  f.kind = sanitizer_error_kind::shared_race;
  f.kernel = "tiled(float const *)";
  f.access = access_kind::write;
  f.at = {"t.cu", 27};
  f.other_access = access_kind::read;
  f.other_at = {"t.cu", 31};
  f.hazards = 12;
  CHECK(finding_text(f) == "shared-memory race in tiled: a write at t.cu:27 and a read at t.cu:31 by different "
                           "threads with no barrier (__syncthreads()) between them (12 hazards)");
}

TEST_CASE("each run's outcome is said, including a tool that could not run", "[sanitizer]") {
  sanitizer_run clean;
  clean.tool = sanitizer_tool::initcheck;
  clean.errors = 0;
  clean.seconds = 2.5;
  CHECK(run_summary(clean) == "initcheck, 2.5 s: nothing found");
  sanitizer_run found;
  found.errors = 12;
  found.seconds = 1;
  found.findings = {write_past_end(0)};
  CHECK(run_summary(found) == "memcheck, 1.0 s: 12 errors (the first 1 shown)");
  sanitizer_run missing;
  missing.state = sanitizer_state::not_available;
  missing.detail = "no compute-sanitizer at /x";
  CHECK(run_summary(missing) == "memcheck: not run (no compute-sanitizer at /x)");
  const std::string block = sanitizer_text("n_100", {found});
  CHECK(contains(block, "compute-sanitizer on n_100 (explains; never changes the verdict or the time):"));
  CHECK(contains(block, "    - invalid global write of 4 bytes"));
}

TEST_CASE("the CUDA calls that fail after a kernel's fault are counted, not listed", "[sanitizer]") {
  sanitizer_finding api;
  api.kind = sanitizer_error_kind::cuda_api_error;
  api.api_call = "cudaDeviceSynchronize";
  api.api_error = "cudaErrorLaunchFailure";
  sanitizer_run run;
  run.errors = 6;
  run.findings = {write_past_end(0), api, api, api, api, api}; // as memcheck printed it on the H200
  const std::string block = sanitizer_text("sample_2x3x2", {run});
  CHECK(contains(block, "    - invalid global write of 4 bytes"));
  CHECK(contains(block, "C (4096 bytes)\n    - and 5 later CUDA call(s) also failed"));
  CHECK_FALSE(contains(block, "returned cudaErrorLaunchFailure"));
  // A failed call with no fault before it is what solve() was told: each one is listed.
  run.findings = {api};
  CHECK_FALSE(contains(sanitizer_text("sample_2x3x2", {run}), "later CUDA call"));
}

TEST_CASE("an explanation still to come says which case, which tools and their bound", "[sanitizer]") {
  sanitizer_explanation e;
  e.state = explanation_state::pending;
  e.case_name = "n_100";
  e.tools = {sanitizer_tool::memcheck};
  e.seconds_per_tool = 40;
  CHECK(explanation_text(e, {}) == "compute-sanitizer on n_100: pending (memcheck, at most 40 s): it explains the "
                                   "failure after the verdict, which it never changes\n");
  e.tools = {sanitizer_tool::racecheck, sanitizer_tool::initcheck};
  CHECK(contains(explanation_text(e, {}), "pending (racecheck, then initcheck, at most 40 s each)"));
  CHECK(explanation_state_text(explanation_state::pending) == "pending");
  CHECK(explanation_state_text(explanation_state::over_budget) == "over budget");
}

TEST_CASE("an explanation that could not run says why unless its runs do, and one that ran leaves it to them",
          "[sanitizer]") {
  sanitizer_explanation e;
  e.state = explanation_state::failed;
  e.case_name = "n_100";
  e.detail = "no CUDA device";
  CHECK(explanation_text(e, {}) == "compute-sanitizer on n_100: could not run: no CUDA device\n");
  sanitizer_run missing;
  missing.state = sanitizer_state::not_available;
  CHECK(explanation_text(e, {missing}).empty()); // its run's summary says it
  e.state = explanation_state::done;
  CHECK(explanation_text(e, {sanitizer_run{}}).empty());
  e.state = explanation_state::none;
  CHECK(explanation_text(e, {}).empty());
}
