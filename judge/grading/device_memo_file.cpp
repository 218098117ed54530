#include "judge/grading/device_memo_file.hpp"

#include "judge/base/file_input.hpp"
#include "judge/base/file_output.hpp"
#include "judge/base/utc_time.hpp"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>

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

json read_file_json(const std::filesystem::path& file) {
  std::error_code unreadable;
  const std::optional<std::string> text = read_file(file, unreadable);
  if (!text) return json::object();
  json j = json::parse(*text, nullptr, false);
  return j.is_object() ? j : json::object();
}

} // namespace

std::string probe_machine_key() {
  return first_line_of("/proc/sys/kernel/random/boot_id") + "|" + first_line_of("/proc/driver/nvidia/version") +
         "|" + env_text("CUDA_VISIBLE_DEVICES") + "|" + env_text("CUDA_DEVICE_ORDER");
}

std::optional<kept_probe> read_kept_probe(const std::filesystem::path& file, bool bandwidth,
                                          std::chrono::seconds max_age, const std::string& machine_key) {
  const json j = read_file_json(file);
  if (j.value("machine", std::string()) != machine_key) return std::nullopt;
  const auto slot = j.find(slot_name(bandwidth));
  if (slot == j.end() || !slot->is_object()) return std::nullopt;
  const std::int64_t age = epoch_seconds_now() - slot->value("at", std::int64_t{0});
  if (age < 0 || age >= max_age.count()) return std::nullopt;
  probe_result r = parse_probe_output(slot->value("line", std::string()));
  if (!r.device || r.device->name.empty()) return std::nullopt;
  return kept_probe{std::move(r), std::chrono::seconds(age)};
}

void keep_probe(const std::filesystem::path& file, bool bandwidth, const probe_result& answer,
                const std::string& machine_key) {
  if (!answer.device || answer.line.empty()) return;
  json j = read_file_json(file);
  if (j.value("machine", std::string()) != machine_key) j = json::object(); // the other answer is stale too
  j["machine"] = machine_key;
  j[slot_name(bandwidth)] = {{"at", epoch_seconds_now()}, {"line", answer.line}};
  try {
    publish_file(file, j.dump(1) + "\n", {on_existing::replace, 0644, false});
  } catch (const std::exception&) {
    // A cache that cannot be written costs the next run a probe, nothing else.
  }
}

} // namespace judge
