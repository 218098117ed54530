#include "judge/run/output_window.hpp"

#include "judge/base/element_chunks.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

namespace judge {
namespace {

/// A quiet NaN: what an output slot holds when no runner has written it since the judge read it.
constexpr std::uint32_t poison_bits = 0x7fc00000u;

std::string failure(const char* step) { return std::string(step) + ": " + std::strerror(errno); }

} // namespace

std::unique_ptr<output_window> output_window::create(std::size_t bytes, std::string* why) {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  bytes = std::max<std::size_t>(page, (bytes + page - 1) / page * page);
  const int fd = ::memfd_create("judge-output-window", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) {
    if (why) *why = failure("memfd_create");
    return nullptr;
  }
  const auto give_up = [&](const char* step) -> std::unique_ptr<output_window> {
    if (why) *why = failure(step);
    ::close(fd);
    return nullptr;
  };
  if (::ftruncate(fd, static_cast<off_t>(bytes)) != 0) return give_up("ftruncate");
  // The pages now, in the judge's name: a runner's cgroup is not charged for the judge's window, and a
  // window the machine cannot hold is refused here rather than at a read.
  if (::fallocate(fd, 0, 0, static_cast<off_t>(bytes)) != 0) return give_up("fallocate");
  if (::fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) return give_up("sealing");
  void* data = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (data == MAP_FAILED) return give_up("mmap");
  std::unique_ptr<output_window> window(new output_window(fd, data, bytes));
  window->poison(0, bytes);
  return window;
}

output_window::~output_window() {
  if (m_data != nullptr) ::munmap(m_data, m_bytes);
  if (m_fd >= 0) ::close(m_fd);
}

const float* output_window::floats_at(std::uint64_t offset, std::size_t count) const {
  const std::uint64_t size = static_cast<std::uint64_t>(count) * sizeof(float);
  if (offset % alignof(float) != 0 || offset > m_bytes || size > m_bytes - offset) return nullptr;
  return reinterpret_cast<const float*>(m_data + offset);
}

void output_window::poison(std::uint64_t offset, std::uint64_t bytes) const {
  if (offset >= m_bytes) return;
  bytes = std::min<std::uint64_t>(bytes, m_bytes - offset);
  auto* words = reinterpret_cast<std::uint32_t*>(m_data + offset - offset % sizeof(std::uint32_t));
  const std::size_t count = static_cast<std::size_t>((bytes + sizeof(std::uint32_t) - 1) / sizeof(std::uint32_t));
  for_element_chunks(count, [words](std::size_t begin, std::size_t end, std::size_t) {
    std::fill(words + begin, words + end, poison_bits);
  });
}

std::vector<std::uint64_t> window_offsets(const std::vector<std::uint64_t>& sizes, std::uint64_t from,
                                          std::uint64_t* end) {
  const auto aligned = [](std::uint64_t at) { return (at + 63) / 64 * 64; };
  std::vector<std::uint64_t> offsets;
  std::uint64_t at = aligned(from);
  for (std::uint64_t size : sizes) {
    offsets.push_back(at);
    at = aligned(at + size);
  }
  if (end) *end = at;
  return offsets;
}

} // namespace judge
