#include "judge/run/device_probe.hpp"

#include "common/no_device.hpp"
#include "judge/base/environment.hpp"
#include "judge/base/install_layout.hpp"
#include "judge/sandbox/process.hpp"

#include <nlohmann/json.hpp>

#include <cstdlib>

namespace judge {

probe_result parse_probe_output(const std::string& json_line) {
  probe_result r;
  auto j = nlohmann::json::parse(json_line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    r.error = "the GPU probe printed something unexpected: " + json_line.substr(0, 200);
    return r;
  }
  if (j.contains("error")) {
    // gpu_probe.cu says "no CUDA device: <the runtime's words>" (and exits with 3) when the runtime finds
    // none; any other error is the probe's own failure.
    static const std::string no_device = "no CUDA device: ";
    r.error = j.value("error", "");
    if (r.error.rfind(no_device, 0) == 0) {
      r.no_device = true;
      r.error.erase(0, no_device.size());
    }
    return r;
  }
  device_info d;
  d.name = j.value("device", "");
  d.uuid = j.value("uuid", "");
  d.cc = j.value("cc", "");
  d.sms = j.value("sms", 0);
  d.l2_bytes = j.value("l2_bytes", std::int64_t{0});
  d.memory_bytes = j.value("memory_bytes", std::int64_t{0});
  d.clock_max_mhz = j.value("clock_max_mhz", 0.0);
  d.fp32_peak_gflops = j.value("fp32_peak_gflops", 0.0);
  d.measured_bandwidth_gbps = j.value("copy_gbps", 0.0);
  d.dram_peak_gbps = j.value("dram_peak_gbps", 0.0);
  r.device = d;
  r.line = json_line;
  return r;
}

toolchain toolchain_for(const probe_result& probe) {
  toolchain tools = default_toolchain();
  if (probe.device && !env_value(judge_env::archs)) {
    const std::string target = compile_target_of(probe.device->cc);
    if (!target.empty()) tools.archs = {target};
  }
  return tools;
}

probe_result probe_device(bool bandwidth) {
  process_options p;
  const std::string probe = judge_layout().gpu_probe.string();
  p.argv = {probe};
  if (bandwidth) p.argv.push_back("--bandwidth");
  p.env = child_environment();
  try {
    const auto run = run_to_completion(p, std::chrono::seconds(120));
    const std::string& out = run.out.kept;
    const auto line_end = out.find('\n');
    const std::string line = out.substr(0, line_end);
    if (line.empty()) {
      probe_result r;
      r.error = "the GPU probe " + describe(run.status) + " without saying anything: " + run.err.kept.substr(0, 300);
      return r;
    }
    probe_result r = parse_probe_output(line);
    if (r.no_device) r.error = judge_device::no_device_reason(r.error, judge_device::nvidia_driver_loaded());
    return r;
  } catch (const std::exception& e) {
    probe_result r;
    r.error = "cannot run the GPU probe (" + probe + "): " + e.what();
    return r;
  }
}

} // namespace judge
