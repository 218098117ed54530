// Small statistics over timing samples and speeds.
#pragma once

#include <vector>

namespace judge {

double median(std::vector<double> values);      ///< 0 for no values
double mean(const std::vector<double>& values); ///< 0 for no values
/// Sample standard deviation over the mean (0 for fewer than two values) [fraction].
double relative_stddev(const std::vector<double>& values);
/// Geometric mean of positive values; 0 if any value is not positive or there are none.
double geometric_mean(const std::vector<double>& values);

} // namespace judge
