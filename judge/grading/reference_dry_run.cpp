#include "judge/grading/reference_dry_run.hpp"

#include "judge/grading/case_data.hpp"
#include "judge/grading/reference_library.hpp"
#include "judge/problem/check_seed.hpp"

#include <chrono>
#include <cmath>
#include <stdexcept>

namespace judge {

std::int64_t reference_bytes(const problem_spec& spec, const test_case& c) {
  const auto counts = buffer_counts(spec, c);
  std::int64_t bytes = 0;
  for (const parameter* p : spec.buffers()) {
    const std::int64_t n = counts.at(p->name);
    if (p->is_generated()) bytes += n * 4;
    if (p->is_result()) bytes += n * 8;
  }
  return bytes;
}

reference_dry_run dry_run_reference(const problem_spec& spec, const test_case& c, unsigned threads,
                                    std::int64_t max_bytes) {
  reference_dry_run r;
  try {
    r.bytes = reference_bytes(spec, c);
  } catch (const std::exception& e) {
    r.what = reference_dry_run::outcome::failed;
    r.error = e.what();
    return r;
  }
  if (r.bytes > max_bytes) {
    r.what = reference_dry_run::outcome::too_large;
    return r;
  }
  const auto start = std::chrono::steady_clock::now();
  try {
    const auto inputs = regenerate_inputs(spec, c, sample_check_seed(c.seed, spec.name, c.name, 0));
    const auto outputs = cpu_reference_outputs(spec, c, inputs, threads);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (const parameter* p : spec.buffers()) {
      if (!p->is_result()) continue;
      const std::vector<double>& values = outputs.at(p->name);
      for (std::size_t i = 0; i < values.size(); ++i)
        if (!std::isfinite(values[i])) {
          r.what = reference_dry_run::outcome::non_finite;
          r.buffer = p->name;
          r.index = static_cast<std::int64_t>(i);
          r.value = values[i];
          return r;
        }
    }
  } catch (const std::exception& e) {
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.what = reference_dry_run::outcome::failed;
    r.error = e.what();
  }
  return r;
}

} // namespace judge
