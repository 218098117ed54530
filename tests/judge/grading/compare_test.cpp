#include "catch.hpp"

#include "judge/base/element_chunks.hpp"
#include "judge/grading/compare.hpp"

#include <cmath>
#include <limits>
#include <thread>

using namespace judge;
#if JUDGE_CATCH_MAJOR >= 3
using Catch::Approx; // Catch2 2.13 declares it globally
#endif

TEST_CASE("an element within atol + rtol*|ref| passes and one just outside fails", "[compare]") {
  const tolerance tol{1e-4, 1e-4};
  CHECK(within_tolerance(1.0f, 1.0, tol));
  CHECK(within_tolerance(100.0f, 100.0 + 0.0100, tol)); // 1e-4 + 1e-2 allowed
  CHECK_FALSE(within_tolerance(100.0f, 100.0 + 0.0102, tol));
  CHECK(within_tolerance(0.0f, 0.99e-4, tol));
  CHECK_FALSE(within_tolerance(0.0f, 1.01e-4, tol));
}

TEST_CASE("NaN never passes and an infinity passes only against the same infinity", "[compare]") {
  const tolerance tol{1.0, 1.0};
  const float inf = std::numeric_limits<float>::infinity();
  CHECK_FALSE(within_tolerance(std::nanf(""), 0.0, tol));
  CHECK_FALSE(within_tolerance(1.0f, std::nan(""), tol));
  CHECK(within_tolerance(inf, static_cast<double>(inf), tol));
  CHECK_FALSE(within_tolerance(-inf, static_cast<double>(inf), tol));
  CHECK_FALSE(within_tolerance(1e30f, static_cast<double>(inf), tol));
}

TEST_CASE("the first wrong element is reported with its row and column and every wrong one is counted", "[compare]") {
  std::vector<double> ref(3 * 4);
  for (std::size_t i = 0; i < ref.size(); ++i) ref[i] = 0.5 * static_cast<double>(i) + 0.25;
  std::vector<float> got(ref.begin(), ref.end());
  got[6] = 99.0f; // row 1, col 2
  got[11] = std::nanf("");
  const auto m = compare_output("C", got, ref, {3, 4}, tolerance{1e-5, 1e-5});
  REQUIRE(m);
  CHECK(m->count == 2);
  CHECK(m->total == 12);
  CHECK(m->first_index == 6);
  REQUIRE(m->first_coords.size() == 2);
  CHECK(m->first_coords[0] == 1);
  CHECK(m->first_coords[1] == 2);
  CHECK(m->got == 99.0f);
  CHECK(m->expected == 3.25);
}

TEST_CASE("a correct output has no mismatch", "[compare]") {
  const std::vector<double> ref{1.5, -2.25, 3.125};
  const std::vector<float> got{1.5f, -2.25f, 3.125f};
  CHECK_FALSE(compare_output("C", got, ref, {3}, tolerance{}));
}

TEST_CASE("a short output counts every missing element as wrong", "[compare]") {
  const std::vector<double> ref{1.5, 2.5, 3.5, 4.5};
  const std::vector<float> got{1.5f, 2.5f};
  const auto m = compare_output("C", got, ref, {4}, tolerance{});
  REQUIRE(m);
  CHECK(m->count == 2);
  CHECK(m->first_index == 2);
}

TEST_CASE("flat indices unflatten row-major", "[compare]") {
  const auto c = unflatten(1001 * 2 + 5, {7, 1001});
  REQUIRE(c.size() == 2);
  CHECK(c[0] == 2);
  CHECK(c[1] == 5);
}

TEST_CASE("an int32 output passes only when every element equals its reference", "[compare]") {
  const judge::tolerance loose{1.0, 1.0, std::nullopt}; // a float tolerance does not apply to ints
  const std::vector<float> got{judge_data::word_of_int(3), judge_data::word_of_int(-7), judge_data::word_of_int(5)};
  CHECK_FALSE(judge::compare_output("histogram", got, std::vector<double>{3, -7, 5}, {3}, loose,
                                    judge_data::element_type::int32));
  const auto wrong = judge::compare_output("histogram", got, std::vector<double>{3, -7, 6}, {3}, loose,
                                           judge_data::element_type::int32);
  REQUIRE(wrong);
  CHECK(wrong->count == 1);
  CHECK(wrong->first_index == 2);
  CHECK(wrong->got == 5.0f);
  CHECK(wrong->expected == 6.0);
  // Against a baseline's int output, which holds bits as well.
  const std::vector<float> baseline{judge_data::word_of_int(3), judge_data::word_of_int(-7),
                                    judge_data::word_of_int(5)};
  CHECK_FALSE(judge::compare_output("histogram", got, baseline, {3}, loose, judge_data::element_type::int32));
  CHECK(judge::element_passes(judge_data::element_type::float32, 5.5f, 6.0, loose));
  CHECK_FALSE(judge::element_passes(judge_data::element_type::int32, judge_data::word_of_int(5), 6.0, loose));
}

TEST_CASE("an exact comparison passes only the reference rounded to float with -0 equal to 0", "[compare]") {
  tolerance exact{0, 0};
  exact.exact = true;
  CHECK(within_tolerance(3.0f, 3.0, exact));
  CHECK_FALSE(within_tolerance(3.0f, 3.0000002, exact)); // the next float up is 3.00000024
  CHECK_FALSE(within_tolerance(std::nextafter(3.0f, 4.0f), 3.0, exact));
  // A reference no float holds: its rounding is the one right answer.
  CHECK(within_tolerance(0.1f, 0.1, exact));
  CHECK(within_tolerance(-0.0f, 0.0, exact));
  CHECK(within_tolerance(0.0f, -0.0, exact));
  CHECK_FALSE(within_tolerance(std::nanf(""), std::nan(""), exact));
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(within_tolerance(inf, static_cast<double>(inf), exact));
  const auto m =
      compare_output("out", std::vector<float>{1.0f, 2.0f, 4.0f}, std::vector<double>{1.0, 2.0, 3.0}, {3}, exact);
  REQUIRE(m);
  CHECK(m->exact);
  CHECK(m->allowed == 0);
  CHECK(m->first_index == 2);
}

TEST_CASE("LeetGPU's tolerance is relative to the output and counts its own outsiders", "[compare]") {
  const published_tolerance leetgpu{0.01, 0.01};
  // |ref - got| <= atol + rtol*|got|: relative to what the solution wrote, as torch.allclose(ref, got) is.
  CHECK(within_published(100.0f, 101.0, leetgpu)); // 1 <= 0.01 + 1.0
  CHECK_FALSE(within_published(100.0f, 101.02, leetgpu));
  CHECK_FALSE(within_published(std::nanf(""), 1.0, leetgpu));
  std::vector<double> ref{1.0, 2.0, 3.0, 4.0};
  std::vector<float> got{1.0f, 2.001f, 3.0f, 4.0f};
  const auto within =
      compare_output("C", got, ref, {2, 2}, tolerance{1e-5, 1e-5}, judge_data::element_type::float32, leetgpu);
  REQUIRE(within);
  REQUIRE(within->leetgpu);
  CHECK(within->leetgpu->outside == 0);
  CHECK(within->leetgpu->atol == 0.01);
  CHECK(within->allowed == Approx(1e-5 + 1e-5 * 2.0));
  got[3] = 5.0f;
  const auto outside =
      compare_output("C", got, ref, {2, 2}, tolerance{1e-5, 1e-5}, judge_data::element_type::float32, leetgpu);
  REQUIRE(outside);
  CHECK(outside->leetgpu->outside == 1);
  // No published tolerance, no count; and none for an int buffer, which every judge compares exactly.
  CHECK_FALSE(compare_output("C", got, ref, {2, 2}, tolerance{1e-5, 1e-5})->leetgpu);
}

TEST_CASE("an output passes exactly when each of its elements passes the rule, bounds and specials included",
          "[compare]") {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::nanf("");
  tolerance exact;
  exact.exact = true;
  const std::vector<tolerance> tolerances = {tolerance{1e-4, 1e-4}, tolerance{0, 0.5}, tolerance{0.5, 0}, exact};
  // (got, reference): on a bound, a float step past it, infinities, NaNs, signed zeros, the largest floats.
  const std::vector<std::pair<float, double>> pairs = {
      {1.5f, 1.0},    {std::nextafter(1.5f, 2.0f), 1.0}, {0.5f, 0.0}, {std::nextafter(0.5f, 1.0f), 0.0},
      {inf, inf},     {-inf, inf},                        {1e30f, inf}, {inf, 1e30},
      {nan, 0.0},     {1.0f, std::nan("")},               {-0.0f, 0.0}, {0.0f, -0.0},
      {3.4e38f, 3.4e38}, {-3.4e38f, 3.4e38},              {1.0f, 1.0},  {1.0f, 1.0 + 1e-9}};
  for (const tolerance& tol : tolerances)
    for (const auto& [got, ref] : pairs) {
      CAPTURE(tol.atol, tol.rtol, tol.exact, got, ref);
      const bool passes = within_tolerance(got, ref, tol);
      // Alone, and as one element among many right ones on several threads (element_chunks).
      CHECK(compare_output("C", std::vector<float>{got}, std::vector<double>{ref}, {1}, tol).has_value() == !passes);
      const std::size_t n = 3 * min_elements_per_thread;
      std::vector<double> many_ref(n, 2.0);
      std::vector<float> many_got(n, 2.0f);
      many_ref[n - 2] = ref;
      many_got[n - 2] = got;
      const auto m = compare_output("C", many_got, many_ref, {static_cast<std::int64_t>(n)}, tol);
      CHECK(m.has_value() == !passes);
      if (m) CHECK(m->first_index == static_cast<std::int64_t>(n - 2));
    }
}

TEST_CASE("a large output compared in chunks on several threads reports what one pass in order would",
          "[compare]") {
  // Large enough for several chunks wherever there are several cores (element_chunks).
  const std::size_t n = 5 * min_elements_per_thread + 12345;
  std::vector<double> ref(n);
  for (std::size_t i = 0; i < n; ++i) ref[i] = static_cast<double>(i % 1000) * 0.5;
  std::vector<float> got(ref.begin(), ref.end());
  const std::vector<std::size_t> wrong = {n - 3, 3 * min_elements_per_thread + 7, 2 * min_elements_per_thread + 1};
  for (std::size_t i : wrong) got[i] += 100.0f; // outside LeetGPU's tolerance too
  got[4000000] = 1e-3f; // its reference is 0: outside the judge's tolerance, inside LeetGPU's
  const published_tolerance leetgpu{0.01, 0.01};
  const auto m = compare_output("y", got, ref, {static_cast<std::int64_t>(n)}, tolerance{1e-5, 1e-5},
                                judge_data::element_type::float32, leetgpu);
  REQUIRE(m);
  CHECK(m->count == 4);
  CHECK(m->total == static_cast<std::int64_t>(n));
  CHECK(m->first_index == static_cast<std::int64_t>(2 * min_elements_per_thread + 1));
  CHECK(m->expected == ref[2 * min_elements_per_thread + 1]);
  CHECK(m->got == got[2 * min_elements_per_thread + 1]);
  REQUIRE(m->leetgpu);
  CHECK(m->leetgpu->outside == 3);
  CHECK(element_chunks(n).size() == std::min<std::size_t>(16, std::max(1u, std::thread::hardware_concurrency())));
}
