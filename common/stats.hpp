// Small statistics over timing samples and speeds, the one copy shared by the runner (adaptive stopping)
// and the judge (summaries, scores, the leaderboard). Header-only C++, standard library only.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace judge_stats {

/// Arithmetic mean; 0 for no values.
inline double mean(const std::vector<double>& values) {
  if (values.empty()) return 0.0;
  double sum = 0.0;
  for (double v : values) sum += v;
  return sum / static_cast<double>(values.size());
}

/// Sample standard deviation (divides by n - 1); 0 for fewer than two values.
inline double stddev(const std::vector<double>& values) {
  if (values.size() < 2) return 0.0;
  const double m = mean(values);
  double squares = 0.0;
  for (double v : values) squares += (v - m) * (v - m);
  return std::sqrt(squares / static_cast<double>(values.size() - 1));
}

/// Relative standard deviation (stddev / mean) [fraction]; 0 when the mean is 0, since then every
/// non-negative sample is 0 too.
inline double relative_stddev(const std::vector<double>& values) {
  const double m = mean(values);
  return m == 0.0 ? 0.0 : stddev(values) / m;
}

/// Median (mean of the two middle values for an even count); 0 for no values.
inline double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  // After nth_element every value left of `mid` is <= upper; the lower middle is their maximum.
  const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
  return 0.5 * (lower + upper);
}

/// The ranked figure's precision: half the width of the distribution-free 95% confidence interval of the
/// median, relative to the median [fraction]. The interval runs between the order statistics
/// n/2 - 1.96·sqrt(n)/2 and n/2 + 1.96·sqrt(n)/2 (1-based, rounded outwards): the binomial count of
/// samples below the true median, in its normal approximation. Distribution-free because kernel times
/// are not normal (a floor, a long right tail, at times two modes), and of the median because the
/// median is what is ranked. Infinity when there are too few values for an interval (fewer than 6) or
/// the median is 0.
inline double median_relative_half_width(std::vector<double> values) {
  const std::size_t n = values.size();
  if (n < 6) return HUGE_VAL;
  std::sort(values.begin(), values.end());
  const double spread = 1.959964 * std::sqrt(static_cast<double>(n)) / 2.0;
  const double half = static_cast<double>(n) / 2.0;
  const auto lower_rank = static_cast<std::ptrdiff_t>(std::max(1.0, std::floor(half - spread)));
  const auto upper_rank = static_cast<std::ptrdiff_t>(std::min(static_cast<double>(n), std::ceil(half + spread + 1.0)));
  const double m = median(values);
  if (m == 0.0) return HUGE_VAL;
  return (values[static_cast<std::size_t>(upper_rank - 1)] - values[static_cast<std::size_t>(lower_rank - 1)]) / 2.0 /
         std::fabs(m);
}

/// Geometric mean of positive values; 0 if any value is not positive or there are none (a missing speed
/// makes a score meaningless rather than merely lower).
inline double geometric_mean(const std::vector<double>& values) {
  if (values.empty()) return 0.0;
  double log_sum = 0.0;
  for (double v : values) {
    if (!(v > 0)) return 0.0;
    log_sum += std::log(v);
  }
  return std::exp(log_sum / static_cast<double>(values.size()));
}

} // namespace judge_stats
