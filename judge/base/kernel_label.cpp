#include "judge/base/kernel_label.hpp"

namespace judge {

std::string kernel_label(const std::string& demangled) {
  std::string name = demangled;
  // The parameter list is the parenthesis that closes the name: found from the end, so that parentheses
  // inside template arguments or "(anonymous namespace)" do not cut the name short.
  if (!name.empty() && name.back() == ')') {
    int depth = 0;
    for (std::size_t i = name.size(); i-- > 0;) {
      if (name[i] == ')') ++depth;
      if (name[i] == '(' && --depth == 0) {
        if (i > 0) name.resize(i);
        break;
      }
    }
  }
  // A function template's demangled name starts with its return type (kernels return void).
  if (name.rfind("void ", 0) == 0) name.erase(0, 5);
  // The unnamed namespace, as the C++ demangler and as Nsight Compute write it.
  for (const std::string anonymous : {"(anonymous namespace)::", "<unnamed>::"})
    for (std::size_t at; (at = name.find(anonymous)) != std::string::npos;) name.erase(at, anonymous.size());
  return name.empty() ? demangled : name;
}

} // namespace judge
