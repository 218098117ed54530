#include "judge/record/kernel_json.hpp"

namespace judge {

nlohmann::json kernels_json(const std::vector<kernel_resources>& kernels) {
  nlohmann::json list = nlohmann::json::array();
  for (const kernel_resources& k : kernels)
    list.push_back({{"name", k.name},
                    {"arch", k.arch},
                    {"registers", k.registers},
                    {"static_shared_bytes", k.static_shared_bytes},
                    {"local_bytes", k.local_bytes},
                    {"spill_store_bytes", k.spill_store_bytes},
                    {"spill_load_bytes", k.spill_load_bytes}});
  return list;
}

nlohmann::json launch_json(const judge_wire::kernel_launch& k) {
  return {{"name", k.name},
          {"grid", {k.grid[0], k.grid[1], k.grid[2]}},
          {"block", {k.block[0], k.block[1], k.block[2]}},
          {"static_shared_bytes", k.static_shared_bytes},
          {"dynamic_shared_bytes", k.dynamic_shared_bytes},
          {"registers", k.registers}};
}

nlohmann::json hints_json(const std::vector<hint>& hints) {
  nlohmann::json list = nlohmann::json::array();
  for (const hint& h : hints) list.push_back({{"id", h.id}, {"lesson", h.lesson}, {"evidence", h.evidence}});
  return list;
}

kernel_resources kernel_from_json(const nlohmann::json& j) {
  kernel_resources k;
  k.name = j.at("name").get<std::string>();
  k.arch = j.at("arch").get<std::string>();
  k.registers = j.at("registers").get<int>();
  k.static_shared_bytes = j.at("static_shared_bytes").get<int>();
  k.local_bytes = j.at("local_bytes").get<int>();
  k.spill_store_bytes = j.at("spill_store_bytes").get<int>();
  k.spill_load_bytes = j.at("spill_load_bytes").get<int>();
  return k;
}

judge_wire::kernel_launch launch_from_json(const nlohmann::json& j) {
  judge_wire::kernel_launch k;
  k.name = j.at("name").get<std::string>();
  for (std::size_t d = 0; d < 3; ++d) {
    k.grid[d] = j.at("grid").at(d).get<std::int64_t>();
    k.block[d] = j.at("block").at(d).get<std::int64_t>();
  }
  k.dynamic_shared_bytes = j.at("dynamic_shared_bytes").get<std::int64_t>();
  k.static_shared_bytes = j.at("static_shared_bytes").get<std::int64_t>();
  k.registers = j.at("registers").get<std::int64_t>();
  return k;
}

hint hint_from_json(const nlohmann::json& j) {
  return {j.at("id").get<std::string>(), j.at("lesson").get<std::string>(), j.at("evidence").get<std::string>()};
}

} // namespace judge
