// CPU reference outputs by case and checked call, computed once and kept for every solution of a run,
// within a memory bound.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace judge {

class reference_cache {
public:
  using outputs = std::map<std::string, std::vector<double>>; ///< by buffer name

  /// Keeps up to `limit_bytes` of outputs; past that, it starts over (recomputing beats swapping).
  explicit reference_cache(std::size_t limit_bytes = std::size_t{4} << 30) : m_limit_bytes(limit_bytes) {}

  /// The outputs of checked call `check` of case `case_index`: kept ones, else `compute()`'s.
  const outputs& get(std::size_t case_index, int check, const std::function<outputs()>& compute);

  std::size_t kept_bytes() const { return m_bytes; }

private:
  std::size_t m_limit_bytes;
  std::size_t m_bytes = 0;
  std::map<std::pair<std::size_t, int>, outputs> m_kept;
};

} // namespace judge
