#include "judge/service/queue/submission_request.hpp"

#include <nlohmann/json.hpp>

#include <ctime>
#include <set>

namespace judge::service {

namespace {
bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string kib(std::size_t bytes) { return std::to_string(bytes / 1024) + " KiB"; }
} // namespace

bool valid_source_name(const std::string& name) {
  if (name.empty() || name.size() > 100 || name[0] == '.') return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-')) return false;
  return ends_with(name, ".cu") || ends_with(name, ".cuh") || ends_with(name, ".h");
}

void check_submission(const submission_request& request, const submission_limits& limits,
                      const std::function<bool(const std::string&)>& known_problem) {
  if (!known_problem(request.problem))
    throw bad_request("unknown problem \"" + request.problem + "\" (see /api/v1/problems)");
  const auto& files = request.files;
  if (files.empty()) throw bad_request("no files: submit at least one .cu file");
  if (files.size() > limits.max_files)
    throw bad_request(std::to_string(files.size()) + " files: at most " + std::to_string(limits.max_files) +
                      " per submission");
  std::set<std::string> names;
  bool has_cu = false;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string where = "files[" + std::to_string(i) + "]";
    const std::string& name = files[i].name;
    if (!valid_source_name(name))
      throw bad_request(where + ": file name \"" + name + "\" is not allowed: use letters, digits, '_', '.', '-' " +
                        "ending in .cu, .cuh or .h (no folders)");
    if (!names.insert(name).second) throw bad_request(where + ": \"" + name + "\" appears twice");
    if (files[i].content.size() > limits.max_file_bytes)
      throw bad_request(where + ": \"" + name + "\" is " + kib(files[i].content.size()) + ", more than the " +
                        kib(limits.max_file_bytes) + " a file may be");
    has_cu = has_cu || ends_with(name, ".cu");
  }
  if (!has_cu) throw bad_request("no .cu file: the solution is the first .cu file by name");
}

submission_request parse_submission_request(const std::string& body, const submission_limits& limits,
                                            const std::function<bool(const std::string&)>& known_problem) {
  nlohmann::json doc;
  // The field being read when the parser fails: a number out of range (1e999999) is named by its field.
  std::string field;
  const nlohmann::json::parser_callback_t track = [&](int, nlohmann::json::parse_event_t event, nlohmann::json& value) {
    if (event == nlohmann::json::parse_event_t::key) field = value.get<std::string>();
    return true;
  };
  try {
    doc = nlohmann::json::parse(body, track);
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann's own words say where ("at line 1, column 12") and what (also ill-formed UTF-8).
    throw bad_request(std::string("the body is not valid JSON: ") + e.what());
  } catch (const nlohmann::json::out_of_range& e) {
    throw bad_request((field.empty() ? std::string("a number") : "\"" + field + "\"") +
                      " holds a number too large for JSON's doubles (" + e.what() + ")");
  }
  if (!doc.is_object()) throw bad_request("the body must be a JSON object {\"problem\": ..., \"files\": [...]}");
  if (!doc.contains("problem") || !doc["problem"].is_string())
    throw bad_request("\"problem\" is missing or not a string");
  submission_request out;
  out.problem = doc["problem"].get<std::string>();
  if (!known_problem(out.problem)) throw bad_request("unknown problem \"" + out.problem + "\" (see /api/v1/problems)");
  if (!doc.contains("files") || !doc["files"].is_array())
    throw bad_request("\"files\" is missing or not an array of {\"name\", \"content\"}");
  const auto& files = doc["files"];
  // Counted before reading: a body of a million tiny files is refused without building them.
  if (files.size() > limits.max_files)
    throw bad_request(std::to_string(files.size()) + " files: at most " + std::to_string(limits.max_files) +
                      " per submission");
  for (std::size_t i = 0; i < files.size(); ++i) {
    const auto& f = files[i];
    if (!f.is_object() || !f.contains("name") || !f["name"].is_string() || !f.contains("content") ||
        !f["content"].is_string())
      throw bad_request("files[" + std::to_string(i) + "] must be {\"name\": string, \"content\": string}");
    out.files.push_back({f["name"].get<std::string>(), f["content"].get<std::string>()});
  }
  check_submission(out, limits, known_problem);
  return out;
}

std::string utc_text(std::chrono::system_clock::time_point t) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
  std::tm parts{};
  gmtime_r(&seconds, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
}

std::optional<refusal> rate_limit(submission_queue& queue, const std::string& account, int per_minute,
                                  int queued_at_once, std::chrono::system_clock::time_point now) {
  const std::size_t waiting = queue.queued_of(account);
  if (waiting >= static_cast<std::size_t>(queued_at_once))
    return refusal{"you have " + std::to_string(waiting) + " submissions waiting to be graded (at most " +
                       std::to_string(queued_at_once) + " at once): submit again when one is done",
                   5};
  const std::size_t recent = queue.submitted_since(account, utc_text(now - std::chrono::seconds(60)));
  if (recent >= static_cast<std::size_t>(per_minute))
    return refusal{"you made " + std::to_string(recent) + " submissions in the last minute (at most " +
                       std::to_string(per_minute) + "): wait a minute",
                   60};
  return std::nullopt;
}

} // namespace judge::service
