// A kernel's name as C++ spells it, for messages and reports.
#pragma once

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <string>

namespace judge_harness {

/// `symbol` demangled ("ns::scale(float*, int)"), or as it is when it is no C++ name (an extern "C" kernel).
inline std::string demangled(const char* symbol) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(symbol, nullptr, nullptr, &status), std::free);
  return status == 0 && text ? text.get() : symbol;
}

inline std::string demangled(const std::string& symbol) { return demangled(symbol.c_str()); }

} // namespace judge_harness
