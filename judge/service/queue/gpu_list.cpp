#include "judge/service/queue/gpu_list.hpp"

#include "judge/compile/compile.hpp"
#include "judge/sandbox/tool_command.hpp"

#include <chrono>
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
    std::vector<std::string> fields;
    std::istringstream parts(line);
    std::string field;
    while (std::getline(parts, field, ',')) fields.push_back(trim(field));
    if (fields.size() < 3 || fields[0].empty() || fields[0].find_first_not_of("0123456789") != std::string::npos)
      continue;
    const std::string cc =
        fields.size() > 3 && fields[3].find_first_not_of("0123456789.") == std::string::npos ? fields[3] : "";
    out.push_back({std::stoi(fields[0]), fields[1], fields[2], cc});
  }
  return out;
}

namespace {
/// [s] nvidia-smi answers in well under a second; a driver that hangs it must not hang the server's start.
constexpr double nvidia_smi_seconds = 20;

/// What nvidia-smi printed for `query`; "" when it is missing, fails or hangs.
std::string gpu_query(const std::string& query) {
  const tool_result r = run_trusted_tool({"nvidia-smi", "--query-gpu=" + query, "--format=csv,noheader"},
                                         std::chrono::duration<double>(nvidia_smi_seconds));
  return r.succeeded() ? r.run.out.kept : "";
}
} // namespace

std::string archs_of(const std::vector<gpu_slot>& gpus) {
  std::string out;
  for (const gpu_slot& g : gpus) {
    if (g.cc.empty()) return "";
    const std::string target = compile_target_of(g.cc);
    if (("," + out + ",").find("," + target + ",") == std::string::npos) out += (out.empty() ? "" : ",") + target;
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
  // compute_cap is known to drivers from 510 on; an older one refuses the whole query.
  std::vector<gpu_slot> present = parse_gpu_list(gpu_query("index,uuid,name,compute_cap"));
  if (present.empty()) present = parse_gpu_list(gpu_query("index,uuid,name"));
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
