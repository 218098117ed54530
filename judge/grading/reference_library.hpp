// A problem's CPU reference, loaded from the shared library reference_build.hpp makes, and called
// through the plain C entry point of common/cpu_reference.h. The judge never links a problem's code:
// a problem whose reference is missing or does not compile fails alone, with the compiler's message.
#pragma once

#include "judge/compile/compile.hpp"
#include "judge/problem/problem.hpp"
#include "judge/problem/size_expr.hpp"
#include "judge/problem/cases.hpp"

#include "common/cpu_reference.h"

#include <map>
#include <string>
#include <vector>

namespace judge {

/// A loaded reference. Copyable and cheap: the library stays loaded for the life of the process.
class cpu_reference {
public:
  /// Fills `outputs` (every buffer already sized to its element count) from `inputs` and `sizes`,
  /// using up to `threads` threads. Throws std::runtime_error naming the problem when the reference
  /// reports a failure (an unknown buffer name, an exception).
  void run(const std::map<std::string, std::vector<float>>& inputs, const size_values& sizes,
           std::map<std::string, std::vector<double>>& outputs, unsigned threads) const;
  /// The same with int32 inputs (named in `int_inputs`, their elements held as bits) and float
  /// parameters (`scalars`, each rounded to the float solve() receives).
  void run(const std::map<std::string, std::vector<float>>& inputs, const std::vector<std::string>& int_inputs,
           const size_values& sizes, const std::map<std::string, double>& scalars,
           std::map<std::string, std::vector<double>>& outputs, unsigned threads) const;

private:
  friend cpu_reference load_cpu_reference(const problem_spec& spec, const toolchain& tools);
  std::string m_problem;
  judge_reference_entry m_entry = nullptr;
};

/// Builds (or finds in the cache) and loads the CPU reference of `spec`. Throws spec_error when the
/// package is at fault (reference.cpp missing, not compiling, or naming another problem) and
/// std::runtime_error when the judge is (the compiler cannot run, the library cannot be loaded).
cpu_reference load_cpu_reference(const problem_spec& spec, const toolchain& tools);

/// The CPU reference's outputs for `inputs`, with the default toolchain's compiler and cache; throws
/// as load_cpu_reference and cpu_reference::run do.
std::map<std::string, std::vector<double>>
cpu_reference_outputs(const problem_spec& spec, const test_case& c,
                      const std::map<std::string, std::vector<float>>& inputs, unsigned threads);

} // namespace judge
