#include "case_data.hpp"

#include <stdexcept>

namespace judge {

namespace {
nlohmann::json distribution_json(const judge_data::distribution& d) {
  return {{"kind", static_cast<int>(d.kind)}, {"a", d.a}, {"b", d.b}};
}

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

nlohmann::json case_request(const problem_spec& spec, const test_case& c, int case_index, std::uint64_t case_seed,
                            int checks, const std::optional<timing_request>& timing) {
  const auto counts = buffer_counts(spec, c);
  nlohmann::json buffers = nlohmann::json::array();
  for (const parameter* p : spec.buffers()) {
    nlohmann::json b = {{"name", p->name},
                        {"role", p->role == param_role::input ? "input" : "output"},
                        {"count", counts.at(p->name)}};
    if (p->role == param_role::input) {
      b["dist"] = distribution_json(distribution_of(spec, c, p->name));
      if (auto d = c.data.find(p->name); d != c.data.end()) b["data"] = d->second;
    }
    buffers.push_back(std::move(b));
  }
  nlohmann::json check_list = nlohmann::json::array();
  for (int k = 0; k < checks; ++k)
    check_list.push_back({{"seed", judge_data::derive_seed(case_seed, judge_data::seed_for_check, static_cast<std::uint64_t>(k))},
                          {"poison", poison_for_check(k)}});
  nlohmann::json request = {{"type", "case"},
                            {"name", c.name},
                            {"case_index", case_index},
                            {"sizes", ordered_sizes(spec, c)},
                            {"buffers", std::move(buffers)},
                            {"checks", std::move(check_list)},
                            {"tolerance", {{"atol", spec.tolerance.atol}, {"rtol", spec.tolerance.rtol}}},
                            {"timing", nullptr}};
  if (timing)
    request["timing"] = {{"seed", timing->seed},           {"budget_s", timing->budget_s},
                         {"min_samples", timing->min_samples}, {"max_samples", timing->max_samples},
                         {"target_noise", timing->target_noise}, {"cold_l2", timing->cold_l2}};
  return request;
}

std::map<std::string, std::vector<float>> regenerate_inputs(const problem_spec& spec, const test_case& c,
                                                            std::uint64_t case_seed, int check) {
  const std::uint64_t seed = judge_data::derive_seed(case_seed, judge_data::seed_for_check, static_cast<std::uint64_t>(check));
  const auto counts = buffer_counts(spec, c);
  std::map<std::string, std::vector<float>> inputs;
  const auto buffers = spec.buffers();
  for (std::size_t b = 0; b < buffers.size(); ++b) {
    const parameter& p = *buffers[b];
    if (p.role != param_role::input) continue;
    if (auto d = c.data.find(p.name); d != c.data.end()) {
      inputs[p.name] = d->second;
      continue;
    }
    const auto dist = distribution_of(spec, c, p.name);
    std::vector<float> values(static_cast<std::size_t>(counts.at(p.name)));
    // The stream number is the buffer's position among the pointer parameters, as in the runner.
    for (std::size_t i = 0; i < values.size(); ++i)
      values[i] = judge_data::generate(dist, seed, static_cast<std::uint32_t>(b), i);
    inputs[p.name] = std::move(values);
  }
  return inputs;
}

} // namespace judge
