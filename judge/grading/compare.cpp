#include "judge/grading/compare.hpp"

#include "judge/base/element_chunks.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace judge {

bool within_tolerance(float got, double ref, const tolerance& tol) {
  if (std::isnan(got) || std::isnan(ref)) return false;
  // Float against float: the CPU reference is a double, and the solution's float can only be its rounding.
  if (tol.exact) return got == static_cast<float>(ref);
  if (std::isinf(got) || std::isinf(ref)) return static_cast<double>(got) == ref;
  return std::fabs(static_cast<double>(got) - ref) <= tol.atol + tol.rtol * std::fabs(ref);
}

bool within_published(float got, double ref, const published_tolerance& tol) {
  if (std::isnan(got) || std::isnan(ref)) return false;
  if (std::isinf(got) || std::isinf(ref)) return static_cast<double>(got) == ref;
  return std::fabs(ref - static_cast<double>(got)) <= tol.atol + tol.rtol * std::fabs(static_cast<double>(got));
}

std::vector<std::int64_t> unflatten(std::int64_t index, const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> coords(shape.size(), 0);
  for (std::size_t d = shape.size(); d-- > 0;) {
    const std::int64_t extent = shape[d] > 0 ? shape[d] : 1;
    coords[d] = index % extent;
    index /= extent;
  }
  return coords;
}

bool element_passes(judge_data::element_type type, float got, double ref, const tolerance& tol) {
  if (type == judge_data::element_type::int32) return static_cast<double>(judge_data::int_of_word(got)) == ref;
  return within_tolerance(got, ref, tol);
}

namespace {

/// A reference element as a double: a float reference of an int32 buffer holds bits, too.
double reference_value(double ref, judge_data::element_type) { return ref; }
double reference_value(float ref, judge_data::element_type type) {
  return type == judge_data::element_type::int32 ? static_cast<double>(judge_data::int_of_word(ref))
                                                 : static_cast<double>(ref);
}

/// What a mismatch shows as the solution's value: the float, or the int (as near as a float holds it).
float shown_value(float got, judge_data::element_type type) {
  return type == judge_data::element_type::int32 ? static_cast<float>(judge_data::int_of_word(got)) : got;
}

/// The judge's bound at an element whose reference is `expected`.
double allowed_at(double expected, const tolerance& tol, judge_data::element_type type) {
  if (tol.exact || type == judge_data::element_type::int32) return 0;
  return tol.atol + tol.rtol * std::fabs(expected);
}

/// What one chunk of the elements showed: its wrong elements (the first of them with its values) and
/// those outside the published tolerance.
struct chunk_count {
  std::int64_t wrong = 0;
  std::int64_t first_index = 0;
  double expected = 0;
  float got = 0;
  std::int64_t outside_published = 0;
};

/// How many of elements [begin, end) do not pass a test that never passes one the full rule fails: an
/// exact or int32 element equal to its reference, a float one finite, with a finite bound, and clear of
/// that bound by more than the last bits in which two roundings of it could differ. It keeps no index, so
/// the compiler can run it on vectors; an element it does not pass (a wrong one, a NaN, an infinity, one
/// on the bound) is left to the full rule, which decides.
template <class Ref>
std::size_t plain_failures(output_values got, const std::vector<Ref>& ref, std::size_t begin, std::size_t end,
                           const tolerance& tol, judge_data::element_type type) {
  std::size_t failing = 0;
  if (type == judge_data::element_type::int32) {
    for (std::size_t i = begin; i < end; ++i)
      failing += static_cast<double>(judge_data::int_of_word(got[i])) != reference_value(ref[i], type);
  } else if (tol.exact) {
    for (std::size_t i = begin; i < end; ++i)
      failing += got[i] != static_cast<float>(reference_value(ref[i], type)); // a NaN is never equal
  } else {
    constexpr double clear = 1.0 - 0x1p-40;
    for (std::size_t i = begin; i < end; ++i) {
      const double expected = reference_value(ref[i], type);
      const double bound = tol.atol + tol.rtol * std::fabs(expected);
      // false for a NaN on either side, and for an infinity (its difference or its bound is infinite)
      failing += !(std::fabs(static_cast<double>(got[i]) - expected) <= bound * clear && bound <= DBL_MAX);
    }
  }
  return failing;
}

/// Whether elements [begin, end) all pass plain_failures' test, looked at a block at a time so that a
/// wrong output goes to the full rule after the block of its first wrong element.
template <class Ref>
bool all_pass_plainly(output_values got, const std::vector<Ref>& ref, std::size_t begin, std::size_t end,
                      const tolerance& tol, judge_data::element_type type) {
  constexpr std::size_t block = std::size_t{1} << 14;
  for (std::size_t from = begin; from < end; from += block)
    if (plain_failures(got, ref, from, std::min(end, from + block), tol, type) != 0) return false;
  return true;
}

template <class Ref>
std::optional<mismatch> compare_any(const std::string& buffer, output_values got, const std::vector<Ref>& ref,
                                    const std::vector<std::int64_t>& shape, const tolerance& tol,
                                    judge_data::element_type type, const std::optional<published_tolerance>& leetgpu) {
  mismatch m;
  m.buffer = buffer;
  m.total = static_cast<std::int64_t>(ref.size());
  m.exact = tol.exact && type == judge_data::element_type::float32;
  // Only where it can say something: a float buffer (an int buffer is exact for every judge).
  const bool published = leetgpu && type == judge_data::element_type::float32;
  // A short output counts every missing element as wrong: nothing is assumed about what is absent.
  const std::size_t n = std::min(got.size(), ref.size());
  const auto chunks = element_chunks(n);
  std::vector<chunk_count> counts(chunks.size());
  const auto count = [&](std::size_t begin, std::size_t end, chunk_count& c) {
    for (std::size_t i = begin; i < end; ++i) {
      const double expected = reference_value(ref[i], type);
      if (published && !within_published(got[i], expected, *leetgpu)) ++c.outside_published;
      if (element_passes(type, got[i], expected, tol)) continue;
      if (c.wrong++ == 0) {
        c.first_index = static_cast<std::int64_t>(i);
        c.expected = expected;
        c.got = shown_value(got[i], type);
      }
    }
  };
  // A right chunk, the common case, is known right from one plain pass; the full rule counts and places
  // what is wrong in the others.
  const bool whole = got.size() >= ref.size();
  std::vector<char> counted(chunks.size(), 0);
  for_element_chunks(chunks, [&](std::size_t begin, std::size_t end, std::size_t k) {
    if (whole && all_pass_plainly(got, ref, begin, end, tol, type)) return; // nothing wrong to count
    counted[k] = 1;
    count(begin, end, counts[k]);
  });
  const bool any_wrong =
      !whole || std::any_of(counts.begin(), counts.end(), [](const chunk_count& c) { return c.wrong > 0; });
  if (!any_wrong) return std::nullopt;
  // A wrong output also says how many elements lie outside LeetGPU's tolerance, right chunks included.
  if (published)
    for_element_chunks(chunks, [&](std::size_t begin, std::size_t end, std::size_t k) {
      if (!counted[k]) count(begin, end, counts[k]);
    });
  std::int64_t outside_published = 0;
  for (const chunk_count& c : counts) { // in order: the first chunk with a wrong element has the first one
    outside_published += c.outside_published;
    if (c.wrong == 0) continue;
    if (m.count == 0) {
      m.first_index = c.first_index;
      m.expected = c.expected;
      m.got = c.got;
    }
    m.count += c.wrong;
  }
  if (got.size() < ref.size()) {
    if (m.count == 0) {
      m.first_index = static_cast<std::int64_t>(n);
      m.expected = reference_value(ref[n], type);
      m.got = std::nanf("");
    }
    m.count += static_cast<std::int64_t>(ref.size() - n);
    outside_published += static_cast<std::int64_t>(ref.size() - n);
  }
  if (m.count == 0) return std::nullopt;
  m.first_coords = unflatten(m.first_index, shape);
  m.allowed = allowed_at(m.expected, tol, type);
  if (published) m.leetgpu = published_check{leetgpu->atol, leetgpu->rtol, outside_published};
  return m;
}
} // namespace

std::optional<mismatch> compare_output(const std::string& buffer, output_values got, const std::vector<double>& ref,
                                       const std::vector<std::int64_t>& shape, const tolerance& tol,
                                       judge_data::element_type type,
                                       const std::optional<published_tolerance>& leetgpu) {
  return compare_any(buffer, got, ref, shape, tol, type, leetgpu);
}

std::optional<mismatch> compare_output(const std::string& buffer, output_values got, const std::vector<float>& ref,
                                       const std::vector<std::int64_t>& shape, const tolerance& tol,
                                       judge_data::element_type type) {
  return compare_any(buffer, got, ref, shape, tol, type, std::nullopt);
}

} // namespace judge
