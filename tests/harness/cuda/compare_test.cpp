// The comparison kernels alone on the GPU: how many elements fail and the first of them, the tolerance
// rule at its edge, NaN and infinities, int32 bits, and a large buffer's first failure however the
// blocks are scheduled.
#include "catch.hpp"

#include "harness/cuda/compare.cuh"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

using judge_harness::device_comparator;
using judge_harness::device_memory;
using judge_harness::mismatch_summary;

namespace {

/// `values` on the device.
device_memory on_device(const std::vector<float>& values) {
  device_memory memory(values.size() * sizeof(float));
  JUDGE_CUDA_CHECK(cudaMemcpy(memory.data(), values.data(), memory.bytes(), cudaMemcpyHostToDevice));
  return memory;
}

mismatch_summary mismatches(const std::vector<float>& got, const std::vector<float>& ref, double atol = 1e-5,
                            double rtol = 1e-5, judge_data::element_type type = judge_data::element_type::float32) {
  device_comparator comparator;
  const device_memory g = on_device(got), r = on_device(ref);
  return comparator.count_mismatches(g.as<float>(), r.as<float>(), got.size(), atol, rtol, type);
}

float with_bits(std::uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

} // namespace

TEST_CASE("equal outputs have no mismatch", "[gpu][compare]") {
  const std::vector<float> ref(4096, 0.5f);
  const mismatch_summary m = mismatches(ref, ref);
  CHECK(m.count == 0);
  CHECK(m.first_index == -1);
}

TEST_CASE("the comparison counts every wrong element and finds the first", "[gpu][compare]") {
  std::vector<float> ref(4096);
  for (std::size_t i = 0; i < ref.size(); ++i) ref[i] = static_cast<float>(i) * 0.25f;
  std::vector<float> got = ref;
  for (std::size_t i : {4095u, 7u, 100u}) got[i] += 1.0f;
  const mismatch_summary m = mismatches(got, ref);
  CHECK(m.count == 3);
  CHECK(m.first_index == 7);
}

TEST_CASE("an element passes within atol + rtol * |ref| and fails just outside", "[gpu][compare]") {
  // |got - ref| <= 1e-3 + 1e-2 * 2 = 0.021
  CHECK(mismatches({2.0f + 0.0205f}, {2.0f}, 1e-3, 1e-2).count == 0);
  CHECK(mismatches({2.0f - 0.0205f}, {2.0f}, 1e-3, 1e-2).count == 0);
  CHECK(mismatches({2.0f + 0.0215f}, {2.0f}, 1e-3, 1e-2).count == 1);
  CHECK(mismatches({-2.0f - 0.0215f}, {-2.0f}, 1e-3, 1e-2).count == 1);
}

TEST_CASE("NaN never passes, and an infinity passes only against the same infinity", "[gpu][compare]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(mismatches({nan}, {1.0f}, 1e30, 1e30).count == 1);
  CHECK(mismatches({nan}, {nan}, 1e30, 1e30).count == 1);
  CHECK(mismatches({1.0f}, {nan}, 1e30, 1e30).count == 1);
  CHECK(mismatches({inf}, {inf}).count == 0);
  CHECK(mismatches({-inf}, {-inf}).count == 0);
  CHECK(mismatches({inf}, {-inf}, 1e30, 1e30).count == 1);
  CHECK(mismatches({inf}, {3.0e38f}, 1e30, 1e30).count == 1);
}

TEST_CASE("int32 elements are equal or wrong, whatever the tolerance", "[gpu][compare]") {
  const auto int32 = judge_data::element_type::int32;
  CHECK(mismatches({with_bits(41), with_bits(7)}, {with_bits(41), with_bits(7)}, 1e9, 1e9, int32).count == 0);
  const mismatch_summary m = mismatches({with_bits(41), with_bits(8)}, {with_bits(41), with_bits(7)}, 1e9, 1e9, int32);
  CHECK(m.count == 1);
  CHECK(m.first_index == 1);
}

TEST_CASE("in a buffer of 16M elements the first of a few wrong ones near its end is found", "[gpu][compare]") {
  const std::size_t count = std::size_t{1} << 24;
  std::vector<float> ref(count, 1.0f), got(count, 1.0f);
  for (std::size_t i : {count - 1, count - 1000, count - 100000}) got[i] = 2.0f;
  const mismatch_summary m = mismatches(got, ref);
  CHECK(m.count == 3);
  CHECK(m.first_index == static_cast<std::int64_t>(count - 100000));
}

TEST_CASE("differences are by bits: -0 differs from +0, and a NaN does not differ from itself", "[gpu][compare]") {
  device_comparator comparator;
  const float nan = with_bits(0x7FC0DEADu);
  const device_memory a = on_device({0.0f, 1.0f, nan, 5.0f}), b = on_device({-0.0f, 1.0f, nan, 5.5f});
  const mismatch_summary m = comparator.count_differences(a.as<float>(), b.as<float>(), 4);
  CHECK(m.count == 2);
  CHECK(m.first_index == 0);
}
