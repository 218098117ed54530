#include "judge/problem/case_set_version.hpp"

#include "judge/problem/spec_yaml.hpp"
#include "common/hex.hpp"

#include <openssl/evp.h>
#include <yaml-cpp/yaml.h>

#include <array>
#include <stdexcept>

namespace judge {

namespace {

/// The node as text that depends on its content only: scalars length-prefixed (so no scalar can imitate
/// the punctuation), mappings in file order.
void canonical(const YAML::Node& node, std::string& out) {
  switch (node.Type()) {
  case YAML::NodeType::Scalar: {
    const std::string& text = node.Scalar();
    out += 's' + std::to_string(text.size()) + ':' + text;
    break;
  }
  case YAML::NodeType::Sequence:
    out += '[';
    for (const YAML::Node& item : node) canonical(item, out);
    out += ']';
    break;
  case YAML::NodeType::Map:
    out += '{';
    for (const auto& item : node) {
      canonical(item.first, out);
      canonical(item.second, out);
    }
    out += '}';
    break;
  default:
    out += '~';
  }
}

bool changes_no_grade(const std::string& field) {
  return field == "title" || field == "statement" || field == "status" || field == "leetgpu";
}

} // namespace

std::string case_set_version(const std::filesystem::path& problem_file, const std::filesystem::path& cases_file) {
  std::string text = "problem";
  const YAML::Node problem = spec_yaml::load(problem_file, spec_yaml::shown_path(problem_file));
  if (problem.IsMap()) {
    text += '{';
    for (const auto& item : problem)
      if (!item.first.IsScalar() || !changes_no_grade(item.first.Scalar())) {
        canonical(item.first, text);
        canonical(item.second, text);
      }
    text += '}';
  } else {
    canonical(problem, text);
  }
  text += "cases";
  canonical(spec_yaml::load(cases_file, spec_yaml::shown_path(cases_file)), text);

  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  if (EVP_Digest(text.data(), text.size(), digest.data(), &length, EVP_sha256(), nullptr) != 1 || length < 6)
    throw std::runtime_error("OpenSSL could not compute SHA-256 for the case set of " + problem_file.string());
  return judge_hex::encode(digest.data(), 6);
}

std::string case_set_label(const std::string& version) { return version.empty() ? "unknown" : version; }

} // namespace judge
