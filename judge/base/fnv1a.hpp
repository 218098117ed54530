// FNV-1a, 64 bit: a fixed, portable hash of bytes, for names and cache keys. Not cryptographic.
#pragma once

#include <cstdint>
#include <string_view>

namespace judge {

/// The FNV-1a 64 offset basis: the hash of no bytes.
constexpr std::uint64_t fnv1a_basis = 0xcbf29ce484222325ull;

/// `state` advanced over `bytes`. From fnv1a_basis it is the hash of `bytes`; feeding parts one after
/// another, each from the last one's result, gives the hash of their concatenation.
std::uint64_t fnv1a(std::string_view bytes, std::uint64_t state = fnv1a_basis);

} // namespace judge
