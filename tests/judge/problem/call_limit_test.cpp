// A case's call limit: the problem's one limit, or the case's work at the slowest speed the problem
// allows, held between its least and its most.
#include "catch.hpp"

#include "judge/problem/call_limit.hpp"

// Catch2 2.13 has its Approx in Detail, 3.x in Catch.
#if JUDGE_CATCH_MAJOR >= 3
using Catch::Approx;
#else
using Catch::Detail::Approx;
#endif
using namespace judge;

namespace {

problem_spec matmul_like() {
  problem_spec spec;
  spec.flops = size_expr::parse("2*M*N*K");
  spec.bytes = size_expr::parse("4*(M*N+N*K+M*K)");
  spec.unit = speed_unit::gflops;
  return spec;
}

test_case sized(std::int64_t m, std::int64_t n, std::int64_t k) {
  test_case c;
  c.sizes = {{"M", m}, {"N", n}, {"K", k}};
  return c;
}

} // namespace

TEST_CASE("without a slowest speed every case gives a call the problem's limit", "[call_limit]") {
  problem_spec spec = matmul_like();
  spec.limits.case_seconds = 7;
  CHECK(call_limit_seconds(spec, sized(1, 1, 1)) == 7);
  CHECK(call_limit_seconds(spec, sized(8192, 8192, 8192)) == 7);
}

TEST_CASE("with a slowest speed a case gives its work at that speed, between the least and the most", "[call_limit]") {
  problem_spec spec = matmul_like();
  spec.limits.case_seconds = 10;
  spec.limits.slowest_speed = 1; // GFLOPS
  spec.limits.min_case_seconds = 2;
  CHECK(call_limit_seconds(spec, sized(2, 3, 2)) == 2);                             // 24 FLOP: the least
  CHECK(call_limit_seconds(spec, sized(2048, 1024, 1024)) == Approx(4.294967296));  // 2^32 FLOP
  CHECK(call_limit_seconds(spec, sized(256, 6144, 4096)) == 10);                    // 12.9 GFLOP: the most
  CHECK(call_limit_seconds(spec, sized(3037000499, 3037000499, 3037000499)) == 10); // past 64 bits: the most
}

TEST_CASE("a problem measured in GB/s gives a case its bytes at the slowest speed", "[call_limit]") {
  problem_spec spec = matmul_like();
  spec.unit = speed_unit::gbps;
  spec.limits.case_seconds = 10;
  spec.limits.slowest_speed = 0.1; // GB/s
  spec.limits.min_case_seconds = 2;
  // M = N = K = 8192: 4 · 3 · 8192² bytes, 805 MB, 8.05 s at 0.1 GB/s.
  CHECK(call_limit_seconds(spec, sized(8192, 8192, 8192)) == Approx(4.0 * 3 * 8192 * 8192 / 1e8));
  CHECK(call_limit_seconds(spec, sized(1000, 1000, 1000)) == 2);
}
