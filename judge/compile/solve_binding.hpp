// How a learner's solve() is bound to the name the judge calls: the declaration every unit sees first,
// the solve.h LeetGPU's older starter includes, and the adapter for ABI-compatible differences.
//
// LeetGPU accepts a solve() whose pointers differ in constness from the statement's (`float* A` where
// it says `const float* A`): the machine code is the same. The judge does too, without weakening the
// check of everything else, in three steps (compile.cpp):
//  1. Every unit is compiled with the problem's declaration (extern "C") included first. A definition
//     with the same parameters gets C linkage even without extern "C" (most solutions stop here).
//  2. A unit that fails because its own extern "C" solve() conflicts with that declaration is compiled
//     again without it, followed by solve_check_header(): a static_assert that the unit's solve()
//     equals the declaration once const is dropped from what each pointer points to. It already has
//     the C name; a real mismatch (double*, order, count) fails the assert and the first error stands.
//  3. A solve() defined without extern "C" and with other constness is a C++ overload: the units
//     compile and the link misses `solve`. Its mangled name (nm) gives its parameters; a small adapter
//     (solve_adapter_source()) declares it, checks it with the same static_assert and defines the
//     extern "C" solve() that calls it. If the adapter does not compile, the link error stands.
// Checking with the compiler (static_assert over decltype(&::solve)) rather than by parsing the
// learner's source or nvcc's messages means typedefs, macros, `float *const A` and multi-file
// solutions (the declaration in a header, the definition elsewhere) are judged as C++ judges them.
#pragma once

#include "judge/problem/problem.hpp"

#include <string>
#include <vector>

namespace judge {

/// The macro defined in every learner compile, so that a test driver can be kept in the file:
/// `#ifndef ONLINE_JUDGE int main() { ... } #endif` (the name other online judges use).
inline constexpr const char* judge_macro = "ONLINE_JUDGE";

/// Follows a unit that declares solve() (step 2, and the adapter of step 3): fails to compile unless
/// that solve() matches the spec's declaration up to pointee constness. Defines
/// judge_solve_check::learner::param<I>, the learner's parameter types.
std::string solve_check_header(const problem_spec& spec);

/// Step 3: the adapter unit for a C++ solve() whose demangled name is `learner_declaration`
/// ("solve(float*, float*, float*, int, int, int)"); it includes "solve_check.h".
std::string solve_adapter_source(const problem_spec& spec, const std::string& learner_declaration);

/// The symbols an object file defines, from `nm -P --defined-only` output (name and type letter).
struct defined_symbol {
  std::string name;
  char type = '?';
};
std::vector<defined_symbol> parse_nm_output(const std::string& nm_output);

/// The demangled declaration of a C++ function ::solve(...) ("solve(float*, int)"), or "" when
/// `symbol` is not one (a template, a member, a solve in a namespace, or not mangled).
std::string demangled_solve(const std::string& symbol);

/// The 1-based line of the first definition-looking `main(` in `source`, 0 if none is found.
int main_definition_line(const std::string& source);

} // namespace judge
