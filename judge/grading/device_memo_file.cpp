#include "judge/grading/device_memo_file.hpp"

#include "judge/base/file_output.hpp"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace judge {

namespace {

using json = nlohmann::json;

std::string first_line_of(const char* path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::string env_text(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "-";
}

const char* slot_name(bool bandwidth) { return bandwidth ? "with_bandwidth" : "plain"; }

std::int64_t now_s() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The probe's own field names (parse_probe_output reads them back).
json device_json(const device_info& d) {
  return {{"device", d.name},
          {"uuid", d.uuid},
          {"cc", d.cc},
          {"sms", d.sms},
          {"l2_bytes", d.l2_bytes},
          {"memory_bytes", d.memory_bytes},
          {"clock_max_mhz", d.clock_max_mhz},
          {"fp32_peak_gflops", d.fp32_peak_gflops},
          {"copy_gbps", d.measured_bandwidth_gbps},
          {"dram_peak_gbps", d.dram_peak_gbps}};
}

json read_file_json(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) return json::object();
  std::stringstream text;
  text << in.rdbuf();
  json j = json::parse(text.str(), nullptr, false);
  return j.is_object() ? j : json::object();
}

} // namespace

std::string probe_machine_key() {
  return first_line_of("/proc/sys/kernel/random/boot_id") + "|" + first_line_of("/proc/driver/nvidia/version") +
         "|" + env_text("CUDA_VISIBLE_DEVICES") + "|" + env_text("CUDA_DEVICE_ORDER");
}

std::optional<probe_result> read_kept_probe(const std::filesystem::path& file, bool bandwidth,
                                            std::chrono::seconds max_age, const std::string& machine_key) {
  const json j = read_file_json(file);
  if (j.value("machine", std::string()) != machine_key) return std::nullopt;
  const auto slot = j.find(slot_name(bandwidth));
  if (slot == j.end() || !slot->is_object()) return std::nullopt;
  const std::int64_t at = slot->value("at", std::int64_t{0});
  const std::int64_t age = now_s() - at;
  if (age < 0 || age >= max_age.count()) return std::nullopt;
  const auto device = slot->find("answer");
  if (device == slot->end() || !device->is_object()) return std::nullopt;
  probe_result r = parse_probe_output(device->dump());
  if (!r.device || r.device->name.empty()) return std::nullopt;
  return r;
}

void keep_probe(const std::filesystem::path& file, bool bandwidth, const probe_result& answer,
                const std::string& machine_key) {
  if (!answer.device) return;
  json j = read_file_json(file);
  if (j.value("machine", std::string()) != machine_key) j = json::object(); // the other answer is stale too
  j["machine"] = machine_key;
  j[slot_name(bandwidth)] = {{"at", now_s()}, {"answer", device_json(*answer.device)}};
  try {
    publish_file(file, j.dump(1) + "\n", {on_existing::replace, 0644, false});
  } catch (const std::exception&) {
    // A cache that cannot be written costs the next run a probe, nothing else.
  }
}

} // namespace judge
