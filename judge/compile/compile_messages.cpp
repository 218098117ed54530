// explain_compile_error (compile.hpp): nvcc's and the linker's output, made readable for learners.
#include "judge/compile/compile.hpp"

#include <algorithm>
#include <cctype>
#include <regex>
#include <sstream>

namespace judge {
namespace {

constexpr std::size_t max_lines = 60;

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// The name learners know a library by ("cublasLt" is part of cuBLAS).
std::string known_as(const std::string& library) {
  static const std::pair<const char*, const char*> names[] = {
      {"cublaslt", "cuBLAS"},   {"cublas", "cuBLAS"},     {"cufft", "cuFFT"}, {"curand", "cuRAND"},
      {"cusparse", "cuSPARSE"}, {"cusolver", "cuSOLVER"}, {"cudnn", "cuDNN"}, {"cutensor", "cuTENSOR"}};
  const std::string key = lowercase(library);
  for (const auto& [lib, name] : names)
    if (key == lib) return name;
  return library;
}

/// Whether the output shows the library in use: a call into it that failed to link, or its header.
bool mentions_library(const std::string& lower_output, const std::string& library) {
  const std::string lib = lowercase(library);
  return contains(lower_output, "undefined reference to `" + lib) || contains(lower_output, lib + "_v2.h") ||
         contains(lower_output, lib + ".h") || contains(lower_output, lib + "_api.h");
}

std::string first_lines(const std::string& text) {
  std::istringstream in(text);
  std::string line, kept;
  std::size_t count = 0;
  while (std::getline(in, line)) {
    if (++count <= max_lines) kept += line + "\n";
  }
  while (!kept.empty() && std::isspace(static_cast<unsigned char>(kept.back()))) kept.pop_back();
  if (count > max_lines) kept += "\n[... " + std::to_string(count - max_lines) + " more lines]";
  return kept;
}

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : separator) + item;
  return text;
}

} // namespace

std::string explain_compile_error(const problem_spec& spec, const std::string& compiler_output) {
  // nvcc's intermediate files (tmpxft_00001318_00000000-6_alice.cudafe1.cpp) stand for the learner's .cu.
  static const std::regex intermediate(
      R"(tmpxft_[0-9a-f]+_[0-9a-f]+-[0-9]+_([A-Za-z0-9_.+-]+?)\.cudafe1\.(cpp|stub\.c))");
  std::string output = std::regex_replace(compiler_output, intermediate, "$1.cu");
  output = std::regex_replace(output, std::regex(R"((^|\n)/usr/bin/ld: )"), "$1ld: ");
  const std::string lower = lowercase(output);

  std::vector<std::string> headlines;
  std::vector<std::string> banned_seen;
  for (const auto& library : spec.banned_libraries) {
    const std::string name = known_as(library);
    if (mentions_library(lower, library) &&
        std::find(banned_seen.begin(), banned_seen.end(), name) == banned_seen.end())
      banned_seen.push_back(name);
  }
  if (!banned_seen.empty())
    headlines.push_back("solve() calls " + join(banned_seen, " and ") + ", which this problem bans (problem.yaml: " +
                        "banned_libraries: [" + join(spec.banned_libraries, ", ") + "]); write the kernel yourself");

  const bool solve_missing = contains(output, "undefined reference to `solve'");
  if (solve_missing)
    headlines.push_back("no solve() with the expected parameters was found (one with other parameter types is a "
                        "different function in C++)");
  const bool signature_conflict =
      contains(output, "solve") && (contains(lower, "conflicting") || contains(lower, "incompatible") ||
                                    contains(output, "more than one instance of overloaded function \"solve\""));
  if (contains(output, "multiple definition of `main'"))
    headlines.push_back("remove main(): the judge's runner has its own");

  std::string message;
  for (const auto& headline : headlines) message += headline + "\n";
  message += first_lines(output);
  if (solve_missing || signature_conflict) message += "\nexpected signature: " + spec.solve_declaration();
  return message;
}

} // namespace judge
