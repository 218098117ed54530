#include "judge/grading/case_data.hpp"

#include "judge/base/element_chunks.hpp"
#include "judge/problem/case_tolerance.hpp"
#include "judge/grading/output_files.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace judge {

namespace {
judge_data::distribution distribution_of(const problem_spec& spec, const test_case& c, const std::string& buffer) {
  auto it = c.distributions.find(buffer);
  return it == c.distributions.end() ? spec.input_distribution : it->second;
}
} // namespace

std::vector<std::int64_t> buffer_shape(const parameter& buffer, const test_case& c) {
  std::vector<std::int64_t> shape;
  for (const size_expr& e : buffer.shape) shape.push_back(e.evaluate(c.sizes));
  return shape;
}

std::vector<std::int64_t> ordered_sizes(const problem_spec& spec, const test_case& c) {
  std::vector<std::int64_t> sizes;
  for (const std::string& name : spec.size_names()) sizes.push_back(c.sizes.at(name));
  return sizes;
}

judge_wire::case_request make_case_request(const problem_spec& spec, const test_case& c, int case_index,
                                           const std::vector<std::uint64_t>& check_seeds,
                                           const std::optional<judge_wire::timing_spec>& timing) {
  const auto counts = buffer_counts(spec, c);
  judge_wire::case_request request;
  request.name = c.name;
  request.case_index = case_index;
  // Sizes fit an int: problem/cases.cpp refuses larger ones, since solve() takes ints.
  for (const std::int64_t size : ordered_sizes(spec, c)) request.sizes.push_back(static_cast<int>(size));
  for (const std::string& name : spec.scalar_names()) request.scalars.push_back(static_cast<float>(c.scalars.at(name)));
  for (const parameter* p : spec.buffers()) {
    judge_wire::buffer_spec b;
    b.name = p->name;
    b.role = p->role == param_role::input   ? judge_wire::buffer_role::input
             : p->role == param_role::inout ? judge_wire::buffer_role::inout
                                            : judge_wire::buffer_role::output;
    b.type = p->type;
    b.start = p->start;
    b.count = static_cast<std::size_t>(counts.at(p->name));
    if (b.is_generated()) {
      b.dist = distribution_of(spec, c, p->name);
      if (auto d = c.data.find(p->name); d != c.data.end()) b.data = d->second;
    }
    request.buffers.push_back(std::move(b));
  }
  for (std::size_t k = 0; k < check_seeds.size(); ++k) {
    judge_wire::check_spec check{check_seeds[k], judge_wire::poison_for_check(k), {}, std::nullopt, {}};
    for (const judge_wire::buffer_spec& b : request.buffers)
      if (b.is_result()) check.output_files.push_back(output_file_name(case_index, k, b.name));
    request.checks.push_back(std::move(check));
  }
  const tolerance t = case_tolerance(spec, c);
  request.tolerance = {t.atol, t.rtol};
  request.timing = timing;
  return request;
}

std::map<std::string, std::vector<float>> regenerate_inputs(const problem_spec& spec, const test_case& c,
                                                            std::uint64_t check_seed) {
  const auto counts = buffer_counts(spec, c);
  std::map<std::string, std::vector<float>> inputs;
  const auto buffers = spec.buffers();
  for (std::size_t b = 0; b < buffers.size(); ++b) {
    const parameter& p = *buffers[b];
    if (!p.is_generated()) continue;
    if (auto d = c.data.find(p.name); d != c.data.end()) {
      inputs[p.name] = d->second;
      continue;
    }
    const auto dist = distribution_of(spec, c, p.name);
    std::vector<float> values(static_cast<std::size_t>(counts.at(p.name)));
    // The stream number is the buffer's position among the pointer parameters, as in the runner. Every
    // element is its own counter-based draw, so chunks on several threads give the same values.
    const auto stream = static_cast<std::uint32_t>(b);
    const judge_data::element_type type = p.type;
    for_element_chunks(values.size(), [&values, &dist, check_seed, stream, type, n = values.size()](
                                          std::size_t begin, std::size_t end, std::size_t) {
      for (std::size_t i = begin; i < end; ++i) {
        const std::uint32_t word = judge_data::generate_word(dist, type, check_seed, stream, i, n);
        std::memcpy(&values[i], &word, sizeof word);
      }
    });
    inputs[p.name] = std::move(values);
  }
  return inputs;
}

} // namespace judge
