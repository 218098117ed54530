// Element-wise comparison of a solution's output with a reference, within the spec's tolerance.
#pragma once

#include "judge/problem/problem.hpp"
#include "judge/grading/verdict.hpp"

#include <cstdint>
#include <vector>

namespace judge {

/// A solution's output as the comparison reads it: a vector of the judge's, or an output window's
/// memory (judge/run/output_window.hpp), which stays put while it is read.
struct output_values {
  output_values(const std::vector<float>& values) : data(values.data()), count(values.size()) {}
  output_values(const float* values, std::size_t n) : data(values), count(n) {}
  const float& operator[](std::size_t i) const { return data[i]; }
  std::size_t size() const { return count; }

  const float* data;
  std::size_t count;
};

/// |got − ref| ≤ atol + rtol·|ref|. NaN never passes; an infinity passes only against the same one.
/// With tol.exact: got equals ref rounded to float (−0.0 equals 0.0), and NaN never passes.
bool within_tolerance(float got, double ref, const tolerance& tol);

/// LeetGPU's rule (torch.allclose(ref, got)): |ref − got| ≤ atol + rtol·|got|, relative to the output.
/// NaN never passes; an infinity passes only against the same one.
bool within_published(float got, double ref, const published_tolerance& tol);

/// Whether 32-bit element `got` of a buffer of `type` passes against `ref`: within tolerance for
/// float32; for int32 (`got` holds the int's bits, judge_data::word_of_int) exactly equal.
bool element_passes(judge_data::element_type type, float got, double ref, const tolerance& tol);

/// Compares every element; `shape` (row-major extents) turns the first wrong index into coordinates.
/// Returns nullopt when every element passes. An int32 buffer's mismatch carries the int as `got`. With
/// `leetgpu` (a float buffer), a mismatch also counts the elements outside that tolerance.
std::optional<mismatch> compare_output(const std::string& buffer, output_values got, const std::vector<double>& ref,
                                       const std::vector<std::int64_t>& shape, const tolerance& tol,
                                       judge_data::element_type type = judge_data::element_type::float32,
                                       const std::optional<published_tolerance>& leetgpu = std::nullopt);

/// The same, against a reference of 32-bit elements of the same type (the baseline runner's output).
std::optional<mismatch> compare_output(const std::string& buffer, output_values got, const std::vector<float>& ref,
                                       const std::vector<std::int64_t>& shape, const tolerance& tol,
                                       judge_data::element_type type = judge_data::element_type::float32);

/// Row-major coordinates of flat `index` in `shape`.
std::vector<std::int64_t> unflatten(std::int64_t index, const std::vector<std::int64_t>& shape);

} // namespace judge
