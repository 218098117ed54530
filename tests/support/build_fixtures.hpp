// What the tests of a solution's build (compile_test.cpp, solution_build_test.cpp) share: a problem
// written by hand, its example solutions, and one runner cache for the whole test run.
#pragma once

#include "temp_folder.hpp"

#include "judge/compile/compile.hpp"

#include <filesystem>
#include <string>

namespace judge_test {

inline const std::filesystem::path compile_data_dir = std::filesystem::path(JUDGE_TEST_DATA_DIR) / "compile";
/// tests/data/compile/solutions: good.cu, broken.cu, folder/, ...
inline const std::filesystem::path compile_solutions = compile_data_dir / "solutions";

inline judge::parameter param(const std::string& name, const std::string& type, judge::param_role role) {
  judge::parameter p;
  p.name = name;
  p.c_type = type;
  p.role = role;
  return p;
}

/// A matmul-shaped problem written by hand: a build needs only the signature, the folder (for
/// reference_gpu.cu), the bans and the limits.
inline judge::problem_spec matmul_like() {
  using judge::param_role;
  judge::problem_spec spec;
  spec.name = "matmul_like";
  spec.dir = compile_data_dir / "matmul_like";
  spec.spec_file = spec.dir / "problem.yaml";
  spec.title = "C = A * B";
  spec.signature = {param("A", "const float*", param_role::input), param("B", "const float*", param_role::input),
                    param("C", "float*", param_role::output),      param("M", "int", param_role::size),
                    param("N", "int", param_role::size),           param("K", "int", param_role::size)};
  spec.banned_libraries = {"cublas", "cublasLt"};
  spec.baseline.libraries = {"cublas"};
  spec.limits.compile_seconds = 300; // a loaded host of two cores compiles slowly
  return spec;
}

/// One runner cache for the whole test run, so that the problem's shim and reference are compiled once.
inline judge::toolchain build_test_tools() {
  static temp_folder cache;
  judge::toolchain tools = judge::default_toolchain();
  tools.cache_dir = cache.path();
  return tools;
}

} // namespace judge_test
