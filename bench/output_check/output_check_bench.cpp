// How fast the judge takes a checked call's output and compares it with its references, on this machine's
// cores: the CPU side of every checked call of a large case (docs/deploy.md, "output checks"). For each
// size it reads the output's file from a scratch folder as the grader does (take_output, into the memory
// of the last read, the file removed after), compares a right output with a double reference (the CPU
// reference's) and with a float one (a baseline's), and a wrong one (a single element off) with the
// double reference, and prints the median of five runs of each, in milliseconds and in elements per
// nanosecond.
//
//   build/bench/output_check_bench [elements ...]     (default: 16777216 33554432 67108864)
#include "judge/grading/compare.hpp"
#include "judge/grading/output_files.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace {

/// The median of five runs of `run`, each after an untimed `before` where one is given.
double median_ms(const std::function<void()>& run, const std::function<void()>& before = {}) {
  std::vector<double> ms;
  for (int k = 0; k < 5; ++k) {
    if (before) before();
    const auto began = std::chrono::steady_clock::now();
    run();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[2];
}

} // namespace

int main(int argc, char** argv) {
  std::vector<std::size_t> sizes;
  for (int a = 1; a < argc; ++a) sizes.push_back(std::strtoull(argv[a], nullptr, 10));
  if (sizes.empty()) sizes = {std::size_t{1} << 24, std::size_t{1} << 25, std::size_t{1} << 26};
  const judge::tolerance tol{1e-4, 1e-4};
  judge::scratch_folder scratch = judge::scratch_folder::create_temporary("judge-output-bench");
  std::printf("%12s %22s %22s %22s %22s\n", "elements", "read its file", "right vs double", "right vs float",
              "one wrong vs double");
  for (const std::size_t n : sizes) {
    std::vector<double> reference(n);
    std::vector<float> baseline(n), got(n);
    for (std::size_t i = 0; i < n; ++i) {
      reference[i] = static_cast<double>(i % 4093) * 0.125 - 200.0;
      baseline[i] = got[i] = static_cast<float>(reference[i]);
    }
    const std::vector<std::int64_t> shape{static_cast<std::int64_t>(n)};
    bool answers_right = true;
    judge_wire::check_answer ready;
    ready.outputs = {"0.0.C.bin"};
    std::vector<float> reuse;
    // Each read's values are checked before the next read, outside the time measured.
    const double read_ms = median_ms(
        [&] {
          judge::output_read read =
              judge::take_output(scratch, ready, "0.0.C.bin", static_cast<std::int64_t>(n), std::move(reuse));
          answers_right &= read.values.has_value();
          if (read.values) reuse = std::move(*read.values);
        },
        [&] {
          if (!reuse.empty()) answers_right &= reuse == got;
          std::ofstream(scratch.path() / "0.0.C.bin", std::ios::binary)
              .write(reinterpret_cast<const char*>(got.data()), static_cast<std::streamsize>(n * sizeof(float)));
        });
    answers_right &= reuse == got;
    const double right_double =
        median_ms([&] { answers_right &= !judge::compare_output("C", got, reference, shape, tol); });
    const double right_float =
        median_ms([&] { answers_right &= !judge::compare_output("C", got, baseline, shape, tol); });
    std::vector<float> wrong = got;
    wrong[n / 2] += 1.0f;
    const double one_wrong =
        median_ms([&] { answers_right &= judge::compare_output("C", wrong, reference, shape, tol).has_value(); });
    const auto cell = [n](double ms) {
      return std::to_string(ms).substr(0, 7) + " ms " + std::to_string(n / ms / 1e6).substr(0, 5) + "/ns";
    };
    std::printf("%12zu %22s %22s %22s %22s%s\n", n, cell(read_ms).c_str(), cell(right_double).c_str(),
                cell(right_float).c_str(), cell(one_wrong).c_str(),
                answers_right ? "" : "  (a read or a comparison gave the wrong answer)");
    if (!answers_right) return 1;
  }
  return 0;
}
