#include "gpu_list.hpp"

#include <cstdio>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace judge::service {

namespace {
std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}
} // namespace

std::vector<gpu_slot> parse_gpu_list(const std::string& csv) {
  std::vector<gpu_slot> out;
  std::istringstream lines(csv);
  std::string line;
  while (std::getline(lines, line)) {
    const auto first = line.find(','), second = line.find(',', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string index = trim(line.substr(0, first));
    if (index.empty() || index.find_first_not_of("0123456789") != std::string::npos) continue;
    out.push_back({std::stoi(index), trim(line.substr(first + 1, second - first - 1)), trim(line.substr(second + 1))});
  }
  return out;
}

std::vector<gpu_slot> find_gpus(const std::string& which, std::string& why) {
  std::vector<int> wanted;
  if (which != "all") {
    std::istringstream parts(which);
    std::string part;
    while (std::getline(parts, part, ',')) {
      part = trim(part);
      if (part.empty() || part.size() > 3 || part.find_first_not_of("0123456789") != std::string::npos)
        throw std::invalid_argument("--gpus " + which + ": give all, or GPU indexes such as 0,1");
      wanted.push_back(std::stoi(part));
    }
  }
  std::string csv;
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(
      popen("nvidia-smi --query-gpu=index,uuid,name --format=csv,noheader 2>/dev/null", "r"), pclose);
  if (pipe) {
    char buffer[4096];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe.get())) > 0) csv.append(buffer, n);
  }
  const std::vector<gpu_slot> present = parse_gpu_list(csv);
  if (present.empty()) why = "nvidia-smi lists no GPU";
  if (wanted.empty()) return present;
  std::vector<gpu_slot> chosen;
  for (int index : wanted) {
    bool found = false;
    for (const gpu_slot& g : present)
      if (g.index == index) {
        chosen.push_back(g);
        found = true;
      }
    if (!found)
      throw std::invalid_argument("--gpus " + which + ": there is no GPU " + std::to_string(index) + " (" +
                                  std::to_string(present.size()) + " present)");
  }
  return chosen;
}

} // namespace judge::service
