#include "catch.hpp"

#include "judge/base/kernel_label.hpp"

using judge::kernel_label;

TEST_CASE("a kernel's label drops its parameters", "[kernel_label]") {
  CHECK(kernel_label("one_past(float *, int)") == "one_past");
  CHECK(kernel_label("matmul_register_2d(const float *, const float *, float *, int, int, int, bool, bool, bool)") ==
        "matmul_register_2d");
  CHECK(kernel_label("judge_l2_read_through") == "judge_l2_read_through");
}

TEST_CASE("a template kernel's label keeps its arguments and drops its return type and the unnamed namespace",
          "[kernel_label]") {
  // As the demangler writes ptxas's and CUPTI's names (the ladder's step 7 on the H200)...
  CHECK(kernel_label("void (anonymous namespace)::matmul_tc<64, 64, 32, 32, 3, 1, 1, 1>(float const*, float const*, "
                     "float*, int, int, int)") == "matmul_tc<64, 64, 32, 32, 3, 1, 1, 1>");
  // ... and as Nsight Compute's demangled base name writes it, without parameters.
  CHECK(kernel_label("void <unnamed>::matmul_tc<64, 128, 32, 32, 3, 1, 2, 2>") ==
        "matmul_tc<64, 128, 32, 32, 3, 1, 2, 2>");
  // Parentheses inside template arguments do not cut the name short.
  CHECK(kernel_label("void scale<(int)4>(float*)") == "scale<(int)4>");
}
