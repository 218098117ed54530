// The problem's runner: the harness, the call shim and the GPU reference, linked by nvcc once per problem
// and toolchain and kept in the runner cache (<cache_dir>/<problem>/runner-<hash>/runner). Every solution
// of the problem runs in it, loading its own solution.so.
#pragma once

#include "judge/compile/build_tools.hpp"
#include "judge/problem/problem.hpp"

#include <filesystem>
#include <string>

namespace judge {

struct shared_runner {
  bool ok = false;
  std::string message; ///< why it could not be built, when not ok
  std::string hash;    ///< the key of its cache entry (part of every solution's key)
  std::filesystem::path executable;
};

/// Builds the runner of `spec`'s problem, or finds it in the cache; one build per process at a time, so
/// that parallel solution builds find it done. May throw (a cache folder that cannot be made).
shared_runner build_shared_runner(const problem_spec& spec, const toolchain& tools, build_clock::time_point deadline);

} // namespace judge
