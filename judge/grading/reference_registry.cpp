#include "reference_registry.hpp"

#include <algorithm>
#include <thread>

namespace judge {
namespace {
std::map<std::string, cpu_reference>& registry() {
  static std::map<std::string, cpu_reference> references; // filled by static initialisers
  return references;
}
} // namespace

bool register_cpu_reference(const std::string& problem, cpu_reference fn) {
  registry()[problem] = std::move(fn);
  return true;
}

const cpu_reference* find_cpu_reference(const std::string& problem) {
  auto it = registry().find(problem);
  return it == registry().end() ? nullptr : &it->second;
}

void parallel_for(std::int64_t count, unsigned threads, const std::function<void(std::int64_t, std::int64_t)>& body) {
  if (count <= 0) return;
  const std::int64_t workers = std::clamp<std::int64_t>(threads, 1, count);
  if (workers == 1) {
    body(0, count);
    return;
  }
  std::vector<std::thread> pool;
  const std::int64_t chunk = (count + workers - 1) / workers;
  for (std::int64_t begin = 0; begin < count; begin += chunk)
    pool.emplace_back(body, begin, std::min(count, begin + chunk));
  for (auto& t : pool) t.join();
}

} // namespace judge
