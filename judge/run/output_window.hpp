// Memory the judge shares with a grading runner for the outputs of its checked calls: the runner copies
// each output from the GPU straight into it, and the judge compares it where it lies. A file per output
// cost a copy into the file, the file's pages and a copy out again, about as long as the checks
// themselves on a class's largest outputs.
//
// The runner holds learner code, so the window is hostile ground, and three things keep it harmless:
// - it holds nothing but outputs, which the runner could claim to be anything anyway: never a reference,
//   an input or anything of the judge's own;
// - its size is sealed (F_SEAL_SHRINK, F_SEAL_GROW, F_SEAL_SEAL): a runner that truncated it would
//   make the judge's next read of it fault (SIGBUS), and the seals refuse that;
// - the judge poisons the whole window before each solution's code loads (grader.cpp), so that what one
//   solution wrote is never there for the next one's runner to read, or to claim as its own unwritten.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace judge {

/// [B] The largest window a judge holds: its memory is the judge's for as long as it grades. A case
/// whose checked calls' outputs take more hands them over in files.
inline constexpr std::size_t max_window_bytes = std::size_t{2} << 30;

class output_window {
public:
  /// A window of `bytes` (rounded up to whole pages), its pages allocated now so that they are the
  /// judge's memory, not charged to the first runner that writes them. nullptr, with `why` set, where
  /// the system cannot give one (no memfd, no sealing, not enough memory): the outputs then go through
  /// files.
  static std::unique_ptr<output_window> create(std::size_t bytes, std::string* why);

  output_window(const output_window&) = delete;
  output_window& operator=(const output_window&) = delete;
  ~output_window();

  /// The descriptor a runner is given (process_options::shared_fd); close-on-exec in the judge.
  int fd() const { return m_fd; }
  std::size_t bytes() const { return m_bytes; }

  /// `count` floats at byte `offset`, where the judge reads an output; nullptr when they do not lie
  /// wholly inside the window.
  const float* floats_at(std::uint64_t offset, std::size_t count) const;

  /// Fills bytes [offset, offset + bytes) (clipped to the window) with a quiet NaN's bits, on several
  /// threads for a large range.
  void poison(std::uint64_t offset, std::uint64_t bytes) const;

private:
  output_window(int fd, void* data, std::size_t bytes)
      : m_fd(fd), m_data(static_cast<unsigned char*>(data)), m_bytes(bytes) {}

  int m_fd = -1;
  unsigned char* m_data = nullptr;
  std::size_t m_bytes = 0;
};

/// The byte offsets in a window at which the outputs of `sizes` (bytes each) lie one after another, each
/// on a 64-byte boundary (the wire's rule), starting at `from`; the offset past the last is returned in
/// `end`.
std::vector<std::uint64_t> window_offsets(const std::vector<std::uint64_t>& sizes, std::uint64_t from,
                                          std::uint64_t* end);

} // namespace judge
