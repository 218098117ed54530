#include "judge/record/mismatch_json.hpp"

#include "common/wire_json.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>

namespace judge {

namespace {

template <typename T> T value_of(const nlohmann::json& j, const char* name, const std::string& where) {
  if (!j.is_object() || !j.contains(name)) throw std::runtime_error(where + "field " + name + ": missing");
  try {
    return j.at(name).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw std::runtime_error(where + "field " + name + ": of the wrong type (" + j.at(name).type_name() + ")");
  }
}

} // namespace

nlohmann::json mismatch_json(const mismatch& m) {
  nlohmann::json leetgpu = nullptr;
  if (m.leetgpu) leetgpu = {{"atol", m.leetgpu->atol}, {"rtol", m.leetgpu->rtol}, {"outside", m.leetgpu->outside}};
  return {{"buffer", m.buffer},
          {"count", m.count},
          {"total", m.total},
          {"first_index", m.first_index},
          {"first_coords", m.first_coords},
          {"expected", std::isfinite(m.expected) ? nlohmann::json(m.expected) : nlohmann::json(nullptr)},
          // A poison NaN or an infinity is the most telling value a wrong element has: written as text.
          {"got", judge_wire::float_text(m.got)},
          {"against", m.against},
          {"allowed", m.allowed},
          {"exact", m.exact},
          {"leetgpu", std::move(leetgpu)}};
}

mismatch mismatch_from_json(const nlohmann::json& j, const std::string& where) {
  mismatch m;
  m.buffer = value_of<std::string>(j, "buffer", where);
  m.count = value_of<std::int64_t>(j, "count", where);
  m.total = value_of<std::int64_t>(j, "total", where);
  m.first_index = value_of<std::int64_t>(j, "first_index", where);
  m.first_coords = value_of<std::vector<std::int64_t>>(j, "first_coords", where);
  const nlohmann::json expected = value_of<nlohmann::json>(j, "expected", where);
  m.expected = expected.is_null() ? std::numeric_limits<double>::quiet_NaN() : value_of<double>(j, "expected", where);
  // float_text's words ("nan", "inf", "-inf") are strtof's own.
  const std::string got = value_of<std::string>(j, "got", where);
  char* end = nullptr;
  m.got = std::strtof(got.c_str(), &end);
  if (got.empty() || end != got.c_str() + got.size())
    throw std::runtime_error(where + "field got: \"" + got + "\" is not a float as text");
  m.against = value_of<std::string>(j, "against", where);
  m.allowed = value_of<double>(j, "allowed", where);
  m.exact = value_of<bool>(j, "exact", where);
  const nlohmann::json leetgpu = value_of<nlohmann::json>(j, "leetgpu", where);
  if (!leetgpu.is_null()) {
    const std::string at = where + "leetgpu: ";
    m.leetgpu = published_check{value_of<double>(leetgpu, "atol", at), value_of<double>(leetgpu, "rtol", at),
                                value_of<std::int64_t>(leetgpu, "outside", at)};
  }
  return m;
}

} // namespace judge
