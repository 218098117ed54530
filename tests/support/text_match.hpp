// Text checks shared by the tests.
#pragma once

#include <string>

namespace judge_test {

/// Whether `text` contains `part`: messages are checked for the facts they must name, not word for word.
inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

} // namespace judge_test
