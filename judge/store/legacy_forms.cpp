#include "judge/store/legacy_forms.hpp"

#include "judge/record/record_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

namespace judge::store {

namespace {

// The store's words for the layers (submissions.sandbox, versions 2 to 6).
const std::vector<std::pair<sandbox_layer, std::string>> stored_layer_words = {
    {sandbox_layer::namespaces, "namespaces"},
    {sandbox_layer::pid_namespace, "pid-namespace"},
    {sandbox_layer::private_root, "private-root"},
    {sandbox_layer::cgroup, "cgroup"},
};

// The reports' words for the layers (report/sandbox_text.cpp when the queue kept them, before version 7).
const std::vector<std::pair<sandbox_layer, std::string>> shown_layer_words = {
    {sandbox_layer::namespaces, "namespaces"},
    {sandbox_layer::pid_namespace, "PID namespace"},
    {sandbox_layer::private_root, "private root"},
    {sandbox_layer::cgroup, "cgroup limits"},
};

const std::string all_layers_word = "; all layers";
const std::string missing_word = "; no ";
const std::string unavailable_word = "unavailable: ";

/// The layers after "on": "; all layers", or "; no <layer>: <reason>" repeated.
sandbox_layers layers_from_words(const std::string& rest, const std::string& text, const std::string& file) {
  sandbox_layers layers;
  if (rest == all_layers_word) return layers;
  std::size_t at = 0;
  while (at < rest.size()) {
    bool known = false;
    for (const auto& [layer, word] : stored_layer_words) {
      const std::string head = missing_word + word + ": ";
      if (rest.compare(at, head.size(), head) != 0) continue;
      const std::size_t begin = at + head.size();
      std::size_t end = rest.find(missing_word, begin);
      if (end == std::string::npos) end = rest.size();
      layers.set_missing(layer, rest.substr(begin, end - begin));
      at = end;
      known = true;
      break;
    }
    if (!known) throw std::runtime_error(fmt::format("database '{}' holds an unknown sandbox state '{}'", file, text));
  }
  return layers;
}

/// "on, without PID namespace (why), cgroup limits (why)": each missing layer by its shown word, its
/// reason the text in parentheses up to the next layer's word.
sandbox_layers layers_from_shown(const std::string& list) {
  std::vector<std::pair<std::size_t, sandbox_layer>> starts;
  for (const auto& [layer, word] : shown_layer_words) {
    const std::size_t at = list.find(word + " (");
    if (at != std::string::npos && (at == 0 || list.compare(at - 2, 2, ", ") == 0)) starts.push_back({at, layer});
  }
  std::sort(starts.begin(), starts.end());
  sandbox_layers layers;
  for (std::size_t k = 0; k < starts.size(); ++k) {
    const auto& [at, layer] = starts[k];
    const std::size_t begin = list.find(" (", at) + 2;
    const std::size_t next = k + 1 < starts.size() ? starts[k + 1].first - 2 : list.size(); // before ", "
    const std::size_t end = next > begin && list[next - 1] == ')' ? next - 1 : next;
    layers.set_missing(layer, list.substr(begin, end - begin));
  }
  return layers;
}

sandbox_status sandbox_from_shown(const std::string& text) {
  if (text.empty()) return {};
  if (text == "off") return {sandbox_mode::off, ""};
  if (text.rfind(unavailable_word, 0) == 0) return {sandbox_mode::unavailable, text.substr(unavailable_word.size())};
  const std::string without = "on, without ";
  if (text.rfind(without, 0) == 0) return {sandbox_mode::on, "", layers_from_shown(text.substr(without.size()))};
  return {sandbox_mode::on, ""}; // "on": the reports said so only when every layer was in force
}

} // namespace

sandbox_status sandbox_from_words(const std::string& text, const std::string& file) {
  if (text == "on") { // stored before the layers beyond the namespaces existed
    sandbox_status s{sandbox_mode::on, ""};
    for (sandbox_layer layer : all_sandbox_layers)
      if (layer != sandbox_layer::namespaces)
        s.layers.set_missing(layer, "not part of the sandbox when this was graded");
    return s;
  }
  if (text.rfind("on; ", 0) == 0) return {sandbox_mode::on, "", layers_from_words(text.substr(2), text, file)};
  if (text.empty()) return {};
  if (text == "off") return {sandbox_mode::off, ""};
  if (text.rfind(unavailable_word, 0) == 0) return {sandbox_mode::unavailable, text.substr(unavailable_word.size())};
  throw std::runtime_error(fmt::format("database '{}' holds an unknown sandbox state '{}'", file, text));
}

nlohmann::json upgraded_result_document(nlohmann::json document) {
  if (!document.is_object()) return document;
  if (document.contains("sandbox") && document["sandbox"].is_string()) {
    const std::string text = document["sandbox"].get<std::string>();
    document["sandbox"] = sandbox_json(sandbox_from_shown(text));
    document["sandbox"]["text"] = text;
  }
  for (const char* list : {"kernels", "hints"})
    if (!document.contains(list)) document[list] = nlohmann::json::array();
  if (document.contains("cases") && document["cases"].is_array())
    for (nlohmann::json& c : document["cases"])
      if (c.is_object() && c.contains("timing") && !c.contains("launches")) c["launches"] = nlohmann::json::array();
  return document;
}

} // namespace judge::store
