#include "judge/problem/spec_yaml.hpp"

#include "judge/base/file_input.hpp"

#include <algorithm>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <system_error>

namespace judge::spec_yaml {
namespace {

namespace fs = std::filesystem;

/// Edits (insert, delete, replace, swap of neighbours) that turn `a` into `b`.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

/// The allowed name a typo most likely meant, or "" when none is close enough to be a typo.
std::string closest(const std::string& name, const std::vector<std::string>& allowed) {
  if (name.empty()) return "";
  // One slip in a short name, two in a longer one; replacing every letter is not a typo ('Q' is not 'M').
  const std::size_t tolerated = std::min(name.size() <= 4 ? std::size_t{1} : std::size_t{2}, name.size() - 1);
  std::string best;
  std::size_t best_distance = tolerated + 1;
  for (const auto& candidate : allowed) {
    const std::size_t d = edit_distance(name, candidate);
    if (d < best_distance) {
      best = candidate;
      best_distance = d;
    }
  }
  return best;
}

/// YAML 1.2 core-schema floats: [-+]?(digits[.digits]|.digits)([eE][-+]?digits)?, .inf, .nan.
bool parse_double(const std::string& s, double& out) {
  static const std::vector<std::string> infinities{".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"};
  static const std::vector<std::string> nans{".nan", ".NaN", ".NAN"};
  if (std::find(infinities.begin(), infinities.end(), s) != infinities.end()) {
    out = HUGE_VAL;
    return true;
  }
  if (s.size() > 1 && s[0] == '-' && std::find(infinities.begin(), infinities.end(), s.substr(1)) != infinities.end()) {
    out = -HUGE_VAL;
    return true;
  }
  if (std::find(nans.begin(), nans.end(), s) != nans.end()) {
    out = std::nan("");
    return true;
  }
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i - start;
  };
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  std::size_t mantissa = digits();
  if (i < s.size() && s[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  if (i != s.size()) return false;
  // from_chars: locale independent, and it rejects a leading '+', which the grammar above allowed.
  const char* first = s.data() + (s[0] == '+' ? 1 : 0);
  const auto [end, ec] = std::from_chars(first, s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

enum class int_parse { ok, not_integer, out_of_range };

/// Decimal or 0x-hexadecimal integer with an optional sign, split into sign and magnitude.
int_parse parse_integer(const std::string& s, bool& negative, std::uint64_t& magnitude) {
  std::size_t i = 0;
  negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  int base = 10;
  if (s.size() > i + 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
    base = 16;
    i += 2;
  }
  if (i == s.size()) return int_parse::not_integer;
  const auto [end, ec] = std::from_chars(s.data() + i, s.data() + s.size(), magnitude, base);
  if (end != s.data() + s.size()) return int_parse::not_integer;
  return ec == std::errc() ? int_parse::ok : int_parse::out_of_range;
}

std::string quoted(const std::string& s) {
  constexpr std::size_t longest = 60; // a message quotes the start of a long value, not all of it
  std::string out = "\"";
  for (char c : s.substr(0, longest)) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + (s.size() > longest ? "...\"" : "\"");
}

/// One parameter of a distribution kind: its name in YAML, the field of judge_data::distribution it
/// fills (0: a, 1: b, 2 to 5: more[0] to more[3]), and its value when the YAML leaves it out (none:
/// required).
struct param_info {
  const char* name;
  int slot;
  std::optional<double> absent = std::nullopt;
};

struct kind_info {
  const char* name;
  judge_data::distribution_kind kind;
  std::vector<param_info> params;
};

double& slot_of(judge_data::distribution& d, int slot) { return slot == 0 ? d.a : slot == 1 ? d.b : d.more[slot - 2]; }

const std::vector<kind_info>& distribution_kinds() {
  using k = judge_data::distribution_kind;
  static const std::vector<kind_info> kinds{
      {"uniform", k::uniform, {{"low", 0}, {"high", 1}}},
      {"normal", k::normal, {{"mean", 0}, {"stddev", 1}}},
      {"constant", k::constant, {{"value", 0}}},
      {"cancel", k::cancel, {{"low", 0}, {"high", 1}}},
      {"uniform_int", k::uniform_int, {{"low", 0}, {"high", 1}}},
      {"ramp", k::ramp, {{"start", 0}, {"step", 1}}},
      {"offsets", k::offsets, {{"total", 0}, {"skew", 1}}},
      {"sparse", k::sparse, {{"nonzeros", 0}, {"magnitude", 1}}},
      {"spike", k::spike, {{"low", 0}, {"high", 1}, {"value", 2}, {"at", 3, judge_data::spike_at_random}}},
      {"alternating", k::alternating, {{"low", 0}, {"high", 1}}},
      // A few percent of each special class by default: enough of each in a thousand elements.
      {"special",
       k::special,
       {{"low", 0},
        {"high", 1},
        {"zeros", 2, 0.05},
        {"denormals", 3, 0.05},
        {"large", 4, 0.05},
        {"infinities", 5, 0.0}}},
  };
  return kinds;
}

} // namespace

std::filesystem::path clean_path(const std::filesystem::path& path) {
  fs::path p = fs::absolute(path).lexically_normal();
  if (p.filename().empty() && p.has_parent_path()) p = p.parent_path();
  return p;
}

std::string shown_path(const std::filesystem::path& file) {
  const fs::path p = clean_path(file);
  std::vector<fs::path> parts(p.begin(), p.end());
  if (parts.size() <= 3) return p.string();
  return (parts[parts.size() - 3] / parts[parts.size() - 2] / parts.back()).string();
}

YAML::Node load(const std::filesystem::path& file, const std::string& shown) {
  std::error_code error;
  const std::optional<std::string> text = read_file(file, error);
  if (!text) throw spec_error(shown + ": cannot read it (" + error.message() + ")");
  try {
    return YAML::Load(*text);
  } catch (const YAML::Exception& e) {
    const std::string line = e.mark.line >= 0 ? ":" + std::to_string(e.mark.line + 1) : "";
    throw spec_error(shown + line + ": not valid YAML: " + e.msg);
  }
}

std::string describe(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "nothing";
  if (node.IsSequence()) return "a list";
  if (node.IsMap()) return "a mapping";
  return quoted(node.Scalar());
}

std::string join_field(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

std::string join_list(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

const YAML::Node* fields::find(const std::string& key) const {
  auto it = m_values.find(key);
  return it == m_values.end() ? nullptr : &it->second;
}

reader reader::within(const std::string& context) const {
  reader r(*this);
  r.m_context = m_context.empty() ? context : m_context + ": " + context;
  return r;
}

std::string reader::where(const YAML::Node& at) const {
  if (!at.IsDefined()) return m_file;
  if (at.IsNull())
    for (const auto& [value, line] : *m_empty_values)
      if (value.is(at)) return m_file + ":" + std::to_string(line);
  const YAML::Mark mark = at.Mark();
  return mark.line < 0 ? m_file : m_file + ":" + std::to_string(mark.line + 1);
}

void reader::fail(const YAML::Node& at, const std::string& message) const {
  throw spec_error(where(at) + ": " + (m_context.empty() ? "" : m_context + ": ") + message);
}

void reader::fail_field(const YAML::Node& at, const std::string& field, const std::string& message) const {
  fail(at, "field '" + field + "': " + message);
}

fields reader::mapping(const YAML::Node& node, const std::string& field, const std::vector<std::string>& allowed,
                       const std::string& allowed_note) const {
  fields f;
  f.m_node = node;
  if (node.IsNull()) return f;
  if (!node.IsMap()) {
    const std::string expected = "expected a mapping with the fields " + join_list(allowed) + ", got " + describe(node);
    if (field.empty()) fail(node, expected);
    fail_field(node, field, expected);
  }
  std::map<std::string, int> lines;
  for (auto it = node.begin(); it != node.end(); ++it) {
    const YAML::Node key = it->first;
    if (!key.IsScalar()) fail(key, "field names must be plain words, got " + describe(key));
    const std::string name = key.Scalar();
    const std::string full = join_field(field, name);
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
      const std::string guess = closest(name, allowed);
      fail(key, "unknown field '" + full + "'" +
                    (guess.empty() ? "" : "; did you mean '" + join_field(field, guess) + "'?") + " (allowed" +
                    (field.empty() ? "" : " in '" + field + "'") + allowed_note + ": " +
                    (allowed.empty() ? "none" : join_list(allowed)) + ")");
    }
    const int line = key.Mark().line + 1;
    if (!lines.emplace(name, line).second)
      fail(key, "field '" + full + "' appears twice (first on line " + std::to_string(lines[name]) + ")");
    if (it->second.IsNull()) m_empty_values->emplace_back(it->second, line);
    f.m_keys.push_back(name);
    f.m_values.emplace(name, it->second);
  }
  return f;
}

const YAML::Node& reader::required(const fields& f, const std::string& field, const std::string& key,
                                   const std::string& why) const {
  if (const YAML::Node* value = f.find(key)) return *value;
  fail(f.node(), "field '" + join_field(field, key) + "' is required" + (why.empty() ? "" : " (" + why + ")"));
}

double reader::number(const YAML::Node& node, const std::string& field) const {
  double value = 0;
  if (!node.IsScalar() || !parse_double(node.Scalar(), value))
    fail_field(node, field, "expected a number, got " + describe(node));
  return value;
}

std::int64_t reader::integer(const YAML::Node& node, const std::string& field) const {
  bool negative = false;
  std::uint64_t magnitude = 0;
  const int_parse parsed = node.IsScalar() ? parse_integer(node.Scalar(), negative, magnitude) : int_parse::not_integer;
  if (parsed == int_parse::not_integer) fail_field(node, field, "expected an integer, got " + describe(node));
  const std::uint64_t limit = negative ? std::uint64_t{1} << 63 : (std::uint64_t{1} << 63) - 1;
  if (parsed == int_parse::out_of_range || magnitude > limit)
    fail_field(node, field, "expected an integer that fits in 64 bits, got " + describe(node));
  return negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
}

std::uint64_t reader::unsigned_integer(const YAML::Node& node, const std::string& field) const {
  bool negative = false;
  std::uint64_t magnitude = 0;
  const int_parse parsed = node.IsScalar() ? parse_integer(node.Scalar(), negative, magnitude) : int_parse::not_integer;
  if (parsed == int_parse::not_integer) fail_field(node, field, "expected an integer, got " + describe(node));
  if (parsed == int_parse::out_of_range || (negative && magnitude != 0))
    fail_field(node, field, "expected an integer from 0 to 18446744073709551615, got " + describe(node));
  return magnitude;
}

bool reader::boolean(const YAML::Node& node, const std::string& field) const {
  bool value = false;
  if (!node.IsScalar() || !YAML::convert<bool>::decode(node, value))
    fail_field(node, field, "expected true or false, got " + describe(node));
  return value;
}

std::string reader::text(const YAML::Node& node, const std::string& field) const {
  if (!node.IsScalar() || node.Scalar().empty()) fail_field(node, field, "expected text, got " + describe(node));
  return node.Scalar();
}

std::vector<std::string> reader::text_list(const YAML::Node& node, const std::string& field) const {
  std::vector<std::string> items;
  if (node.IsNull()) return items;
  if (!node.IsSequence()) fail_field(node, field, "expected a list such as [a, b], got " + describe(node));
  for (std::size_t i = 0; i < node.size(); ++i) items.push_back(text(node[i], field + "[" + std::to_string(i) + "]"));
  return items;
}

namespace {

/// A spike's background range may be a single value (low = high), and its place a whole index.
void check_spike(const reader& in, const fields& f, const std::string& field, const judge_data::distribution& d) {
  if (!(d.a <= d.b))
    in.fail_field(f.node(), field,
                  "low must not be above high (low = high: every other element is low), got low " +
                      f.find("low")->Scalar() + " and high " + f.find("high")->Scalar());
  const double at = d.more[1];
  if (at == judge_data::spike_at_random || at == judge_data::spike_at_last) return;
  if (at != std::floor(at) || at < 0 || at > 9007199254740992.0)
    in.fail_field(*f.find("at"), join_field(field, "at"),
                  "must be an element's index (a whole number from 0) or 'last'; leave it out for an index drawn "
                  "from the seed; got " +
                      f.find("at")->Scalar());
}

/// Each special class is drawn with its probability; what is left is ordinary values.
void check_special(const reader& in, const fields& f, const std::string& field, const judge_data::distribution& d) {
  if (!(d.a < d.b))
    in.fail_field(f.node(), field,
                  "low must be below high, got low " + f.find("low")->Scalar() + " and high " +
                      f.find("high")->Scalar());
  // The classes in the order of distribution::more (judge_data::special_element).
  const char* classes[] = {"zeros", "denormals", "large", "infinities"};
  double total = 0;
  for (int k = 0; k < 4; ++k) {
    const double p = d.more[k];
    // Only a given probability can be out of range: the defaults are not.
    if (!(p >= 0 && p <= 1))
      in.fail_field(*f.find(classes[k]), join_field(field, classes[k]),
                    "is a probability, from 0 to 1, got " + f.find(classes[k])->Scalar());
    total += p;
  }
  if (total > 1)
    in.fail_field(f.node(), field,
                  "the probabilities of zeros, denormals, large and infinities add up to " + std::to_string(total) +
                      ", more than 1");
}

} // namespace

judge_data::distribution reader::distribution(const YAML::Node& node, const std::string& field) const {
  if (!node.IsMap())
    fail_field(node, field,
               "expected a distribution such as {kind: uniform, low: -1.0, high: 1.0}, got " + describe(node));
  std::vector<std::string> kind_names;
  for (const auto& k : distribution_kinds()) kind_names.push_back(k.name);

  // The kind decides which other fields belong, so it is read first.
  const YAML::Node kind_node = node["kind"];
  if (!kind_node.IsDefined())
    fail(node, "field '" + join_field(field, "kind") + "' is required (one of " + join_list(kind_names) + ")");
  const std::string kind_name = text(kind_node, join_field(field, "kind"));
  auto info = std::find_if(distribution_kinds().begin(), distribution_kinds().end(),
                           [&](const kind_info& k) { return kind_name == k.name; });
  if (info == distribution_kinds().end())
    fail_field(kind_node, join_field(field, "kind"),
               "unknown distribution " + quoted(kind_name) + " (known: " + join_list(kind_names) + ")");

  std::vector<std::string> allowed{"kind"};
  for (const param_info& p : info->params) allowed.push_back(p.name);
  const fields f = mapping(node, field, allowed, " for kind " + kind_name);

  judge_data::distribution d;
  d.kind = info->kind;
  d.a = d.b = 0.0;
  for (const param_info& p : info->params) {
    const std::string name = join_field(field, p.name);
    const YAML::Node* given = f.find(p.name);
    if (!given && p.absent) {
      slot_of(d, p.slot) = *p.absent;
      continue;
    }
    const YAML::Node& value = given ? *given : required(f, field, p.name, "for kind " + kind_name);
    // A spike's place may be a word: the last element, whatever the buffer's length.
    if (info->kind == judge_data::distribution_kind::spike && std::string(p.name) == "at" && value.IsScalar() &&
        value.Scalar() == "last") {
      slot_of(d, p.slot) = judge_data::spike_at_last;
      continue;
    }
    const double v = number(value, name);
    // Values become floats on the GPU; anything a float cannot hold would generate infinities.
    if (!std::isfinite(v) || std::fabs(v) > FLT_MAX)
      fail_field(value, name, "must be a finite number that a float can hold, got " + value.Scalar());
    slot_of(d, p.slot) = v;
  }
  switch (d.kind) {
  case judge_data::distribution_kind::uniform:
  case judge_data::distribution_kind::cancel:
    if (!(d.a < d.b))
      fail_field(node, field,
                 "low must be below high, got low " + f.find("low")->Scalar() + " and high " +
                     f.find("high")->Scalar());
    break;
  case judge_data::distribution_kind::normal:
    if (!(d.b > 0)) {
      const YAML::Node& stddev = *f.find("stddev");
      fail_field(stddev, join_field(field, "stddev"), "must be above 0, got " + stddev.Scalar());
    }
    break;
  case judge_data::distribution_kind::uniform_int:
    // Both ends are included and must be whole numbers an int32 holds.
    for (const char* end : {"low", "high"}) {
      const double v = number(*f.find(end), join_field(field, end));
      if (v != std::floor(v) || v < INT32_MIN || v > INT32_MAX)
        fail_field(*f.find(end), join_field(field, end),
                   std::string("must be a whole number an int32 holds, got ") + f.find(end)->Scalar());
    }
    if (d.a > d.b)
      fail_field(node, field,
                 "low must not be above high (both are included), got low " + f.find("low")->Scalar() + " and high " +
                     f.find("high")->Scalar());
    break;
  case judge_data::distribution_kind::offsets:
    // Whole numbers: the total is the last offset (the nonzeros), the skew an exponent.
    if (d.a != std::floor(d.a) || d.a < 0 || d.a > INT32_MAX)
      fail_field(*f.find("total"), join_field(field, "total"),
                 "must be a whole number from 0 to 2147483647 (the number of nonzeros), got " +
                     f.find("total")->Scalar());
    if (d.b != std::floor(d.b) || d.b < 0 || d.b > 30)
      fail_field(*f.find("skew"), join_field(field, "skew"),
                 "must be a whole number from 0 (even rows) to 30 (the last rows longest), got " +
                     f.find("skew")->Scalar());
    break;
  case judge_data::distribution_kind::sparse:
    // A count of elements (the case's nonzeros) and the bound of their values, which must be nonzero.
    if (d.a != std::floor(d.a) || d.a < 0 || d.a > 9007199254740992.0)
      fail_field(*f.find("nonzeros"), join_field(field, "nonzeros"),
                 "must be a whole number from 0 (the number of nonzero elements), got " + f.find("nonzeros")->Scalar());
    if (!(d.b > 0))
      fail_field(*f.find("magnitude"), join_field(field, "magnitude"),
                 "must be above 0 (values are uniform in [-magnitude, magnitude)), got " +
                     f.find("magnitude")->Scalar());
    break;
  case judge_data::distribution_kind::spike:
    check_spike(*this, f, field, d);
    break;
  case judge_data::distribution_kind::alternating:
    if (!(d.a >= 0 && d.a <= d.b))
      fail_field(node, field,
                 "low and high are magnitudes: 0 <= low <= high (low = high: one magnitude), got low " +
                     f.find("low")->Scalar() + " and high " + f.find("high")->Scalar());
    break;
  case judge_data::distribution_kind::special:
    check_special(*this, f, field, d);
    break;
  case judge_data::distribution_kind::constant:
  case judge_data::distribution_kind::ramp:
    break;
  }
  return d;
}

} // namespace judge::spec_yaml
