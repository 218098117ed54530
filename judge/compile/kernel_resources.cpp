#include "judge/compile/kernel_resources.hpp"

#include "common/demangle.hpp"

#include <map>
#include <regex>
#include <sstream>

namespace judge {
namespace {

int number(const std::smatch& match, std::size_t group) { return std::stoi(match[group].str()); }

/// Splits `text` into lines, each kept or dropped by `keep`, and joins the kept ones.
template <class Keep> std::string filter_lines(const std::string& text, Keep keep) {
  std::istringstream in(text);
  std::string line, kept;
  while (std::getline(in, line))
    if (keep(line)) kept += line + "\n";
  return kept;
}

const std::regex& stack_line() {
  // nvcc 12 and 13: "    272 bytes stack frame, 496 bytes spill stores, 496 bytes spill loads"
  static const std::regex re(R"(^\s+(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  return re;
}

} // namespace

std::vector<kernel_resources> parse_ptxas_resources(const std::string& output) {
  static const std::regex entry(R"(ptxas info\s*: Compiling entry function '([^']+)' for '([^']+)')");
  static const std::regex properties(R"(ptxas info\s*: Function properties for (\S+))");
  // "Used 43 registers, used 1 barriers, 8192 bytes smem" (CUDA 13); older ptxas writes
  // "Used 32 registers, 8192 bytes smem, 388 bytes cmem[0]". smem is absent when it is 0.
  static const std::regex used(R"(ptxas info\s*: Used (\d+) registers)");
  static const std::regex smem(R"((\d+) bytes smem)");

  struct pending {
    kernel_resources kernel;
    std::string symbol;
    bool used_seen = false;
  };
  std::vector<pending> kernels;
  // The stack line belongs to the function named by the "Function properties" line just before it,
  // which ptxas may print after the kernel's other lines (a called device function's block comes last).
  // One unit's output follows another's: a name's latest entry is the one the properties refer to.
  std::map<std::string, std::size_t> latest; // symbol + arch → index in kernels
  std::string current_arch;
  std::string properties_of; // the symbol whose stack line comes next, "" when none
  int current = -1;          // the kernel whose "Used" line comes next

  std::istringstream in(output);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, entry)) {
      pending p;
      p.symbol = m[1].str();
      p.kernel.name = judge_symbols::demangled(p.symbol); // an extern "C" kernel's symbol is its name
      p.kernel.arch = current_arch = m[2].str();
      latest[p.symbol + "\n" + current_arch] = kernels.size();
      current = static_cast<int>(kernels.size());
      kernels.push_back(std::move(p));
      properties_of.clear();
    } else if (std::regex_search(line, m, properties)) {
      properties_of = m[1].str();
    } else if (!properties_of.empty() && std::regex_search(line, m, stack_line())) {
      auto found = latest.find(properties_of + "\n" + current_arch);
      if (found != latest.end()) {
        kernel_resources& k = kernels[found->second].kernel;
        k.local_bytes = number(m, 1);
        k.spill_store_bytes = number(m, 2);
        k.spill_load_bytes = number(m, 3);
      }
      properties_of.clear();
    } else if (current >= 0 && std::regex_search(line, m, used)) {
      pending& p = kernels[static_cast<std::size_t>(current)];
      p.kernel.registers = number(m, 1);
      std::smatch shared;
      if (std::regex_search(line, shared, smem)) p.kernel.static_shared_bytes = number(shared, 1);
      p.used_seen = true;
      current = -1;
    }
  }
  std::vector<kernel_resources> result;
  for (pending& p : kernels)
    if (p.used_seen) result.push_back(std::move(p.kernel));
  return result;
}

bool is_ptxas_info_line(const std::string& line) {
  return line.rfind("ptxas info", 0) == 0 || std::regex_search(line, stack_line());
}

std::string without_ptxas_info(const std::string& output) {
  return filter_lines(output, [](const std::string& line) { return !is_ptxas_info_line(line); });
}

std::string ptxas_info_only(const std::string& output) { return filter_lines(output, is_ptxas_info_line); }

} // namespace judge
