// One timing at a time per GPU: every judge holds the lock of the GPU it grades on, named by the GPU's
// UUID, while its runners use it. Two judges on one GPU would time each other's kernels (one read 9%
// slow beside another, and nothing said so); the second one waits, and says for whom.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <string>

namespace judge {

/// Who holds a GPU's lock, as its holder wrote it into the lock file.
struct gpu_lock_holder {
  long pid = 0;
  std::string command; ///< "judge matmul solutions/matmul"
  std::string since;   ///< ISO-8601 UTC
};

/// Where the lock files live: $JUDGE_LOCK_DIR, else /tmp/gpu-judge-locks (shared by every user of the
/// machine, like the GPU; created world-writable with the sticky bit, as /tmp is).
std::filesystem::path gpu_lock_dir();

/// An exclusive lock on one GPU (flock on `<dir>/<uuid>.lock`), held for the object's lifetime and
/// released by the kernel if the process dies. Move-only.
class gpu_lock {
public:
  /// Called once if another judge holds the lock, before waiting for it.
  using wait_fn = std::function<void(const gpu_lock_holder&)>;

  /// Takes the lock of GPU `uuid`, waiting as long as it takes unless `*stop` becomes true (Ctrl-C:
  /// then held() is false); `command` is what this judge is doing, for whoever waits next. Throws
  /// std::runtime_error naming the file when it cannot be opened.
  gpu_lock(const std::filesystem::path& dir, const std::string& uuid, const std::string& command,
           const wait_fn& on_wait, const std::atomic<bool>* stop = nullptr);
  ~gpu_lock();
  gpu_lock(gpu_lock&& other) noexcept;
  gpu_lock& operator=(gpu_lock&&) = delete;
  gpu_lock(const gpu_lock&) = delete;
  gpu_lock& operator=(const gpu_lock&) = delete;

  bool held() const { return m_fd >= 0; }
  const std::filesystem::path& file() const { return m_file; }

private:
  std::filesystem::path m_file;
  int m_fd = -1;
};

/// The holder written in a lock file's text ("pid\ncommand\nsince\n"); pid 0 when unreadable.
gpu_lock_holder parse_gpu_lock_holder(const std::string& text);

} // namespace judge
