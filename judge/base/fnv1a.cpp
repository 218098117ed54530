#include "judge/base/fnv1a.hpp"

namespace judge {

std::uint64_t fnv1a(std::string_view bytes, std::uint64_t state) {
  constexpr std::uint64_t prime = 0x100000001b3ull; // FNV-1a 64 prime
  for (char c : bytes) state = (state ^ static_cast<unsigned char>(c)) * prime;
  return state;
}

} // namespace judge
