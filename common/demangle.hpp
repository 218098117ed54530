// A C++ symbol as C++ spells it, for messages and reports: one demangler for the judge (a kernel's
// resources from ptxas, a symbol the object inspection refuses, the solve() a learner wrote) and the
// runner (kernel names from CUPTI and from recorded launches). Header-only, standard library and the C++
// ABI only, so that nvcc and g++ both take it.
#pragma once

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <string>

namespace judge_symbols {

/// `symbol` demangled ("ns::scale(float*, int)"), or as it is when it is no mangled C++ name (an extern "C"
/// kernel, whose symbol is its name; a plain name such as "f" is never read as a mangled type).
inline std::string demangled(const char* symbol) {
  if (symbol == nullptr) return "";
  if (symbol[0] != '_' || symbol[1] != 'Z') return symbol;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(symbol, nullptr, nullptr, &status), std::free);
  return status == 0 && text ? text.get() : symbol;
}

inline std::string demangled(const std::string& symbol) { return demangled(symbol.c_str()); }

} // namespace judge_symbols
