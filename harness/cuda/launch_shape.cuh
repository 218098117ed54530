// The grid of the harness's own grid-stride kernels.
#pragma once

#include <cstddef>

namespace judge_harness::detail {

constexpr unsigned block_threads = 256;

/// Blocks for a grid-stride loop over `count` elements: enough to fill any current GPU, never more than
/// the elements need, at least one.
inline unsigned grid_blocks(std::size_t count) {
  constexpr std::size_t max_blocks = 8192;
  const std::size_t needed = (count + block_threads - 1) / block_threads;
  return static_cast<unsigned>(needed == 0 ? 1 : (needed < max_blocks ? needed : max_blocks));
}

} // namespace judge_harness::detail
