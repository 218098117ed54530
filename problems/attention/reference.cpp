// CPU reference of attention: for each query row, the scores in double, their maximum, the weights
// exp(score - max) and their sum, and each output as the weighted sum of V's rows, all in double.
#include "cpu_reference.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

JUDGE_CPU_REFERENCE(attention, args) {
  const float* q = args.input("Q").data();
  const float* k = args.input("K").data();
  const float* v = args.input("V").data();
  double* out = args.output("output").data();
  const std::int64_t m = args.size("M"), n = args.size("N"), d = args.size("d");
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  judge_reference::parallel_for(m, args.threads, [=](std::int64_t begin, std::int64_t end) {
    std::vector<double> score(static_cast<std::size_t>(n));
    for (std::int64_t i = begin; i < end; ++i) {
      double best = -INFINITY;
      for (std::int64_t key = 0; key < n; ++key) {
        double dot = 0;
        for (std::int64_t c = 0; c < d; ++c)
          dot += static_cast<double>(q[i * d + c]) * static_cast<double>(k[key * d + c]);
        score[key] = dot * scale;
        best = std::max(best, score[key]);
      }
      double sum = 0;
      for (std::int64_t key = 0; key < n; ++key) sum += score[key] = std::exp(score[key] - best);
      for (std::int64_t c = 0; c < d; ++c) {
        double acc = 0;
        for (std::int64_t key = 0; key < n; ++key) acc += score[key] * static_cast<double>(v[key * d + c]);
        out[i * d + c] = acc / sum;
      }
    }
  });
}
