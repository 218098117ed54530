// Element-wise comparison of a solution's output with a reference, within the spec's tolerance.
#pragma once

#include "problem_spec.hpp"
#include "verdict.hpp"

#include <cstdint>
#include <vector>

namespace judge {

/// |got − ref| ≤ atol + rtol·|ref|. NaN never passes; an infinity passes only against the same one.
bool within_tolerance(float got, double ref, const tolerance& tol);

/// Compares every element; `shape` (row-major extents) turns the first wrong index into coordinates.
/// Returns nullopt when every element passes.
std::optional<mismatch> compare_output(const std::string& buffer, const std::vector<float>& got,
                                       const std::vector<double>& ref, const std::vector<std::int64_t>& shape,
                                       const tolerance& tol);

/// The same, against a float reference (the baseline runner's output).
std::optional<mismatch> compare_output(const std::string& buffer, const std::vector<float>& got,
                                       const std::vector<float>& ref, const std::vector<std::int64_t>& shape,
                                       const tolerance& tol);

/// Row-major coordinates of flat `index` in `shape`.
std::vector<std::int64_t> unflatten(std::int64_t index, const std::vector<std::int64_t>& shape);

} // namespace judge
