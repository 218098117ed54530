// Building a problem's CPU reference (problems/<p>/reference.cpp) on its own, with the host C++
// compiler, into a shared library the judge loads (reference_library.hpp). Cached by content, so a
// problem is compiled once per change; a problem that does not compile fails alone.
#pragma once

#include "judge/compile/compile.hpp"
#include "judge/problem/problem.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace judge {

enum class reference_build_status {
  ok,
  missing,        ///< the problem has no reference.cpp
  compile_error,  ///< the compiler rejected it: the package is broken
  internal_error, ///< the compiler could not be run, or the cache could not be written
};

struct reference_build {
  reference_build_status status = reference_build_status::internal_error;
  std::filesystem::path library; ///< the shared library, when ok
  std::string message;           ///< what went wrong, naming the problem and the file, with the compiler's lines
  bool cached = false;           ///< nothing was compiled
};

/// The flags every reference is compiled with (hashed into the cache key).
std::vector<std::string> reference_compile_flags();

/// Builds (or finds in the cache) the CPU reference of `spec` with tools.host_cxx. The library is
/// <cache_dir>/<problem>/cpu-reference-<content hash>.so, the hash covering reference.cpp, the public
/// header common/cpu_reference.h, the compiler and the flags; it is published by one rename, so parallel
/// judges never load half a library. Never throws.
reference_build build_cpu_reference(const problem_spec& spec, const toolchain& tools);

} // namespace judge
