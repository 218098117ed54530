// How fast the judge compares a checked call's output with its references, on this machine's cores: the
// CPU side of every checked call of a large case (docs/deploy.md, "output checks"). For each size it
// compares a right output with a double reference (the CPU reference's) and with a float one (a
// baseline's), and a wrong one (a single element off) with the double reference, and prints the median
// of five runs of each, in milliseconds and in elements per nanosecond.
//
//   build/bench/output_check_bench [elements ...]     (default: 16777216 33554432 67108864)
#include "judge/grading/compare.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

double median_ms(const std::function<void()>& run) {
  std::vector<double> ms;
  for (int k = 0; k < 5; ++k) {
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
  std::printf("%12s %22s %22s %22s\n", "elements", "right vs double", "right vs float", "one wrong vs double");
  for (const std::size_t n : sizes) {
    std::vector<double> reference(n);
    std::vector<float> baseline(n), got(n);
    for (std::size_t i = 0; i < n; ++i) {
      reference[i] = static_cast<double>(i % 4093) * 0.125 - 200.0;
      baseline[i] = got[i] = static_cast<float>(reference[i]);
    }
    const std::vector<std::int64_t> shape{static_cast<std::int64_t>(n)};
    bool wrong_seen = true;
    const double right_double = median_ms([&] { wrong_seen &= !judge::compare_output("C", got, reference, shape, tol); });
    const double right_float = median_ms([&] { wrong_seen &= !judge::compare_output("C", got, baseline, shape, tol); });
    std::vector<float> wrong = got;
    wrong[n / 2] += 1.0f;
    const double one_wrong = median_ms([&] { wrong_seen &= judge::compare_output("C", wrong, reference, shape, tol).has_value(); });
    const auto cell = [n](double ms) { return std::to_string(ms).substr(0, 7) + " ms " + std::to_string(n / ms / 1e6).substr(0, 5) + "/ns"; };
    std::printf("%12zu %22s %22s %22s%s\n", n, cell(right_double).c_str(), cell(right_float).c_str(),
                cell(one_wrong).c_str(), wrong_seen ? "" : "  (a comparison gave the wrong answer)");
    if (!wrong_seen) return 1;
  }
  return 0;
}
