// Test fixtures for the results store, the leaderboard and the reports: made-up grading results (no GPU
// involved).
#pragma once

#include "judge/record/grade_result.hpp"
#include "temp_folder.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <system_error>

namespace judge::testing {

/// A timed case: `speed` [GFLOPS] at 2·n³ flops and 12·n² bytes (a square matmul).
inline case_result timed_case(const std::string& name, int n, double speed, double baseline_speed) {
  case_result c;
  c.name = name;
  c.hidden = true;
  c.shape = fmt::format("{0}x{0}x{0}", n);
  c.sizes = {n, n, n};
  c.v = verdict::accepted;
  c.flops = 2.0 * n * n * n;
  c.bytes = 12.0 * n * n;
  timing_summary t;
  t.median_ms = c.flops / speed / 1e6;
  t.min_ms = t.median_ms * 0.98;
  t.max_ms = t.median_ms * 1.05;
  t.noise = 0.004;
  t.precision = 0.0011;
  t.samples = 120;
  t.discarded = 2;
  t.host_median_ms = t.median_ms + 0.01;
  t.sm_clock_mhz = 1980;
  t.method = "cupti";
  t.cold_l2 = true;
  c.timing = t;
  c.speed = speed;
  if (baseline_speed > 0) {
    timing_summary b;
    b.median_ms = c.flops / baseline_speed / 1e6;
    b.noise = 0.002;
    c.baseline_timing = b;
    c.baseline_speed = baseline_speed;
    c.pct_of_baseline = 100 * speed / baseline_speed;
  }
  c.pct_of_peak = 100 * speed / 60000;
  return c;
}

/// An accepted matmul result on `device` whose two hidden cases both run at `speed`, plus an untimed
/// sample case; score = speed.
inline solution_result accepted_result(const std::string& author, double speed,
                                       const std::string& device = "NVIDIA H200",
                                       const std::string& graded_at = "2025-03-01T10:00:00Z") {
  solution_result r;
  r.problem = "matmul";
  r.path = "solutions/matmul/" + author + ".cu";
  r.author = author;
  r.content_hash = "hash-" + author;
  r.graded_at = graded_at;
  r.v = verdict::accepted;
  r.speed_unit = "GFLOPS";
  r.learner_output = "hello from " + author + "\n";
  r.device = {device, "9.0", 132, 62914560, 1980, 60000, 4000, 4800};
  r.sandbox = {sandbox_mode::on, ""};

  case_result sample;
  sample.name = "sample_2x3x2";
  sample.hidden = false;
  sample.shape = "2x3x2";
  sample.sizes = {2, 3, 2};
  sample.v = verdict::accepted;
  sample.flops = 24;
  sample.bytes = 64;
  r.cases.push_back(sample);
  r.cases.push_back(timed_case("square_1024", 1024, speed, 20000));
  r.cases.push_back(timed_case("square_2048", 2048, speed, 20000));
  r.score = speed;
  return r;
}

/// An accepted result like accepted_result() whose case square_2048 was timed below the FP32 floor of
/// the fixture's device (60000 GFLOPS): flagged implausible, with the figures.
inline solution_result implausible_result(const std::string& author, double speed,
                                          const std::string& device = "NVIDIA H200",
                                          const std::string& graded_at = "2025-03-01T10:00:00Z") {
  solution_result r = accepted_result(author, speed, device, graded_at);
  case_result& c = r.cases[2];
  c.implausible = implausible_time{c.timing->median_ms, c.flops / 60000 / 1e6, speed_ceiling::fp32_peak, c.flops, 60000};
  r.implausible = true;
  return r;
}

/// A wrong-answer result: its second case failed, nothing was timed.
inline solution_result wrong_result(const std::string& author, const std::string& device = "NVIDIA H200") {
  solution_result r = accepted_result(author, 1, device);
  r.v = verdict::wrong_answer;
  r.message = "case square_1024 (1024x1024x1024, hidden): 7 of 1048576 elements of C are wrong";
  r.score = 0;
  r.cases[1].v = verdict::wrong_answer;
  r.cases[1].message = "7 of 1048576 elements of C are wrong (against the CPU reference); first at index 17";
  for (case_result& c : r.cases) {
    c.timing.reset();
    c.baseline_timing.reset();
    c.speed = c.baseline_speed = c.pct_of_baseline = c.pct_of_peak = 0;
  }
  return r;
}

/// A run of memcheck that found one invalid write past the end of C at mine.cu:7.
inline sanitizer_run memcheck_finding() {
  sanitizer_run run;
  run.tool = sanitizer_tool::memcheck;
  run.errors = 1;
  run.seconds = 3.5;
  sanitizer_finding f;
  f.kind = sanitizer_error_kind::invalid_access;
  f.space = memory_space::global;
  f.access = access_kind::write;
  f.size = 4;
  f.kernel = "k(float *)";
  f.at = {"mine.cu", 7};
  f.buffer = "C";
  f.buffer_bytes = 32;
  f.relation = buffer_relation::after;
  run.findings = {f};
  return run;
}

/// wrong_result() whose failure (case square_1024, hidden; `on_sample`: the sample case, which failed too)
/// compute-sanitizer explains with memcheck: pending, or, when `explained`, done with memcheck_finding().
inline solution_result explained_result(const std::string& author, bool explained, bool on_sample = false) {
  solution_result r = wrong_result(author);
  case_result& c = r.cases[on_sample ? 0 : 1];
  c.v = verdict::run_time_error;
  r.v = verdict::run_time_error;
  r.sanitizer.state = explanation_state::pending;
  r.sanitizer.case_name = c.name;
  r.sanitizer.tools = {sanitizer_tool::memcheck};
  r.sanitizer.seconds_per_tool = 40;
  if (explained) {
    r.sanitizer.state = explanation_state::done;
    c.sanitizer = {memcheck_finding()};
  }
  return r;
}

} // namespace judge::testing
