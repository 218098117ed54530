// Deterministic input generation shared by the judge (host C++) and the runner (CUDA).
//
// The judge regenerates on the CPU exactly the values the runner generated on the GPU, so the
// reference never has to travel through the learner's process. Every operation below is either
// integer arithmetic or a single correctly rounded IEEE operation (std::fma / __fma_rn), so the
// CPU and the GPU produce bit-identical floats.
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define JUDGE_HD __host__ __device__
#else
#define JUDGE_HD
#endif
#include <cmath>

namespace judge_data {

/// Kinds of value distribution an instructor can name in a case (docs/instructors.md).
enum class distribution_kind : int {
  uniform = 0,     ///< uniform in [a, b)
  normal = 1,      ///< mean a, standard deviation b (Irwin-Hall sum of 12 uniforms)
  constant = 2,    ///< every value equals a
  cancel = 3,      ///< pairs (x, -x) with |x| uniform in [a, b): sums that cancel
  uniform_int = 4, ///< integers uniform in [a, b], both included (a and b whole numbers)
  ramp = 5,        ///< element i is a + b·i: sorted (b > 0), reverse-sorted (b < 0) or constant (b = 0)
  /// The row offsets of a sparse matrix (CSR): count = rows + 1 non-decreasing ints from 0 to a (the
  /// number of nonzeros); b (a whole number >= 0) skews the rows: 0 gives lengths around a / rows, larger
  /// values leave the first rows short or empty and make the last ones long.
  offsets = 6,
  /// A sparse matrix stored dense: exactly a (a whole number) of the buffer's elements, at positions
  /// chosen at random, are nonzero, each uniform in [−b, b) (a drawn 0 becomes b); the others are 0.
  sparse = 7,
  /// Uniform in [a, b) (a = b: every value is a), except one element, which is more[0]: the one at index
  /// more[1] (a whole number; past the end: the last), or the last (spike_at_last), or one at a seeded
  /// random index (spike_at_random). A maximum far from the early values; an element whose loss shows.
  spike = 8,
  /// Element i is +m for even i and −m for odd i, m uniform in [a, b) with 0 <= a <= b (a = b: every m
  /// is a): sums where every element counts.
  alternating = 9,
  /// Uniform in [a, b), except that each element is, with probability more[0], a zero of either sign
  /// (−0.0 or +0.0); more[1], a denormal of either sign; more[2], a large value of either sign (2^99,
  /// about 6.3e29, up to the largest float, 3.4e38); more[3], an infinity of either sign. Never a NaN.
  special = 10,
};

/// What one element of a buffer is. Every element is 32 bits wide, on the device, in files and in the
/// judge's containers, which hold an int32 buffer's elements as their bits (word_of_int / int_of_word).
enum class element_type : int { float32 = 0, int32 = 1 };

struct distribution {
  distribution_kind kind = distribution_kind::uniform;
  double a = -1.0;
  double b = 1.0;
  /// The parameters past the first two, for the kinds that have more (spike, special); 0 for the others.
  double more[4] = {0.0, 0.0, 0.0, 0.0};
};

/// A spike's index (distribution::more[1]) that means the buffer's last element.
constexpr double spike_at_last = -1.0;
/// A spike's index that means an index drawn from the seed, the same for every element of the buffer.
constexpr double spike_at_random = -2.0;

/// SplitMix64 finaliser: a bijective 64-bit mixer.
JUDGE_HD inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// The random bits of element `index` of buffer `stream` under `seed` (counter based, no state).
JUDGE_HD inline std::uint64_t element_bits(std::uint64_t seed, std::uint32_t stream, std::uint64_t index,
                                           std::uint32_t draw = 0) {
  // The seed is mixed before the stream and draw numbers join it, so seeds that differ in a few low bits
  // still give unrelated values.
  return mix64(mix64(mix64(seed) ^ (static_cast<std::uint64_t>(stream) << 32 | draw)) + index);
}

JUDGE_HD inline double fused(double x, double y, double z) {
#if defined(__CUDA_ARCH__)
  return __fma_rn(x, y, z);
#else
  return std::fma(x, y, z);
#endif
}

/// A uniform double in [0, 1) with 24 random bits: exact in both float and double.
JUDGE_HD inline double unit24(std::uint64_t bits) { return static_cast<double>(bits >> 40) * (1.0 / 16777216.0); }

/// Integer `index` of [0, range) from 64 random bits: a 64×64→128-bit multiply keeps the top word, so
/// every value is equally likely to within 2^-32 and CPU and GPU agree (integer arithmetic only).
JUDGE_HD inline std::uint64_t below(std::uint64_t bits, std::uint64_t range) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(bits, range);
#else
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(bits) * range) >> 64);
#endif
}

/// A uniform integer in [a, b] (whole numbers with a <= b, checked by whoever reads the distribution).
JUDGE_HD inline std::int64_t uniform_integer(const distribution& d, std::uint64_t bits) {
  const auto low = static_cast<std::int64_t>(d.a);
  const auto high = static_cast<std::int64_t>(d.b);
  return low + static_cast<std::int64_t>(below(bits, static_cast<std::uint64_t>(high - low) + 1));
}

/// Position of element `index` in a random permutation of [0, count) (count >= 1) keyed by `seed` and
/// `stream`: a 4-round Feistel network on the smallest domain of 2^(2h) >= count elements, walked along
/// its cycles until it lands inside [0, count) (at most 4 steps on average, the domain being below
/// 4·count), which keeps it a bijection. Integer arithmetic only, so CPU and GPU agree.
JUDGE_HD inline std::uint64_t permuted_index(std::uint64_t seed, std::uint32_t stream, std::uint64_t index,
                                             std::uint64_t count) {
  unsigned half = 1;
  while (half < 32 && (std::uint64_t{1} << (2 * half)) < count) ++half;
  const std::uint64_t mask = (std::uint64_t{1} << half) - 1;
  const std::uint64_t key = element_bits(seed, stream, 0, 0x5A000000u); // a draw no other kind uses
  std::uint64_t x = index;
  do {
    std::uint64_t left = x >> half, right = x & mask;
    for (std::uint64_t round = 0; round < 4; ++round) {
      // right < 2^32, so (right, round) is unique in the word mixed.
      const std::uint64_t mixed = left ^ (mix64(key ^ (right << 2 | round)) & mask);
      left = right;
      right = mixed;
    }
    x = left << half | right;
  } while (x >= count);
  return x;
}

/// The float whose bits are `bits`.
JUDGE_HD inline float float_of_bits(std::uint32_t bits) {
  float value;
  memcpy(&value, &bits, sizeof value);
  return value;
}

/// The index of the spike (distribution_kind::spike) among `count` >= 1 elements.
JUDGE_HD inline std::uint64_t spike_index(const distribution& d, std::uint64_t seed, std::uint32_t stream,
                                          std::uint64_t count) {
  if (d.more[1] == spike_at_random) return below(element_bits(seed, stream, 0, 0x5B000000u), count); // its own draw
  if (d.more[1] < 0 || d.more[1] >= static_cast<double>(count)) return count - 1;
  return static_cast<std::uint64_t>(d.more[1]);
}

/// A probability as a share of 2^24 (the exact product, truncated): special_element's thresholds are
/// integers, so the CPU and the GPU pick the same class for every element.
JUDGE_HD inline std::uint64_t share_of_2_24(double probability) {
  return static_cast<std::uint64_t>(probability * 16777216.0);
}

/// Element `index` of distribution_kind::special. One draw's top 24 bits pick the class against the
/// integer thresholds, its next bit the sign; a second draw gives the special value's magnitude bits.
JUDGE_HD inline float special_element(const distribution& d, std::uint64_t seed, std::uint32_t stream,
                                      std::uint64_t index) {
  const std::uint64_t choice = element_bits(seed, stream, index, 1);
  const std::uint64_t pick = choice >> 40;
  const std::uint32_t sign = static_cast<std::uint32_t>((choice >> 39) & 1u) << 31;
  const std::uint64_t magnitude = element_bits(seed, stream, index, 2);
  std::uint64_t threshold = share_of_2_24(d.more[0]);
  if (pick < threshold) return float_of_bits(sign); // −0.0 or +0.0
  threshold += share_of_2_24(d.more[1]);
  if (pick < threshold) // a denormal: exponent field 0, mantissa 1 to 2^23 − 1 (1.4e-45 to 1.2e-38)
    return float_of_bits(sign | static_cast<std::uint32_t>(1 + below(magnitude, 0x7FFFFFu)));
  threshold += share_of_2_24(d.more[2]);
  if (pick < threshold) { // exponent fields 226 (2^99) to 254 (the largest finite), any mantissa
    const auto exponent = static_cast<std::uint32_t>(226 + below(magnitude, 29));
    return float_of_bits(sign | exponent << 23 | static_cast<std::uint32_t>(magnitude & 0x7FFFFFu));
  }
  threshold += share_of_2_24(d.more[3]);
  if (pick < threshold) return float_of_bits(sign | 0x7F800000u); // ±infinity
  return static_cast<float>(fused(d.b - d.a, unit24(element_bits(seed, stream, index)), d.a));
}

/// Element `index` of a sparse matrix stored dense (distribution_kind::sparse) of `count` elements:
/// nonzero when its permuted position is among the first a, so exactly min(a, count) elements are.
JUDGE_HD inline float sparse_element(const distribution& d, std::uint64_t seed, std::uint32_t stream,
                                     std::uint64_t index, std::uint64_t count) {
  if (count == 0 || static_cast<double>(permuted_index(seed, stream, index, count)) >= d.a) return 0.0f;
  const float value = static_cast<float>(fused(2.0 * d.b, unit24(element_bits(seed, stream, index)), -d.b));
  return value == 0.0f ? static_cast<float>(d.b) : value;
}

/// Element `index` of buffer `stream` of `count` elements: the value the runner uploads and the judge
/// regenerates. Only the sparse and spike kinds depend on `count`.
JUDGE_HD inline float generate(const distribution& d, std::uint64_t seed, std::uint32_t stream, std::uint64_t index,
                               std::uint64_t count = 0) {
  switch (d.kind) {
  case distribution_kind::sparse:
    return sparse_element(d, seed, stream, index, count);
  case distribution_kind::spike:
    if (count > 0 && index == spike_index(d, seed, stream, count)) return static_cast<float>(d.more[0]);
    return static_cast<float>(fused(d.b - d.a, unit24(element_bits(seed, stream, index)), d.a));
  case distribution_kind::alternating: {
    const double m = fused(d.b - d.a, unit24(element_bits(seed, stream, index)), d.a);
    return static_cast<float>((index & 1) ? -m : m);
  }
  case distribution_kind::special:
    return special_element(d, seed, stream, index);
  case distribution_kind::constant:
    return static_cast<float>(d.a);
  case distribution_kind::normal: {
    // Sum of 12 uniforms of 24 bits each: an exact integer below 2^28, so every step is exact
    // until the single fused multiply-add that scales it.
    std::int64_t sum = 0;
    for (std::uint32_t k = 0; k < 12; ++k) sum += static_cast<std::int64_t>(element_bits(seed, stream, index, k) >> 40);
    const double z = static_cast<double>(sum) * (1.0 / 16777216.0) - 6.0;
    return static_cast<float>(fused(d.b, z, d.a));
  }
  case distribution_kind::cancel: {
    // Neighbours 2i and 2i+1 share a magnitude and differ in sign.
    const double u = unit24(element_bits(seed, stream, index / 2));
    const double x = fused(d.b - d.a, u, d.a);
    return static_cast<float>((index & 1) ? -x : x);
  }
  case distribution_kind::uniform_int:
    // Whole numbers as floats: a sum of them is exact while it stays below 2^24.
    return static_cast<float>(uniform_integer(d, element_bits(seed, stream, index)));
  case distribution_kind::ramp:
    return static_cast<float>(fused(d.b, static_cast<double>(index), d.a));
  case distribution_kind::uniform:
  default:
    return static_cast<float>(fused(d.b - d.a, unit24(element_bits(seed, stream, index)), d.a));
  }
}

/// Element `index` of `count` CSR row offsets (distribution_kind::offsets). Row boundary i sits at
/// x = (i − 1/2 + u) / rows with u uniform in [0, 1), so boundaries keep their order; the offset is
/// ⌊a·x^(b+1)⌋. Only subtractions, additions, one division and multiplications, each correctly rounded
/// and none fusable, so CPU and GPU agree; the ends are exactly 0 and a.
JUDGE_HD inline std::int32_t csr_offset(const distribution& d, std::uint64_t seed, std::uint32_t stream,
                                        std::uint64_t index, std::uint64_t count) {
  const std::uint64_t rows = count - 1;
  if (index == 0 || rows == 0) return 0;
  if (index >= rows) return static_cast<std::int32_t>(d.a);
  const double u = unit24(element_bits(seed, stream, index));
  const double x = (static_cast<double>(index) - 0.5 + u) / static_cast<double>(rows);
  double power = x;
  for (int k = 0; k < static_cast<int>(d.b); ++k) power *= x;
  return static_cast<std::int32_t>(d.a * power); // below a, and >= 0: truncation is the floor
}

/// Element `index` of an int32 buffer of `count` elements. Only the integer kinds apply (uniform_int,
/// constant, ramp, offsets; the spec reader refuses the others for int buffers); a ramp wraps as int32
/// arithmetic does.
JUDGE_HD inline std::int32_t generate_int(const distribution& d, std::uint64_t seed, std::uint32_t stream,
                                          std::uint64_t index, std::uint64_t count = 0) {
  switch (d.kind) {
  case distribution_kind::offsets:
    return csr_offset(d, seed, stream, index, count);
  case distribution_kind::constant:
    return static_cast<std::int32_t>(static_cast<std::int64_t>(d.a));
  case distribution_kind::ramp: {
    const std::uint64_t value = static_cast<std::uint64_t>(static_cast<std::int64_t>(d.a)) +
                                static_cast<std::uint64_t>(static_cast<std::int64_t>(d.b)) * index;
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(value));
  }
  case distribution_kind::uniform_int:
  default:
    return static_cast<std::int32_t>(uniform_integer(d, element_bits(seed, stream, index)));
  }
}

/// The 32-bit element `index` of a buffer of `type`, as raw bits.
JUDGE_HD inline std::uint32_t generate_word(const distribution& d, element_type type, std::uint64_t seed,
                                            std::uint32_t stream, std::uint64_t index, std::uint64_t count) {
  if (type == element_type::int32) return static_cast<std::uint32_t>(generate_int(d, seed, stream, index, count));
  const float value = generate(d, seed, stream, index, count);
  std::uint32_t bits;
  memcpy(&bits, &value, sizeof bits);
  return bits;
}

/// An int32 element held in a float-typed container (see element_type), and back: bits, not values.
inline float word_of_int(std::int32_t value) {
  float word;
  std::memcpy(&word, &value, sizeof word);
  return word;
}
inline std::int32_t int_of_word(float word) {
  std::int32_t value;
  std::memcpy(&value, &word, sizeof value);
  return value;
}

/// Whether distribution kind `kind` can fill a buffer of `type`: int buffers take whole numbers only.
constexpr bool applies_to(distribution_kind kind, element_type type) {
  return kind == distribution_kind::offsets
             ? type == element_type::int32
             : type == element_type::float32 || kind == distribution_kind::uniform_int ||
                   kind == distribution_kind::constant || kind == distribution_kind::ramp;
}

/// The largest |value| distribution `d` can give among `count` elements (normal: 6 standard deviations,
/// the Irwin-Hall sum's hard limit). Tolerances of sums are derived from it (docs/problem-format.md).
inline double largest_magnitude(const distribution& d, std::uint64_t count) {
  switch (d.kind) {
  case distribution_kind::spike:
    return std::fmax(std::fabs(d.more[0]), std::fmax(std::fabs(d.a), std::fabs(d.b)));
  case distribution_kind::special:
    if (d.more[3] > 0) return HUGE_VAL;
    if (d.more[2] > 0) return 3.4028234663852886e38; // the largest float
    return std::fmax(std::fabs(d.a), std::fabs(d.b));
  case distribution_kind::constant:
    return std::fabs(d.a);
  case distribution_kind::normal:
    return std::fabs(d.a) + 6.0 * std::fabs(d.b);
  case distribution_kind::ramp:
    return std::fmax(std::fabs(d.a), std::fabs(d.a + d.b * static_cast<double>(count > 0 ? count - 1 : 0)));
  case distribution_kind::offsets:
    return std::fabs(d.a);
  case distribution_kind::sparse:
    return std::fabs(d.b);
  default:
    return std::fmax(std::fabs(d.a), std::fabs(d.b));
  }
}

/// Whether every value `d` gives is a whole number, so that float sums of them are exact while they stay
/// below 2^24 (a case's `compare: exact` needs it): uniform_int and offsets; constant with a whole value;
/// ramp with a whole start and step; alternating and spike with low = high whole (and a whole spike).
inline bool whole_values(const distribution& d) {
  const auto whole = [](double x) { return x == std::floor(x); };
  switch (d.kind) {
  case distribution_kind::uniform_int:
  case distribution_kind::offsets:
    return true;
  case distribution_kind::constant:
    return whole(d.a);
  case distribution_kind::ramp:
    return whole(d.a) && whole(d.b);
  case distribution_kind::alternating:
    return d.a == d.b && whole(d.a);
  case distribution_kind::spike:
    return d.a == d.b && whole(d.a) && whole(d.more[0]);
  default:
    return false;
  }
}

/// Seeds derived from one case seed: each checked call of a sample case gets its own (see the judge's
/// check_seed.hpp; hidden cases' seeds are keyed hashes instead, and timed calls draw theirs at random).
JUDGE_HD inline std::uint64_t derive_seed(std::uint64_t case_seed, std::uint64_t purpose, std::uint64_t index) {
  return mix64(mix64(case_seed ^ (purpose * 0xD1B54A32D192ED03ull)) + index);
}

enum seed_purpose : std::uint64_t { seed_for_check = 1 };

} // namespace judge_data
