#include "judge/grading/baseline_cache.hpp"

#include "judge/base/file_input.hpp"
#include "judge/record/record_json.hpp"
#include "judge/base/file_output.hpp"
#include "judge/base/utc_time.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <system_error>

namespace judge {

namespace fs = std::filesystem;

namespace {
constexpr int format_version = 2;
constexpr int oldest_readable_format = 1;

fs::path entry_path(const fs::path& folder, const std::string& key) { return folder / ("baseline-" + key); }

// Format 1 named a timing's throttled samples "discarded"; the record's codec names them
// "discarded_throttled" everywhere since format 2. A format-1 entry is read by renaming that field.
nlohmann::json upgraded_timings(const nlohmann::json& j) {
  nlohmann::json timings = j.at("timings");
  if (j.at("format").get<int>() == 1)
    for (auto& [name, t] : timings.items()) {
      t["discarded_throttled"] = t.at("discarded");
      t.erase("discarded");
    }
  return timings;
}
} // namespace

std::optional<cached_baseline> load_baseline(const fs::path& folder, const std::string& key,
                                             std::chrono::seconds max_age) {
  const fs::path entry = entry_path(folder, key);
  std::error_code missing;
  const auto text = read_file(entry / "record.json", missing);
  if (!text) return std::nullopt;
  try {
    const nlohmann::json j = nlohmann::json::parse(*text);
    const int format = j.at("format").get<int>();
    if (format < oldest_readable_format || format > format_version || j.at("key").get<std::string>() != key)
      return std::nullopt;
    cached_baseline cached;
    cached.timed_at = j.at("timed_at").get<std::int64_t>();
    const std::int64_t age = epoch_seconds_now() - cached.timed_at;
    if (age < 0 || age > max_age.count()) return std::nullopt;
    for (const auto& c : j.at("disagreeing_cases")) cached.record.disagreeing_cases.insert(c.get<std::size_t>());
    const nlohmann::json timings = upgraded_timings(j);
    for (const auto& [name, t] : timings.items())
      cached.record.timings[name] = timing_from_json(t, "baseline cache entry " + key + " timing " + name + ": ");
    std::ifstream values(entry / "outputs.f32", std::ios::binary);
    const auto& outputs = j.at("outputs");
    if (!outputs.empty() && !values) return std::nullopt;
    for (const auto& o : outputs) {
      std::vector<float> buffer(o.at("count").get<std::size_t>());
      values.read(reinterpret_cast<char*>(buffer.data()), static_cast<std::streamsize>(buffer.size() * sizeof(float)));
      if (!values) return std::nullopt; // cut short: the whole entry is ignored
      cached.record.outputs[{o.at("case").get<std::size_t>(), o.at("check").get<int>()}][o.at("buffer")] =
          std::move(buffer);
    }
    return cached;
  } catch (const std::exception&) {
    return std::nullopt; // not what this judge wrote: ignored, and replaced by the next store
  }
}

bool store_baseline(const fs::path& folder, const std::string& key, const baseline_record& record,
                    std::uintmax_t cap) {
  std::uintmax_t bytes = 0;
  for (const auto& [where, buffers] : record.outputs)
    for (const auto& [name, values] : buffers) bytes += values.size() * sizeof(float);
  if (bytes > cap) return false;
  nlohmann::json j = {{"format", format_version}, {"key", key}, {"timed_at", epoch_seconds_now()}};
  j["disagreeing_cases"] = record.disagreeing_cases;
  j["timings"] = nlohmann::json::object();
  for (const auto& [name, t] : record.timings) j["timings"][name] = timing_json(t);
  j["outputs"] = nlohmann::json::array();
  std::error_code error;
  fs::create_directories(folder, error);
  const fs::path entry = entry_path(folder, key);
  staged_path staged(entry);
  const fs::path& staging = staged.path();
  if (!fs::create_directory(staging, error)) return false;
  {
    std::ofstream values(staging / "outputs.f32", std::ios::binary);
    for (const auto& [where, buffers] : record.outputs)
      for (const auto& [name, buffer] : buffers) {
        j["outputs"].push_back(
            {{"case", where.first}, {"check", where.second}, {"buffer", name}, {"count", buffer.size()}});
        values.write(reinterpret_cast<const char*>(buffer.data()),
                     static_cast<std::streamsize>(buffer.size() * sizeof(float)));
      }
    std::ofstream facts(staging / "record.json");
    facts << j.dump() << "\n";
    if (!values.flush() || !facts.flush()) return false; // the staged folder goes with `staged`
  }
  // An older entry under the key (one past its age) makes way; the rename then publishes the new one whole.
  // Another judge that published the same entry first keeps it.
  try {
    return staged.publish(on_existing::replace);
  } catch (const std::system_error&) {
    return false;
  }
}

} // namespace judge
