#include "judge/problem/check_seed.hpp"

#include "catch.hpp"

#include <set>

using judge::check_seed;
using judge::hidden_check_seed;
using judge::judge_secret;
using judge::sample_check_seed;

namespace {

/// The key 00 01 02 ... 1f.
judge_secret counting_secret() {
  judge_secret s;
  for (unsigned i = 0; i < s.bytes.size(); ++i) s.bytes[i] = static_cast<unsigned char>(i);
  return s;
}

judge::test_case case_named(const std::string& name, std::uint64_t seed, judge::visibility v) {
  judge::test_case c;
  c.name = name;
  c.seed = seed;
  c.visibility = v;
  return c;
}

} // namespace

TEST_CASE("a hidden case's check seed is the start of HMAC-SHA-256 of the secret and the call", "[check_seed]") {
  // Expected values from Python's hmac module, independently of this code:
  //   hmac.new(bytes(range(32)), b"matmul\0ragged_1001x513x777\0" b"42\0" b"1", hashlib.sha256).hexdigest()
  //   = cf3fc30b1114dcd66705652dae843c09... ; the seed is its first 8 bytes, big-endian.
  const judge_secret key = counting_secret();
  CHECK(hidden_check_seed(key, 42, "matmul", "ragged_1001x513x777", 1) == 0xcf3fc30b1114dcd6ull);
  CHECK(hidden_check_seed(key, 42, "matmul", "ragged_1001x513x777", 0) == 0xd737ec92a05d9e51ull);
  CHECK(hidden_check_seed(key, 3101, "vector_add", "n_1001", 0) == 0x8d78b1795abc4806ull);
}

TEST_CASE("a hidden case's check seed changes with the secret and with every part of the call", "[check_seed]") {
  const judge_secret key = counting_secret();
  const std::uint64_t seed = hidden_check_seed(key, 42, "matmul", "ragged", 0);
  judge_secret other = key;
  other.bytes[31] ^= 1;
  CHECK(hidden_check_seed(other, 42, "matmul", "ragged", 0) != seed);
  CHECK(hidden_check_seed(judge_secret{}, 42, "matmul", "ragged", 0) != seed);
  CHECK(hidden_check_seed(key, 43, "matmul", "ragged", 0) != seed);
  CHECK(hidden_check_seed(key, 42, "matmul2", "ragged", 0) != seed);
  CHECK(hidden_check_seed(key, 42, "matmul", "ragged2", 0) != seed);
  CHECK(hidden_check_seed(key, 42, "matmul", "ragged", 1) != seed);
  // The separators keep the parts apart: moving a character across one changes the message.
  CHECK(hidden_check_seed(key, 42, "matmulr", "agged", 0) != seed);
  CHECK(hidden_check_seed(key, 42, "matmul", "ragged", 0) == seed);
}

TEST_CASE("a sample case's check seeds depend on cases.yaml alone, so learners can reproduce them", "[check_seed]") {
  const judge::test_case sample = case_named("sample_8", 2108, judge::visibility::sample);
  const std::uint64_t seed = check_seed(counting_secret(), "vector_add", sample, 0);
  CHECK(check_seed(judge_secret{}, "vector_add", sample, 0) == seed);
  CHECK(sample_check_seed(2108, "vector_add", "sample_8", 0) == seed);
  CHECK(sample_check_seed(2109, "vector_add", "sample_8", 0) != seed);
  CHECK(sample_check_seed(2108, "vector_add", "sample_9", 0) != seed);
  CHECK(sample_check_seed(2108, "matmul", "sample_8", 0) != seed);
  CHECK(sample_check_seed(2108, "vector_add", "sample_8", 1) != seed);
  CHECK(seed != 2108);
}

TEST_CASE("check seeds follow the case's visibility and never repeat across cases and checks", "[check_seed]") {
  const judge_secret key = counting_secret();
  const judge::test_case hidden = case_named("n_1001", 3101, judge::visibility::hidden);
  CHECK(check_seed(key, "vector_add", hidden, 0) == hidden_check_seed(key, 3101, "vector_add", "n_1001", 0));
  const judge::test_case sample = case_named("n_1001", 3101, judge::visibility::sample);
  CHECK(check_seed(key, "vector_add", sample, 0) == sample_check_seed(3101, "vector_add", "n_1001", 0));
  CHECK(check_seed(key, "vector_add", sample, 0) != check_seed(key, "vector_add", hidden, 0));

  std::set<std::uint64_t> seeds;
  for (int c = 0; c < 50; ++c)
    for (int k = 0; k < 20; ++k) {
      const auto v = c % 2 == 0 ? judge::visibility::hidden : judge::visibility::sample;
      seeds.insert(check_seed(key, "matmul", case_named("case_" + std::to_string(c), 7, v), k));
    }
  CHECK(seeds.size() == 1000);
}
