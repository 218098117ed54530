// The cold-L2 flush alone on the GPU: it holds and reads twice the L2, every byte of it, and afterwards
// a chain of loads that was warm in L2 (persisting lines too) is as slow as memory again. Prints the
// cycles per load it measured.
#include "catch.hpp"

#include "harness/cuda/device_memory.hpp"
#include "harness/timing/l2_flush.hpp"
#include "harness/timing/l2_flush_kernels.cuh"
#include "test_kernels.cuh"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

using judge_harness::device_memory;
using judge_harness::l2_flush;

namespace {

std::size_t l2_bytes() {
  int device = 0, bytes = 0;
  JUDGE_CUDA_CHECK(cudaGetDevice(&device));
  JUDGE_CUDA_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrL2CacheSize, device));
  return static_cast<std::size_t>(bytes);
}

/// A chain of `lines` loads, one per 1 KiB (so one per cache line, 4 MiB in all for 4096: far less than
/// any L2 of a GPU the judge times on), in a random order so that nothing runs ahead of it.
struct load_chain {
  static constexpr std::uint32_t lines = 4096;
  static constexpr std::uint32_t stride = 256; ///< [elements of 4 B] between two loads
  device_memory memory{static_cast<std::size_t>(lines) * stride * sizeof(std::uint32_t)};

  load_chain() {
    std::vector<std::uint32_t> order(lines);
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin() + 1, order.end(), std::mt19937(12345)); // starts at element 0
    std::vector<std::uint32_t> next(static_cast<std::size_t>(lines) * stride, 0);
    for (std::uint32_t k = 0; k < lines; ++k) next[order[k] * stride] = order[(k + 1) % lines] * stride;
    JUDGE_CUDA_CHECK(cudaMemcpy(memory.data(), next.data(), memory.bytes(), cudaMemcpyHostToDevice));
  }
  const std::uint32_t* data() const { return memory.as<std::uint32_t>(); }
  std::size_t bytes() const { return memory.bytes(); }
  /// [cycles] per load of one pass over the chain.
  double cycles_per_load(cudaStream_t stream = nullptr) const {
    return gpu_test::chase_cycles(data(), lines, stream) / lines;
  }
};

/// The fewest cycles per load of three passes, each after `before()`.
template <class Before> double fastest_of_three(const load_chain& chain, const Before& before) {
  double best = 1e30;
  for (int i = 0; i < 3; ++i) {
    before();
    best = std::min(best, chain.cycles_per_load());
  }
  return best;
}

} // namespace

TEST_CASE("the L2 flush holds twice the L2 in device memory", "[gpu][l2]") {
  JUDGE_CUDA_CHECK(cudaFree(nullptr));
  std::size_t free_before = 0, free_after = 0, total = 0;
  JUDGE_CUDA_CHECK(cudaMemGetInfo(&free_before, &total));
  l2_flush flush(l2_bytes());
  JUDGE_CUDA_CHECK(cudaMemGetInfo(&free_after, &total));
  CAPTURE(l2_bytes(), free_before, free_after);
  CHECK(free_before - free_after >= 2 * l2_bytes());
}

TEST_CASE("the L2 flush's read reaches every part of its buffer, the last element too", "[gpu][l2]") {
  // The read writes its sink only when a thread's sum is the one impossible value: placed in a single
  // element of a buffer of zeros, the sink says that element was read.
  const std::size_t bytes = 2 * l2_bytes();
  const std::size_t count = bytes / sizeof(float);
  const std::size_t at = GENERATE_COPY(std::size_t{0}, count / 2 + 4, count - 4);
  CAPTURE(bytes, at);
  device_memory buffer(bytes), sink(sizeof(unsigned));
  JUDGE_CUDA_CHECK(cudaMemset(buffer.data(), 0, bytes));
  JUDGE_CUDA_CHECK(cudaMemset(sink.data(), 0, sizeof(unsigned)));
  const float impossible = 1.2345e-38f;
  JUDGE_CUDA_CHECK(cudaMemcpy(buffer.as<float>() + at, &impossible, sizeof impossible, cudaMemcpyHostToDevice));
  judge_harness::enqueue_read_through(buffer.data(), bytes, sink.as<unsigned>(), nullptr);
  JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
  unsigned written = 0, expected = 0;
  JUDGE_CUDA_CHECK(cudaMemcpy(&written, sink.data(), sizeof written, cudaMemcpyDeviceToHost));
  std::memcpy(&expected, &impossible, sizeof expected);
  CHECK(written == expected);
}

TEST_CASE("after the L2 flush, loads that were warm in L2 are as slow as memory again", "[gpu][l2]") {
  const load_chain chain;
  l2_flush flush(l2_bytes());
  chain.cycles_per_load(); // loads the kernel, warms the chain
  const double warm = fastest_of_three(chain, [] {});
  const double cold = fastest_of_three(chain, [&] {
    flush.enqueue(nullptr);
    JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
  });
  std::printf("l2 flush: %.0f cycles per load warm in L2, %.0f after a flush (%.2fx)\n", warm, cold, cold / warm);
  CAPTURE(warm, cold);
  CHECK(cold >= 1.3 * warm);
}

TEST_CASE("after the L2 flush, lines a solution made persisting are as slow as memory again", "[gpu][l2]") {
  int device = 0;
  JUDGE_CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  JUDGE_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  const load_chain chain;
  if (prop.persistingL2CacheMaxSize <= 0 || static_cast<std::size_t>(prop.accessPolicyMaxWindowSize) < chain.bytes()) {
    WARN("this GPU has no persisting L2 for the chain's " << chain.bytes() << " bytes: nothing to test");
    return;
  }
  l2_flush flush(l2_bytes());
  // What a solution can do: set L2 aside for persisting lines and mark its data persisting.
  JUDGE_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize,
                                      std::min<std::size_t>(prop.persistingL2CacheMaxSize, 2 * chain.bytes())));
  cudaStream_t marked = nullptr;
  JUDGE_CUDA_CHECK(cudaStreamCreateWithFlags(&marked, cudaStreamNonBlocking));
  cudaStreamAttrValue window{};
  window.accessPolicyWindow.base_ptr = chain.memory.data();
  window.accessPolicyWindow.num_bytes = chain.bytes();
  window.accessPolicyWindow.hitRatio = 1.0f;
  window.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  window.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  JUDGE_CUDA_CHECK(cudaStreamSetAttribute(marked, cudaStreamAttributeAccessPolicyWindow, &window));
  chain.cycles_per_load(marked);
  const double persisting = chain.cycles_per_load(marked);
  double cold = 1e30;
  for (int i = 0; i < 3; ++i) {
    chain.cycles_per_load(marked); // persisting again
    flush.enqueue(nullptr);
    JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
    cold = std::min(cold, chain.cycles_per_load()); // on the legacy stream, which marks nothing
  }
  JUDGE_CUDA_CHECK(cudaStreamDestroy(marked));
  JUDGE_CUDA_CHECK(cudaCtxResetPersistingL2Cache());
  JUDGE_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0));
  std::printf("l2 flush: %.0f cycles per load persisting in L2, %.0f after a flush (%.2fx)\n", persisting, cold,
              cold / persisting);
  CAPTURE(persisting, cold);
  CHECK(cold >= 1.3 * persisting);
}
