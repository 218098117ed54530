#include "common/datagen.h"

#include "catch.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

using judge_data::distribution;
using judge_data::distribution_kind;
using judge_data::generate;

namespace {

constexpr std::uint64_t count = 100000;

std::vector<float> generate_all(const distribution& d, std::uint64_t seed, std::uint32_t stream,
                                std::uint64_t n = count) {
  std::vector<float> values(n);
  for (std::uint64_t i = 0; i < n; ++i) values[i] = generate(d, seed, stream, i, n);
  return values;
}

std::uint32_t bits_of(float x) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

} // namespace

TEST_CASE("mix64 is the SplitMix64 finaliser", "[datagen]") {
  // The first two outputs of SplitMix64 seeded with 0, as published with the generator.
  CHECK(judge_data::mix64(0) == 0xE220A8397B1DCDAFull);
  CHECK(judge_data::mix64(0x9E3779B97F4A7C15ull) == 0x6E789E6AA1B965F4ull);
}

TEST_CASE("unit24 maps random bits onto multiples of 2^-24 from 0 up to but excluding 1", "[datagen]") {
  CHECK(judge_data::unit24(0) == 0.0);
  CHECK(judge_data::unit24(~std::uint64_t{0}) == 1.0 - std::ldexp(1.0, -24));
  CHECK(judge_data::unit24(std::uint64_t{1} << 63) == 0.5);
  // Only the top 24 bits count.
  CHECK(judge_data::unit24((std::uint64_t{1} << 40) - 1) == 0.0);
}

TEST_CASE("the same seed, stream and index always give the same bits", "[datagen]") {
  const distribution d =
      GENERATE(distribution{distribution_kind::uniform, -1.0, 1.0}, distribution{distribution_kind::normal, 0.0, 1.0},
               distribution{distribution_kind::constant, 0.25, 0.0}, distribution{distribution_kind::cancel, 0.5, 2.0});
  CAPTURE(static_cast<int>(d.kind));
  const auto first = generate_all(d, 1234, 2, 1000);
  const auto again = generate_all(d, 1234, 2, 1000);
  for (std::size_t i = 0; i < first.size(); ++i) REQUIRE(bits_of(first[i]) == bits_of(again[i]));
  // Counter based: element 999 alone is the element 999 of the whole run.
  CHECK(bits_of(generate(d, 1234, 2, 999)) == bits_of(first[999]));
}

TEST_CASE("uniform values stay between low and high and cover the range", "[datagen]") {
  struct row {
    double low, high;
  };
  const row r = GENERATE(row{-1.0, 1.0}, row{0.0, 1.0}, row{-1000.0, 1000.0}, row{2.0, 3.0}, row{1e-3, 2e-3});
  CAPTURE(r.low, r.high);
  const auto values = generate_all({distribution_kind::uniform, r.low, r.high}, 77, 0);
  const auto [lowest, highest] = std::minmax_element(values.begin(), values.end());
  // Rounding to float may land on `high` itself, so the upper bound is closed.
  CHECK(*lowest >= static_cast<float>(r.low));
  CHECK(*highest <= static_cast<float>(r.high));
  const double width = r.high - r.low;
  CHECK(*lowest < r.low + 0.001 * width);
  CHECK(*highest > r.high - 0.001 * width);
}

TEST_CASE("uniform values from -1 below 1 never reach 1", "[datagen]") {
  const auto values = generate_all({distribution_kind::uniform, -1.0, 1.0}, 5, 0);
  CHECK(*std::max_element(values.begin(), values.end()) < 1.0f);
}

TEST_CASE("uniform values are almost never whole numbers", "[datagen]") {
  // Whole numbers would hide indexing mistakes that only a fraction reveals (e.g. a sum of ones).
  struct row {
    double low, high;
  };
  const row r = GENERATE(row{-1.0, 1.0}, row{-1000.0, 1000.0}, row{0.0, 100.0});
  CAPTURE(r.low, r.high);
  const auto values = generate_all({distribution_kind::uniform, r.low, r.high}, 11, 1);
  const auto whole = std::count_if(values.begin(), values.end(), [](float x) { return x == std::trunc(x); });
  CAPTURE(whole);
  CHECK(whole <= static_cast<long>(count / 1000));
}

TEST_CASE("normal values have about the mean and standard deviation asked for", "[datagen]") {
  struct row {
    double mean, stddev;
  };
  const row r = GENERATE(row{0.0, 1.0}, row{5.0, 0.25}, row{-3.0, 10.0});
  CAPTURE(r.mean, r.stddev);
  const auto values = generate_all({distribution_kind::normal, r.mean, r.stddev}, 99, 3);
  double sum = 0, sum_squares = 0, farthest = 0;
  for (float x : values) {
    sum += x;
    sum_squares += (x - r.mean) * (x - r.mean);
    farthest = std::max(farthest, std::fabs(x - r.mean));
  }
  const double mean = sum / count;
  const double stddev = std::sqrt(sum_squares / count);
  CAPTURE(mean, stddev);
  // The standard error of the mean over 100k values is stddev/316; these bounds are several of them.
  CHECK(std::fabs(mean - r.mean) < 0.02 * r.stddev);
  CHECK(std::fabs(stddev - r.stddev) < 0.02 * r.stddev);
  // A sum of 12 uniforms never strays more than 6 standard deviations.
  CHECK(farthest <= 6.0 * r.stddev * (1 + 1e-6));
}

TEST_CASE("constant values all equal the constant", "[datagen]") {
  const double value = GENERATE(0.0, -2.5, 1e-3);
  const auto values = generate_all({distribution_kind::constant, value, 0.0}, 3, 0, 1000);
  CHECK(std::all_of(values.begin(), values.end(), [&](float x) { return x == static_cast<float>(value); }));
}

TEST_CASE("cancel values come in pairs that sum to exactly zero", "[datagen]") {
  const double low = 0.5, high = 2.0;
  const auto values = generate_all({distribution_kind::cancel, low, high}, 21, 0);
  for (std::uint64_t i = 0; i + 1 < count; i += 2) {
    CAPTURE(i);
    REQUIRE(values[i] + values[i + 1] == 0.0f);
    REQUIRE(values[i] > 0.0f);
    REQUIRE(values[i] >= static_cast<float>(low));
    REQUIRE(values[i] <= static_cast<float>(high));
  }
  // The magnitudes vary from pair to pair.
  std::set<float> magnitudes(values.begin(), values.end());
  CHECK(magnitudes.size() > count / 2);
}

TEST_CASE("different seeds and different streams give different values", "[datagen]") {
  const distribution d =
      GENERATE(distribution{distribution_kind::uniform, -1.0, 1.0}, distribution{distribution_kind::normal, 0.0, 1.0},
               distribution{distribution_kind::cancel, 0.5, 2.0});
  CAPTURE(static_cast<int>(d.kind));
  // Seeds as the runner receives them: derived from a case seed (see the known weakness below).
  const std::uint64_t seed = judge_data::derive_seed(7, judge_data::seed_for_check, 0);
  const std::uint64_t next_seed = judge_data::derive_seed(7, judge_data::seed_for_check, 1);
  const std::uint64_t n = 10000;
  const auto base = generate_all(d, seed, 0, n);
  const auto other_seed = generate_all(d, next_seed, 0, n);
  const auto other_stream = generate_all(d, seed, 1, n);
  long same_as_seed = 0, same_as_stream = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    same_as_seed += base[i] == other_seed[i];
    same_as_stream += base[i] == other_stream[i];
  }
  CAPTURE(same_as_seed, same_as_stream);
  // Values are drawn from about 2^24 possibilities, so a handful of coincidences is the most to expect.
  CHECK(same_as_seed < 10);
  CHECK(same_as_stream < 10);
}

TEST_CASE("derived seeds differ for every purpose and index", "[datagen]") {
  std::set<std::uint64_t> seeds;
  for (std::uint64_t purpose : {std::uint64_t{judge_data::seed_for_check}, std::uint64_t{2}, std::uint64_t{3}})
    for (std::uint64_t index = 0; index < 1000; ++index) seeds.insert(judge_data::derive_seed(42, purpose, index));
  CHECK(seeds.size() == 3000);
  CHECK(judge_data::derive_seed(42, judge_data::seed_for_check, 0) !=
        judge_data::derive_seed(43, judge_data::seed_for_check, 0));
  CHECK(judge_data::derive_seed(42, judge_data::seed_for_check, 0) ==
        judge_data::derive_seed(42, judge_data::seed_for_check, 0));
}

// Seeds that differ only in their lowest bits once drew the same numbers in another order for normal
// values; the seed is now mixed before the draw number joins it.
TEST_CASE("normal values differ between seeds that differ only in their lowest bits", "[datagen]") {
  const distribution normal{distribution_kind::normal, 0.0, 1.0};
  const std::uint64_t xor_bits = GENERATE(1u, 2u, 3u);
  CAPTURE(xor_bits);
  long same = 0;
  for (std::uint64_t i = 0; i < 1000; ++i)
    same += generate(normal, 1000, 0, i) == generate(normal, 1000 ^ xor_bits, 0, i);
  CHECK(same < 10);
}

TEST_CASE("uniform integers cover both ends of their range and nothing outside it", "[datagen]") {
  const judge_data::distribution d{judge_data::distribution_kind::uniform_int, -3, 4};
  int seen[8] = {};
  for (std::uint64_t i = 0; i < 20000; ++i) {
    const std::int32_t v = judge_data::generate_int(d, 77, 0, i);
    REQUIRE(v >= -3);
    REQUIRE(v <= 4);
    ++seen[v + 3];
    // The same draw as a float buffer gives the same whole number.
    REQUIRE(judge_data::generate(d, 77, 0, i) == static_cast<float>(v));
  }
  for (int count : seen) CHECK(count > 2000);
}

TEST_CASE("a ramp is sorted, reverse-sorted or constant as its step says", "[datagen]") {
  const judge_data::distribution up{judge_data::distribution_kind::ramp, -5, 2};
  const judge_data::distribution down{judge_data::distribution_kind::ramp, 100, -0.25};
  for (std::uint64_t i = 0; i < 100; ++i) {
    CHECK(judge_data::generate_int(up, 1, 0, i) == -5 + 2 * static_cast<std::int32_t>(i));
    CHECK(judge_data::generate(down, 1, 0, i) == static_cast<float>(100 - 0.25 * static_cast<double>(i)));
  }
}

TEST_CASE("an int32 element travels in a float container as its bits", "[datagen]") {
  for (const std::int32_t v : {0, 1, -1, INT32_MIN, INT32_MAX, 0x7FC0DEAD, 0x7F800001})
    CHECK(judge_data::int_of_word(judge_data::word_of_int(v)) == v);
  const judge_data::distribution d{judge_data::distribution_kind::uniform_int, 0, 1000};
  CHECK(judge_data::generate_word(d, judge_data::element_type::int32, 5, 1, 9, 100) ==
        static_cast<std::uint32_t>(judge_data::generate_int(d, 5, 1, 9)));
}

TEST_CASE("the largest magnitude of a distribution bounds every value it gives", "[datagen]") {
  using judge_data::distribution_kind;
  CHECK(judge_data::largest_magnitude({distribution_kind::uniform, -4, 2}, 10) == 4);
  CHECK(judge_data::largest_magnitude({distribution_kind::normal, 1, 0.5}, 10) == 4);
  CHECK(judge_data::largest_magnitude({distribution_kind::constant, -7, 0}, 10) == 7);
  CHECK(judge_data::largest_magnitude({distribution_kind::ramp, 3, -1}, 10) == 6);
  const judge_data::distribution normal{distribution_kind::normal, 0, 1};
  for (std::uint64_t i = 0; i < 10000; ++i)
    REQUIRE(std::fabs(judge_data::generate(normal, 3, 0, i)) <= judge_data::largest_magnitude(normal, 10000));
}

TEST_CASE("CSR row offsets start at 0, end at the total and never decrease, whatever the skew", "[datagen]") {
  for (const double skew : {0.0, 1.0, 6.0, 30.0}) {
    CAPTURE(skew);
    const judge_data::distribution d{judge_data::distribution_kind::offsets, 100000, skew};
    const std::uint64_t rows = 997;
    std::int32_t previous = -1;
    std::int32_t longest = 0;
    for (std::uint64_t i = 0; i <= rows; ++i) {
      const std::int32_t v = judge_data::generate_int(d, 11, 0, i, rows + 1);
      REQUIRE(v >= previous);
      if (previous >= 0) longest = std::max(longest, v - previous);
      previous = v;
      if (i == 0) CHECK(v == 0);
    }
    CHECK(previous == 100000);
    // Even rows stay near the average (about 100 here); a strong skew makes the last rows long.
    if (skew == 0.0) CHECK(longest < 250);
    if (skew == 30.0) CHECK(longest > 2000);
  }
  CHECK(judge_data::applies_to(judge_data::distribution_kind::offsets, judge_data::element_type::int32));
  CHECK_FALSE(judge_data::applies_to(judge_data::distribution_kind::offsets, judge_data::element_type::float32));
}

TEST_CASE("the permutation behind a sparse matrix's positions reaches every index once", "[datagen]") {
  const std::uint64_t n = GENERATE(1, 2, 3, 4, 5, 17, 1000, 4097, 65536);
  CAPTURE(n);
  std::vector<bool> seen(n, false);
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t p = judge_data::permuted_index(99, 3, i, n);
    REQUIRE(p < n);
    REQUIRE_FALSE(seen[p]);
    seen[p] = true;
  }
}

TEST_CASE("a sparse matrix stored dense has exactly its nonzeros, inside the magnitude", "[datagen]") {
  struct row {
    std::uint64_t count;
    double nonzeros;
  };
  const row r =
      GENERATE(row{1, 1}, row{100, 0}, row{100, 1}, row{1003 * 7, 2457}, row{10000, 3500}, row{257, 257}, row{64, 100});
  CAPTURE(r.count, r.nonzeros);
  const judge_data::distribution d{distribution_kind::sparse, r.nonzeros, 10.0};
  std::uint64_t nonzero = 0;
  for (std::uint64_t i = 0; i < r.count; ++i) {
    const float v = generate(d, 5, 0, i, r.count);
    REQUIRE(v >= -10.0f);
    REQUIRE(v <= 10.0f);
    nonzero += v != 0.0f;
  }
  CHECK(nonzero == std::min<std::uint64_t>(r.count, static_cast<std::uint64_t>(r.nonzeros)));
  CHECK(judge_data::largest_magnitude(d, r.count) == 10.0);
  CHECK_FALSE(judge_data::applies_to(distribution_kind::sparse, judge_data::element_type::int32));
}

TEST_CASE("a sparse matrix's nonzeros move with the seed and spread over its rows", "[datagen]") {
  const std::uint64_t rows = 100, cols = 1000, count = rows * cols;
  const judge_data::distribution d{distribution_kind::sparse, 35000, 10.0};
  std::vector<std::uint64_t> per_row(rows, 0);
  std::uint64_t moved = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    const bool here = generate(d, 1, 0, i, count) != 0.0f;
    per_row[i / cols] += here;
    moved += here != (generate(d, 2, 0, i, count) != 0.0f);
  }
  // 35% of each row, give or take: a row's count is hypergeometric, standard deviation about 15 here.
  for (const std::uint64_t n : per_row) CHECK((n > 250 && n < 450));
  CHECK(moved > 35000); // another seed, other positions (about 45,500 of the elements differ)
}

TEST_CASE("a spike sits at its index and every other element is background", "[datagen]") {
  struct row {
    double at;
    std::uint64_t expected_index;
  };
  const std::uint64_t n = 1000;
  const row r = GENERATE(row{0, 0}, row{17, 17}, row{judge_data::spike_at_last, n - 1}, row{5000, n - 1});
  CAPTURE(r.at);
  distribution d{distribution_kind::spike, -1.0, 1.0};
  d.more[0] = 100.0;
  d.more[1] = r.at;
  CHECK(judge_data::spike_index(d, 9, 0, n) == r.expected_index);
  for (std::uint64_t i = 0; i < n; ++i) {
    const float v = generate(d, 9, 0, i, n);
    if (i == r.expected_index) {
      REQUIRE(v == 100.0f);
    } else {
      REQUIRE(v >= -1.0f);
      REQUIRE(v < 1.0f);
    }
  }
  CHECK(judge_data::largest_magnitude(d, n) == 100.0);
}

TEST_CASE("a spike without an index lands at one index drawn from the seed", "[datagen]") {
  distribution d{distribution_kind::spike, 0.0, 0.0};
  d.more[0] = 7.0;
  d.more[1] = judge_data::spike_at_random;
  const std::uint64_t n = 1u << 20;
  std::set<std::uint64_t> places;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const std::uint64_t at = judge_data::spike_index(d, seed, 0, n);
    REQUIRE(at < n);
    places.insert(at);
    CHECK(generate(d, seed, 0, at, n) == 7.0f);
    CHECK(generate(d, seed, 0, (at + 1) % n, n) == 0.0f);
  }
  CHECK(places.size() > 15); // seeds move it
  // Whole background and spike: a float sum of them is exact.
  CHECK(judge_data::whole_values(d));
}

TEST_CASE("alternating values flip sign at every element with magnitudes inside the range", "[datagen]") {
  const distribution d{distribution_kind::alternating, 2.0, 3.0};
  const auto values = generate_all(d, 4, 0, 10000);
  for (std::size_t i = 0; i < values.size(); ++i) {
    CAPTURE(i);
    REQUIRE(((i % 2 == 0) ? values[i] > 0 : values[i] < 0));
    REQUIRE(std::fabs(values[i]) >= 2.0f);
    REQUIRE(std::fabs(values[i]) <= 3.0f);
  }
  CHECK(judge_data::largest_magnitude(d, 10000) == 3.0);
  CHECK_FALSE(judge_data::whole_values(d));
}

TEST_CASE("alternating values of one whole magnitude sum to 0 or m and are whole", "[datagen]") {
  const distribution d{distribution_kind::alternating, 5.0, 5.0};
  float sum = 0;
  for (std::uint64_t i = 0; i < 100001; ++i) {
    sum += generate(d, 1, 0, i);
    REQUIRE(sum == ((i % 2 == 0) ? 5.0f : 0.0f));
  }
  CHECK(judge_data::whole_values(d));
}

TEST_CASE("special values come in each class about as often as asked and never as NaN", "[datagen]") {
  distribution d{distribution_kind::special, -1000.0, 1000.0};
  d.more[0] = 0.1;  // zeros
  d.more[1] = 0.2;  // denormals
  d.more[2] = 0.1;  // large
  d.more[3] = 0.05; // infinities
  long negative_zero = 0, positive_zero = 0, denormal = 0, large = 0, infinite = 0, ordinary = 0;
  for (const float v : generate_all(d, 3, 0)) {
    REQUIRE_FALSE(std::isnan(v));
    if (v == 0.0f)
      (std::signbit(v) ? negative_zero : positive_zero) += 1;
    else if (std::fpclassify(v) == FP_SUBNORMAL)
      ++denormal;
    else if (std::isinf(v))
      ++infinite;
    else if (std::fabs(v) >= 6.3e29f)
      ++large;
    else if (std::fabs(v) <= 1000.0f)
      ++ordinary;
  }
  CAPTURE(negative_zero, positive_zero, denormal, large, infinite, ordinary);
  // 100,000 draws: each count is within a few standard deviations (at most about 160) of its share.
  CHECK(std::abs(negative_zero - 5000) < 600);
  CHECK(std::abs(positive_zero - 5000) < 600);
  CHECK(std::abs(denormal - 20000) < 800);
  CHECK(std::abs(large - 10000) < 600);
  CHECK(std::abs(infinite - 5000) < 600);
  CHECK(negative_zero + positive_zero + denormal + large + infinite + ordinary == static_cast<long>(count));
  CHECK(std::isinf(judge_data::largest_magnitude(d, count)));
  d.more[3] = 0;
  CHECK(judge_data::largest_magnitude(d, count) == 3.4028234663852886e38);
}

TEST_CASE("special values reach the largest float and the smallest denormal's neighbourhood", "[datagen]") {
  distribution d{distribution_kind::special, -1.0, 1.0};
  d.more[1] = 0.5;
  d.more[2] = 0.5;
  float largest = 0, smallest = 1;
  for (const float v : generate_all(d, 8, 2)) {
    REQUIRE(std::isfinite(v));
    REQUIRE(v != 0.0f);
    largest = std::max(largest, std::fabs(v));
    smallest = std::min(smallest, std::fabs(v));
  }
  CHECK(largest > 3.0e38f);
  CHECK(smallest < 1.0e-42f);
}

TEST_CASE("the new kinds give the same bits for the same seed and element, as the GPU must", "[datagen]") {
  distribution spike{distribution_kind::spike, -5.0, 5.0};
  spike.more[0] = 50.0;
  spike.more[1] = judge_data::spike_at_random;
  distribution special{distribution_kind::special, -1.0, 1.0};
  special.more[0] = special.more[1] = special.more[2] = 0.1;
  const distribution d = GENERATE_COPY(spike, distribution{distribution_kind::alternating, 0.5, 2.0}, special);
  CAPTURE(static_cast<int>(d.kind));
  for (std::uint64_t i = 0; i < 1000; ++i)
    REQUIRE(bits_of(generate(d, 77, 1, i, 1000)) == bits_of(generate(d, 77, 1, i, 1000)));
  // Counter based: element 999 alone is element 999 of the whole buffer.
  const auto all = generate_all(d, 77, 1, 1000);
  CHECK(bits_of(generate(d, 77, 1, 999, 1000)) == bits_of(all[999]));
  CHECK_FALSE(judge_data::applies_to(d.kind, judge_data::element_type::int32));
}

TEST_CASE("a ramp of whole numbers on a float buffer sums exactly below 2^24", "[datagen]") {
  const distribution d{distribution_kind::ramp, -3.0, 2.0};
  CHECK(judge_data::whole_values(d));
  CHECK_FALSE(judge_data::whole_values(distribution{distribution_kind::ramp, 0.0, 0.5}));
  float sum = 0;
  std::int64_t exact = 0;
  for (std::uint64_t i = 0; i < 4000; ++i) {
    const float v = generate(d, 1, 0, i);
    REQUIRE(v == std::trunc(v));
    sum += v;
    exact += -3 + 2 * static_cast<std::int64_t>(i);
  }
  // 15,984,000: below 2^24, so every partial sum is exact in float.
  CHECK(exact < (std::int64_t{1} << 24));
  CHECK(static_cast<std::int64_t>(sum) == exact);
}

TEST_CASE("whole values are known for the integer kinds and refused for the fractional ones", "[datagen]") {
  using judge_data::whole_values;
  CHECK(whole_values({distribution_kind::uniform_int, -8, 8}));
  CHECK(whole_values({distribution_kind::constant, 3, 0}));
  CHECK_FALSE(whole_values({distribution_kind::constant, 0.5, 0}));
  CHECK_FALSE(whole_values({distribution_kind::uniform, -1, 1}));
  CHECK_FALSE(whole_values({distribution_kind::normal, 0, 1}));
  CHECK_FALSE(whole_values({distribution_kind::cancel, 1, 2}));
  CHECK_FALSE(whole_values({distribution_kind::special, -1, 1}));
  distribution spike{distribution_kind::spike, 1, 1};
  spike.more[0] = 2.5;
  CHECK_FALSE(whole_values(spike));
}
