#include "judge/report/similarity.hpp"

#include "catch.hpp"
#include "text_match.hpp"

#include <nlohmann/json.hpp>

using namespace judge;
using judge_test::contains;

namespace {
const std::string body = "__global__ void k(float* out, const float* in, int n) {\n"
                         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                         "  if (i < n) out[i] = in[i] * 2.0f + in[i > 0 ? i - 1 : 0];\n}\n";
const std::string renamed = "__global__ void twice(float* y, const float* x, int count) {\n"
                            "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
                            "  if (t < count) y[t] = x[t] * 3.0f + x[t > 0 ? t - 1 : 0];\n}\n";
const std::string different = "__global__ void k(float* out, const float* in, int n) {\n"
                              "  for (int i = threadIdx.x; i < n; i += blockDim.x) { float v = in[i];\n"
                              "    while (v > 1) v = v / 2; out[i] = v; }\n}\n";
} // namespace

TEST_CASE("pairs by different authors at or above the threshold are listed, most similar first", "[similarity]") {
  const std::vector<compared_source> sources = {{"alice", "submission 1", 1, body},
                                                {"bob", "submission 2", 2, renamed},
                                                {"carol", "submission 3", 3, different},
                                                {"alice", "submission 4", 4, body}};
  const auto pairs = similar_pairs(sources, "", 0.8);
  REQUIRE(pairs.size() == 2); // alice-bob twice (two of alice's), never alice with herself
  for (const similar_pair& p : pairs) {
    CHECK(p.a->author != p.b->author);
    CHECK(p.overlap >= 0.8);
  }
  CHECK(similar_pairs(sources, "", 0.0).size() >= 2);

  const std::string text = similarity_text("vector_add", sources.size(), 0.8, pairs);
  CAPTURE(text);
  CHECK(contains(text, "4 submission(s) compared"));
  CHECK(contains(text, "submission 2"));
  const auto json = nlohmann::json::parse(similarity_json("vector_add", sources.size(), 0.8, pairs));
  CHECK(json["pairs"].size() == 2);
  CHECK(json["pairs"][0]["a"]["author"] == "alice");
  CHECK(json["pairs"][0]["b"]["id"] == 2);
}

TEST_CASE("a report without pairs says no pair reaches the threshold", "[similarity]") {
  const std::vector<compared_source> sources = {{"alice", "a.cu", 0, body}, {"carol", "c.cu", 0, different}};
  CHECK(contains(similarity_text("p", 2, 0.9, similar_pairs(sources, "", 0.9)), "no pair reaches it"));
}
