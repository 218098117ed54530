#include "judge/report/mismatch_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace judge {

std::string element_text(const mismatch& m) {
  std::string text = m.buffer;
  if (m.first_coords.empty()) return fmt::format("{}[{}]", text, m.first_index);
  for (const std::int64_t k : m.first_coords) text += fmt::format("[{}]", k);
  return text;
}

std::optional<std::string> leetgpu_note(const mismatch& m) {
  if (!m.leetgpu || m.leetgpu->outside > 0) return std::nullopt;
  const double diff = std::fabs(static_cast<double>(m.got) - m.expected);
  return fmt::format("within LeetGPU's tolerance (atol {:g}, rtol {:g}), outside the {} here: {} = {:.9g} expected "
                     "{:.9g} (|diff| {:.3g} > {:.3g})",
                     m.leetgpu->atol, m.leetgpu->rtol, m.exact ? "exact comparison" : "FP32 bound", element_text(m),
                     m.got, m.expected, diff, m.allowed);
}

std::optional<std::string> leetgpu_note(const solution_result& r) {
  if (r.v != verdict::wrong_answer) return std::nullopt;
  const auto deciding =
      std::find_if(r.cases.begin(), r.cases.end(), [](const case_result& c) { return c.v != verdict::accepted; });
  if (deciding == r.cases.end() || !deciding->wrong) return std::nullopt;
  return leetgpu_note(*deciding->wrong);
}

} // namespace judge
