#include "judge/compile/tensor_core_use.hpp"

#include <algorithm>
#include <regex>
#include <sstream>

namespace judge {

std::vector<std::string> tensor_core_opcodes(const std::string& sass) {
  // An instruction line: "        /*0090*/                   HMMA.1684.F32.TF32 R4, R8, R12, R4 ;  /* 0x... */",
  // its opcode after the address comment and an optional predicate ("@P0", "@!PT").
  static const std::regex instruction(
      R"(^\s*/\*[0-9a-f]+\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)((?:\.[A-Za-z0-9_]+)*))");
  std::vector<std::string> found;
  std::istringstream in(sass);
  std::string line;
  std::smatch match;
  while (std::getline(in, line)) {
    if (!std::regex_search(line, match, instruction)) continue;
    const std::string base = match[1].str();
    if (base.size() < 3 || base.compare(base.size() - 3, 3, "MMA") != 0) continue;
    const std::string opcode = base + match[2].str();
    if (std::find(found.begin(), found.end(), opcode) == found.end()) found.push_back(opcode);
  }
  return found;
}

} // namespace judge
