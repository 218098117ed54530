// judge cases <problem> [--show CASE [--out DIR] | --check]: a problem's test cases; a sample case's
// inputs and the CPU reference's outputs, to debug against; the reference checked on every sample case
// against its expected values, and run on every hidden case (a dry run that needs no GPU).
#include "judge/cli/cli.hpp"

#include "judge/base/file_input.hpp"
#include "judge/base/file_output.hpp"
#include "judge/grading/case_data.hpp"
#include "judge/grading/compare.hpp"
#include "judge/grading/reference_dry_run.hpp"
#include "judge/grading/reference_library.hpp"
#include "judge/problem/call_limit.hpp"
#include "judge/problem/case_tolerance.hpp"
#include "judge/problem/check_seed.hpp"
#include "judge/problem/problem.hpp"
#include "judge/base/usage_error.hpp"
#include "judge/problem/cases.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <thread>

namespace judge::cli {

namespace {
namespace fs = std::filesystem;

struct cases_flags {
  std::string problem, show, out_dir;
  bool check = false, json = false;
  double budget = 120; ///< [s] --check: the CPU reference's time over the hidden cases
};

/// [B] --check: a case whose buffers would take more than this in the judge is not run by the check.
constexpr std::int64_t dry_run_max_bytes = std::int64_t{4} << 30;

// A terminal shows this much of a buffer; --out DIR has all of it.
constexpr std::int64_t shown_rows = 8, shown_columns = 8, shown_values = 16;

unsigned reference_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

std::string value_text(double v) { return fmt::format("{}", static_cast<float>(v)); }

/// "[M, N] = 2x3"
std::string shape_label(const parameter& p, const test_case& c) {
  std::string names, values;
  for (const size_expr& e : p.shape) {
    names += (names.empty() ? "" : ", ") + e.text();
    values += (values.empty() ? "" : "x") + std::to_string(e.evaluate(c.sizes));
  }
  return "[" + names + "] = " + values;
}

/// A buffer as a terminal shows it: a matrix of rows for 2-D buffers, a list otherwise; the first
/// rows, columns or values only, with a note saying what was left out.
template <typename T> std::string buffer_text(const std::vector<T>& values, const std::vector<std::int64_t>& shape) {
  std::string out;
  if (shape.size() == 2) {
    const std::int64_t rows = shape[0], cols = shape[1];
    const std::int64_t show_r = std::min(rows, shown_rows), show_c = std::min(cols, shown_columns);
    std::size_t width = 1;
    for (std::int64_t r = 0; r < show_r; ++r)
      for (std::int64_t k = 0; k < show_c; ++k)
        width = std::max(width, value_text(values[static_cast<std::size_t>(r * cols + k)]).size());
    for (std::int64_t r = 0; r < show_r; ++r) {
      out += fmt::format("  row {:>3}:", r);
      for (std::int64_t k = 0; k < show_c; ++k)
        out += fmt::format(" {:>{}}", value_text(values[static_cast<std::size_t>(r * cols + k)]), width);
      out += show_c < cols ? " ...\n" : "\n";
    }
    if (show_r < rows || show_c < cols)
      out += fmt::format("  (showing {} of {} rows and {} of {} columns)\n", show_r, rows, show_c, cols);
    return out;
  }
  const std::int64_t count = static_cast<std::int64_t>(values.size());
  out += " ";
  for (std::int64_t i = 0; i < std::min(count, shown_values); ++i)
    out += " " + value_text(values[static_cast<std::size_t>(i)]);
  out += count > shown_values ? fmt::format(" ...\n  (showing {} of {} values)\n", shown_values, count) : "\n";
  return out;
}

const test_case& sample_case(const problem_spec& spec, const std::vector<test_case>& cases, const std::string& name) {
  const test_case& c = cases[index_of_case(spec, cases, name)];
  // A hidden case's data must stay with the judge; its seeds are keyed by the judge's secret anyway.
  if (c.visibility == visibility::hidden)
    throw usage_error("case " + c.name + " of " + spec.name +
                      " is hidden: its data is not shown; only sample cases can be (see `judge cases " + spec.name +
                      "`)");
  return c;
}

/// A sample case's inputs, exactly as a runner receives them in check 0 (sample seeds do not involve
/// the judge's secret), and the CPU reference's outputs for them.
struct case_values {
  std::map<std::string, std::vector<float>> inputs;
  std::map<std::string, std::vector<double>> outputs;
};

/// An input's elements as numbers: the floats, or an int32 buffer's ints (its elements hold their bits).
std::vector<double> input_values(const parameter& p, const std::vector<float>& words) {
  std::vector<double> values;
  values.reserve(words.size());
  for (const float w : words)
    values.push_back(p.type == judge_data::element_type::int32 ? judge_data::int_of_word(w) : static_cast<double>(w));
  return values;
}

const char* dtype_name(const parameter& p) { return p.type == judge_data::element_type::int32 ? "int32" : "float32"; }

case_values compute(const problem_spec& spec, const test_case& c) {
  case_values v;
  v.inputs = regenerate_inputs(spec, c, sample_check_seed(c.seed, spec.name, c.name, 0));
  v.outputs = cpu_reference_outputs(spec, c, v.inputs, reference_threads());
  return v;
}

void write_raw(const fs::path& file, const std::vector<float>& values) {
  std::ofstream out(file, std::ios::binary);
  out.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(float)));
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

/// DIR/<buffer>.bin (raw 32-bit elements, row-major, native byte order) and DIR/manifest.json describing
/// them; an inout buffer has two files, its input and its expected output.
void write_case_files(const fs::path& dir, const problem_spec& spec, const test_case& c, const case_values& v) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) throw usage_error("--out " + dir.string() + " is not a folder that can be made");
  nlohmann::json manifest = {{"problem", spec.name}, {"case", c.name}, {"sizes", c.sizes}, {"buffers", {}}};
  if (!c.scalars.empty()) manifest["scalars"] = c.scalars;
  for (const parameter* p : spec.buffers()) {
    const auto add = [&](const std::string& file, const char* role, const std::vector<float>& words) {
      write_raw(dir / file, words);
      manifest["buffers"].push_back({{"name", p->name},
                                     {"role", role},
                                     {"file", file},
                                     {"dtype", dtype_name(*p)},
                                     {"shape", buffer_shape(*p, c)}});
    };
    if (p->is_generated()) add(p->name + ".bin", "input", v.inputs.at(p->name));
    if (p->is_result()) {
      std::vector<float> words;
      for (double x : v.outputs.at(p->name))
        words.push_back(p->type == judge_data::element_type::int32
                            ? judge_data::word_of_int(static_cast<std::int32_t>(x))
                            : static_cast<float>(x));
      add(p->is_generated() ? p->name + ".expected.bin" : p->name + ".bin", "expected output", words);
    }
  }
  write_file_atomically(dir / "manifest.json", manifest.dump(2) + "\n", "the case's manifest");
  std::fprintf(stderr, "wrote %s (raw 32-bit elements, row-major; manifest.json describes them)\n",
               dir.string().c_str());
}

/// Every value of every buffer, for a program to read.
std::string case_json(const problem_spec& spec, const test_case& c, const case_values& v) {
  nlohmann::json doc = {{"problem", spec.name}, {"case", c.name}, {"sizes", c.sizes}, {"buffers", {}}};
  if (!c.scalars.empty()) doc["scalars"] = c.scalars;
  for (const parameter* p : spec.buffers()) {
    const auto add = [&](const char* role, const std::vector<double>& values) {
      doc["buffers"].push_back({{"name", p->name},
                                {"role", role},
                                {"dtype", dtype_name(*p)},
                                {"shape", buffer_shape(*p, c)},
                                {"values", values}});
    };
    if (p->is_generated()) add("input", input_values(*p, v.inputs.at(p->name)));
    if (p->is_result()) add("expected output", v.outputs.at(p->name));
  }
  const tolerance t = case_tolerance(spec, c);
  doc["tolerance"] = {{"atol", t.atol}, {"rtol", t.rtol}, {"exact", t.exact}};
  return doc.dump(2) + "\n";
}

int show_case(const problem_spec& spec, const std::vector<test_case>& cases, const cases_flags& f) {
  const test_case& c = sample_case(spec, cases, f.show);
  const case_values v = compute(spec, c);
  if (f.json) {
    std::fputs(case_json(spec, c, v).c_str(), stdout);
    if (!f.out_dir.empty()) write_case_files(f.out_dir, spec, c, v);
    return 0;
  }
  std::string sizes;
  for (const auto& name : spec.size_names())
    sizes += fmt::format("{}{}={}", sizes.empty() ? "" : " ", name, c.sizes.at(name));
  for (const auto& [name, value] : c.scalars)
    sizes += fmt::format("{}{}={}", sizes.empty() ? "" : " ", name, static_cast<float>(value));
  const tolerance t = case_tolerance(spec, c);
  std::printf("case %s of %s (sample): %s\n", c.name.c_str(), spec.name.c_str(), sizes.c_str());
  for (const parameter* p : spec.buffers()) {
    const auto shape = buffer_shape(*p, c);
    if (p->is_generated())
      std::printf("\ninput %s %s (%s):\n%s", p->name.c_str(), shape_label(*p, c).c_str(),
                  c.data.count(p->name) ? "explicit data" : "generated from the seed",
                  buffer_text(input_values(*p, v.inputs.at(p->name)), shape).c_str());
    if (p->is_result() && p->type == judge_data::element_type::int32)
      std::printf("\nexpected output %s %s (the CPU reference; integers, accepted only if equal):\n%s", p->name.c_str(),
                  shape_label(*p, c).c_str(), buffer_text(v.outputs.at(p->name), shape).c_str());
    else if (p->is_result() && t.exact)
      std::printf("\nexpected output %s %s (the CPU reference; compare: exact, accepted only if equal to it as a "
                  "float):\n%s",
                  p->name.c_str(), shape_label(*p, c).c_str(), buffer_text(v.outputs.at(p->name), shape).c_str());
    else if (p->is_result())
      std::printf("\nexpected output %s %s (the CPU reference; accepted within |got - ref| <= %g + %g*|ref|):\n%s",
                  p->name.c_str(), shape_label(*p, c).c_str(), t.atol, t.rtol,
                  buffer_text(v.outputs.at(p->name), shape).c_str());
  }
  if (!f.out_dir.empty()) write_case_files(f.out_dir, spec, c, v);
  return 0;
}

/// The first element where the reference disagrees with the case's `expected` values, as a message.
std::optional<std::string> expected_mismatch(const problem_spec& spec, const test_case& c, const case_values& v) {
  for (const auto& [name, expected] : c.expected) {
    const auto& got = v.outputs.at(name);
    const auto param = std::find_if(spec.signature.begin(), spec.signature.end(),
                                    [&, &name = name](const parameter& p) { return p.name == name; });
    const tolerance t = case_tolerance(spec, c);
    for (std::size_t i = 0; i < expected.size(); ++i) {
      // The reference is compared as a solution's output would be: rounded to its buffer's type.
      const float as_element = param->type == judge_data::element_type::int32
                                   ? judge_data::word_of_int(static_cast<std::int32_t>(got[i]))
                                   : static_cast<float>(got[i]);
      if (element_passes(param->type, as_element, expected[i], t)) continue;
      std::string at;
      for (std::int64_t k : unflatten(static_cast<std::int64_t>(i), buffer_shape(*param, c)))
        at += "[" + std::to_string(k) + "]";
      return fmt::format("{}{}: the CPU reference gives {}, cases.yaml expects {} (line {})", name, at,
                         value_text(got[i]), value_text(expected[i]), c.line);
    }
  }
  return std::nullopt;
}

/// Runs the CPU reference on every sample case (no GPU needed), prints its outputs and compares them with
/// the cases' `expected` values. Exit 1 when one disagrees.
int check_samples(const problem_spec& spec, const std::vector<test_case>& cases) {
  int samples = 0, checked = 0, wrong = 0;
  for (const test_case& c : cases) {
    if (c.visibility != visibility::sample) continue;
    ++samples;
    const case_values v = compute(spec, c);
    std::printf("%s (%s):\n", c.name.c_str(), shape_text(spec, c).c_str());
    for (const parameter* p : spec.buffers())
      if (p->is_result())
        std::printf("  %s %s:\n%s", p->name.c_str(), shape_label(*p, c).c_str(),
                    buffer_text(v.outputs.at(p->name), buffer_shape(*p, c)).c_str());
    if (c.expected.empty()) {
      std::printf("  no expected values in cases.yaml to compare with\n");
      continue;
    }
    ++checked;
    if (const auto mismatch = expected_mismatch(spec, c, v)) {
      ++wrong;
      std::printf("  WRONG: %s\n", mismatch->c_str());
    } else {
      std::printf("  matches the expected values in cases.yaml\n");
    }
  }
  if (samples == 0) std::printf("%s has no sample cases\n", spec.name.c_str());
  std::printf("%d sample case%s, %d with expected values, %d disagreeing with the CPU reference\n", samples,
              samples == 1 ? "" : "s", checked, wrong);
  return wrong ? some_not_accepted : all_accepted;
}

/// Runs the CPU reference on every case that is not a sample, within `budget` seconds in all: each case's
/// inputs are generated (with its sample seed: the real hidden seeds need the judge's secret), and a
/// reference that fails or writes a non-finite value is named (exit 1), and one that takes longer than a
/// solution's call may (the problem's limits.case_seconds: every submission would wait for it) is named
/// as slow, a warning, since that depends on the machine.
int check_hidden(const problem_spec& spec, const std::vector<test_case>& cases, double budget) {
  int run = 0, bad = 0, skipped = 0, slow = 0;
  double spent = 0;
  std::printf("the CPU reference on the hidden cases (a dry run, no GPU; budget %.0f s):\n", budget);
  for (const test_case& c : cases) {
    if (c.visibility == visibility::sample) continue;
    const std::string head = fmt::format("  {:<30} {:<18}", c.name, shape_text(spec, c));
    if (spent >= budget) {
      std::printf("%s not checked: past the budget (--budget)\n", head.c_str());
      ++skipped;
      continue;
    }
    const reference_dry_run r = dry_run_reference(spec, c, reference_threads(), dry_run_max_bytes);
    spent += r.seconds;
    ++run;
    switch (r.what) {
    case reference_dry_run::outcome::too_large:
      --run;
      ++skipped;
      std::printf("%s not checked: its buffers take %.1f GiB, more than this check allows (%lld GiB)\n", head.c_str(),
                  static_cast<double>(r.bytes) / (1 << 30), static_cast<long long>(dry_run_max_bytes >> 30));
      break;
    case reference_dry_run::outcome::failed:
      ++bad;
      std::printf("%s FAILED: %s\n", head.c_str(), r.error.c_str());
      break;
    case reference_dry_run::outcome::non_finite:
      ++bad;
      std::printf("%s NON-FINITE: %s[%lld] = %s\n", head.c_str(), r.buffer.c_str(), static_cast<long long>(r.index),
                  value_text(r.value).c_str());
      break;
    case reference_dry_run::outcome::ok:
      if (r.seconds > spec.limits.case_seconds) {
        // A warning, not a failure: how long a reference takes depends on the machine that runs it.
        ++slow;
        std::printf("%s SLOW: %.1f s on this machine, more than a call's limit of %.0f s (limits.case_seconds): "
                    "every submission waits for it\n",
                    head.c_str(), r.seconds, spec.limits.case_seconds);
      } else {
        std::printf("%s ok %.2f s\n", head.c_str(), r.seconds);
      }
      break;
    }
    std::fflush(stdout);
  }
  std::printf("%d hidden case%s run, %d with a problem, %d slow, %d not checked\n", run, run == 1 ? "" : "s", bad, slow,
              skipped);
  return bad ? some_not_accepted : all_accepted;
}

/// The files a problem folder must hold besides its spec (docs/problem-format.md), each named with what
/// is wrong: missing, or a GPU reference without the entry point the runner links to. Compiling them is
/// `judge verify <problem> --compile-only`'s work. Returns how many are wrong.
int check_package_files(const problem_spec& spec) {
  int wrong = 0;
  const auto say = [&](const std::string& what) {
    std::printf("  %s\n", what.c_str());
    ++wrong;
  };
  for (const char* file : {"reference.cpp", "reference_gpu.cu", "starter.cu"})
    if (!fs::is_regular_file(spec.dir / file))
      say(fmt::format("{}: missing ({}; docs/problem-format.md says what it holds)", file, (spec.dir / file).string()));
  if (!spec.baseline.source.empty() && !fs::is_regular_file(spec.baseline.source))
    say(fmt::format("{}: missing (problem.yaml names it as baseline.source)", spec.baseline.source.string()));
  if (!fs::is_regular_file(spec.statement))
    say(fmt::format("{}: missing (problem.yaml's statement)", spec.statement.string()));
  if (fs::is_regular_file(spec.dir / "reference_gpu.cu")) {
    std::error_code unreadable;
    const std::string text = read_file(spec.dir / "reference_gpu.cu", unreadable).value_or("");
    const std::size_t entry = text.find("judge_reference_solve");
    if (entry == std::string::npos)
      say("reference_gpu.cu: defines no judge_reference_solve(void* const* buffers, const int* sizes, const float* "
          "scalars), the function the runner calls");
    else if (text.rfind("extern \"C\"", entry) == std::string::npos)
      say("reference_gpu.cu: judge_reference_solve must be declared extern \"C\" (the runner links it by its C name)");
  }
  std::printf("%s\n", wrong ? "the problem folder is incomplete" : "the problem folder has every file it needs");
  return wrong;
}

int list_cases(const context& ctx, const cases_flags& f) {
  const problem_spec spec = load_problem(ctx.where.problems() / f.problem);
  const auto cases = load_cases(spec, ctx.where.testcases() / f.problem / "cases.yaml");
  if ((!f.out_dir.empty() || f.json) && f.show.empty())
    throw usage_error(std::string(f.json ? "--json" : "--out") + " needs --show CASE: the case whose data to give");
  if (!f.show.empty()) return show_case(spec, cases, f);
  if (f.check) {
    const int missing = check_package_files(spec);
    const int samples = check_samples(spec, cases);
    const int hidden = check_hidden(spec, cases, f.budget);
    return missing ? some_not_accepted : samples != all_accepted ? samples : hidden;
  }
  std::printf("%-30s %-10s %-18s %s\n", "case", "visibility", "shape", "timed");
  for (const auto& c : cases) {
    // What else decides how the case is judged, said after the columns every case has.
    std::string notes = c.compare == comparison::exact ? "  exact" : "";
    // A call's limit, where it varies from case to case (limits.slowest_speed).
    if (spec.limits.slowest_speed) notes += fmt::format("  limit {:.3g} s", call_limit_seconds(spec, c));
    if (c.robustness()) notes += "  robustness: " + c.beyond_limits;
    std::string timed = c.timed ? "yes" : "no";
    if (!notes.empty()) timed.resize(3, ' '); // the notes in a column of their own
    std::printf("%-30s %-10s %-18s %s%s\n", c.name.c_str(), c.visibility == visibility::hidden ? "hidden" : "sample",
                shape_text(spec, c).c_str(), timed.c_str(), notes.c_str());
  }
  return 0;
}
} // namespace

void add_cases(CLI::App& app, context& ctx) {
  auto [sub, flags] = add_problem_command<cases_flags>(
      app, ctx, "cases", "list a problem's test cases (hidden ones are marked); show or check the sample ones",
      list_cases);
  auto* show = sub->add_option("--show", flags->show,
                               "print a sample case's inputs and the CPU reference's expected outputs (no GPU needed)");
  sub->add_option("--out", flags->out_dir, "with --show: also write each buffer to DIR/<name>.bin (raw float32)");
  sub->add_flag("--json", flags->json, "with --show: print every value as JSON instead of the tables");
  sub->add_flag("--check", flags->check,
                "run the CPU reference on every sample case, print its outputs and compare them with the "
                "cases' `expected` values; then on every hidden case, naming one whose reference fails, writes "
                "a non-finite value (exit 1) or is slower than a call's limit (a warning); no GPU needed")
      ->excludes(show);
  sub->add_option("--budget", flags->budget, "with --check: seconds the hidden cases' references may take in all")
      ->check(CLI::PositiveNumber);
}

} // namespace judge::cli
