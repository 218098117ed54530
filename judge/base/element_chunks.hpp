// Work over a large array split into contiguous chunks on several threads: the CPU side of a case
// (its inputs, the comparison of a solution's outputs) touches up to hundreds of millions of elements per
// call, and the machines that grade have many cores. Each chunk's result is kept apart, in chunk order,
// so that a caller merges them into exactly what one pass in order would give.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <utility>
#include <vector>

namespace judge {

/// Below this many elements one thread does it all: a thread's start costs more than it saves.
inline constexpr std::size_t min_elements_per_thread = std::size_t{1} << 20;

/// [begin, end) of each chunk of `n` elements, in order: one chunk when `n` is small, else one per
/// worker (at most 16, at most the cores).
inline std::vector<std::pair<std::size_t, std::size_t>> element_chunks(std::size_t n) {
  const std::size_t workers = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 16);
  const std::size_t chunk = n < min_elements_per_thread ? std::max<std::size_t>(n, 1) : (n + workers - 1) / workers;
  std::vector<std::pair<std::size_t, std::size_t>> chunks;
  for (std::size_t begin = 0; begin < n; begin += chunk) chunks.emplace_back(begin, std::min(n, begin + chunk));
  return chunks;
}

/// Calls `work(begin, end, chunk_index)` for every one of `chunks` (element_chunks()), each on a thread
/// of its own (the calling thread when there is one chunk), and returns when all are done. `work` must
/// not throw.
template <class Work>
void for_element_chunks(const std::vector<std::pair<std::size_t, std::size_t>>& chunks, const Work& work) {
  if (chunks.size() == 1) {
    work(chunks[0].first, chunks[0].second, std::size_t{0});
    return;
  }
  std::vector<std::thread> pool;
  pool.reserve(chunks.size());
  for (std::size_t k = 0; k < chunks.size(); ++k)
    pool.emplace_back([&work, &chunks, k] { work(chunks[k].first, chunks[k].second, k); });
  for (std::thread& t : pool) t.join();
}

/// The same over element_chunks(n).
template <class Work>
void for_element_chunks(std::size_t n, const Work& work) {
  for_element_chunks(element_chunks(n), work);
}

} // namespace judge
