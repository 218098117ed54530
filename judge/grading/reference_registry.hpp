// CPU references, one per problem, in problems/<name>/reference.cpp. They are trusted code compiled
// into the judge, accumulate in double, and register themselves by problem name:
//
//   JUDGE_CPU_REFERENCE(matmul, args) { ... args.output("C")[i] = ...; }
#pragma once

#include "size_expr.hpp"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace judge {

/// What a CPU reference receives: the inputs (as the runner generated them) and the sizes; it fills
/// every output buffer (already sized to its element count) with the exact result in double.
struct reference_args {
  const std::map<std::string, std::vector<float>>& inputs;
  const size_values& sizes;
  std::map<std::string, std::vector<double>>& outputs;
  unsigned threads = 1; ///< worker threads the reference may use

  const std::vector<float>& input(const std::string& name) const { return inputs.at(name); }
  std::vector<double>& output(const std::string& name) const { return outputs.at(name); }
  std::int64_t size(const std::string& name) const { return sizes.at(name); }
};

using cpu_reference = std::function<void(const reference_args&)>;

/// Registers `fn` for `problem`; returns true (for use in static initialisers).
bool register_cpu_reference(const std::string& problem, cpu_reference fn);
/// The reference of `problem`, or nullptr when none is compiled in.
const cpu_reference* find_cpu_reference(const std::string& problem);

/// Runs `body(begin, end)` over [0, count) split across `threads` threads.
void parallel_for(std::int64_t count, unsigned threads, const std::function<void(std::int64_t, std::int64_t)>& body);

} // namespace judge

#define JUDGE_CPU_REFERENCE(problem, args)                                                                     \
  static void judge_cpu_reference_##problem(const ::judge::reference_args& args);                             \
  static const bool judge_cpu_reference_registered_##problem =                                                 \
      ::judge::register_cpu_reference(#problem, judge_cpu_reference_##problem);                                \
  static void judge_cpu_reference_##problem(const ::judge::reference_args& args)
