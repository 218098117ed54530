#include "harness/call/output_window_map.hpp"

#include "harness/cuda/cuda_check.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace judge_harness {
namespace {

/// An output at least this large page-locks the window first: below it the pageable copy is as fast.
constexpr std::size_t lock_from_bytes = std::size_t{4} << 20;

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error("output window: " + what); }

} // namespace

output_window_map output_window_map::take_fd4() {
  constexpr int fd = 4;
  struct stat st {};
  if (::fstat(fd, &st) != 0) fail(std::string("fd 4 is not open: ") + std::strerror(errno));
  if (st.st_size <= 0) fail("fd 4 is empty");
  const auto bytes = static_cast<std::size_t>(st.st_size);
  void* data = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  const int error = errno;
  ::close(fd); // the mapping is all the runner keeps: learner code finds no descriptor of the judge's
  if (data == MAP_FAILED) fail(std::string("fd 4 cannot be mapped: ") + std::strerror(error));
  return output_window_map(static_cast<unsigned char*>(data), bytes);
}

output_window_map::output_window_map(output_window_map&& other) noexcept
    : m_data(std::exchange(other.m_data, nullptr)), m_bytes(std::exchange(other.m_bytes, 0)),
      m_lock_tried(other.m_lock_tried), m_locked(std::exchange(other.m_locked, false)) {}

output_window_map::~output_window_map() {
  if (m_data == nullptr) return;
  if (m_locked) (void)cudaHostUnregister(m_data);
  ::munmap(m_data, m_bytes);
}

void output_window_map::copy_from_device(const void* device, std::size_t bytes, std::uint64_t offset,
                                         const std::string& name) {
  if (offset > m_bytes || bytes > m_bytes - offset)
    fail("output " + name + " (" + std::to_string(bytes) + " bytes at " + std::to_string(offset) +
         ") lies past the window's " + std::to_string(m_bytes) + " bytes");
  if (!m_lock_tried && bytes >= lock_from_bytes) {
    m_lock_tried = true;
    m_locked = cudaHostRegister(m_data, m_bytes, cudaHostRegisterDefault) == cudaSuccess;
    if (!m_locked) (void)cudaGetLastError(); // not sticky: the copies go through pageable memory instead
  }
  JUDGE_CUDA_CHECK(cudaMemcpy(m_data + offset, device, bytes, cudaMemcpyDeviceToHost));
}

} // namespace judge_harness
