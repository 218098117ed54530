#include "judge/problem/secret.hpp"

#include "judge/base/environment.hpp"
#include "judge/base/file_output.hpp"
#include "common/hex.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace judge {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t secret_bytes = sizeof(judge_secret::bytes);

[[noreturn]] void fail(const fs::path& path, const std::string& what, int error) {
  throw std::runtime_error("judge secret " + path.string() + ": " + what + " (" + std::strerror(error) +
                           "); fix it or set JUDGE_SECRET_FILE to another file");
}

/// The file's text, or nullopt when it does not exist.
std::optional<std::string> read_text(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::nullopt;
    fail(path, "cannot open it", errno);
  }
  std::string text;
  char buffer[256];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      ::close(fd);
      fail(path, "cannot read it", error);
    }
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > 4096) break; // a secret is 65 bytes; more means this is some other file
  }
  ::close(fd);
  return text;
}

judge_secret parse_secret(const std::string& text, const fs::path& path) {
  std::string hex = text;
  while (!hex.empty() && (hex.back() == '\n' || hex.back() == '\r' || hex.back() == ' ')) hex.pop_back();
  const std::optional<std::string> bytes = judge_hex::decode(hex, judge_hex::digits::any_case);
  if (!bytes || bytes->size() != secret_bytes)
    throw std::runtime_error("judge secret " + path.string() + " is not " + std::to_string(2 * secret_bytes) +
                             " hexadecimal digits; delete it to have a new one made (the data of hidden cases "
                             "will change with it)");
  // All 256 bits stay: they are the key of an HMAC, not folded into a seed.
  judge_secret secret;
  for (std::size_t i = 0; i < secret_bytes; ++i) secret.bytes[i] = static_cast<unsigned char>((*bytes)[i]);
  return secret;
}

/// Creates the missing folders above `path`, each readable by its owner only.
void make_private_parents(const fs::path& path) {
  std::vector<fs::path> missing;
  for (fs::path dir = path.parent_path(); !dir.empty() && !fs::exists(dir); dir = dir.parent_path()) {
    missing.push_back(dir);
    if (dir == dir.parent_path()) break;
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it)
    if (::mkdir(it->c_str(), 0700) != 0 && errno != EEXIST) fail(*it, "cannot create its folder", errno);
}

std::string random_hex(const fs::path& path) {
  unsigned char bytes[secret_bytes];
  const int fd = ::open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(path, "cannot open /dev/urandom to make it", errno);
  std::size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = ::read(fd, bytes + got, sizeof bytes - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : EIO;
      ::close(fd);
      fail(path, "cannot read /dev/urandom to make it", error);
    }
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  return judge_hex::encode(bytes, sizeof bytes) + "\n";
}

/// Writes a new secret to `path` unless one appears there first. The file is written in full under a
/// temporary name and then linked into place (file_output.hpp), so another judge starting at the same
/// moment reads either no secret or a whole one, and never replaces one that exists. Synced: a secret
/// lost in a crash would change the data of every hidden case.
void create_secret(const fs::path& path) {
  make_private_parents(path);
  try {
    publish_file(path, random_hex(path), {on_existing::keep, 0600, true});
  } catch (const std::system_error& e) {
    fail(path, "cannot write it", e.code().value());
  }
}

} // namespace

std::vector<fs::path> hidden_from_learner_code(const fs::path& store) {
  std::vector<fs::path> hidden = {secret_path()};
  if (store.empty()) return hidden;
  std::error_code ignored;
  for (const char* suffix : {"", "-wal", "-shm"})
    if (fs::exists(store.string() + suffix, ignored)) hidden.emplace_back(store.string() + suffix);
  return hidden;
}

std::filesystem::path secret_path() {
  if (const std::optional<std::string> file = env_value(judge_env::secret_file)) return *file;
  // The XDG rules ignore a relative XDG_CONFIG_HOME.
  if (const char* config = non_empty_env("XDG_CONFIG_HOME"); config && config[0] == '/')
    return fs::path(config) / "gpu-judge" / "secret";
  const char* home = non_empty_env("HOME");
  if (!home) {
    const passwd* user = ::getpwuid(::getuid());
    home = user && user->pw_dir && *user->pw_dir ? user->pw_dir : nullptr;
  }
  if (!home) throw std::runtime_error("no home folder for the judge secret: set JUDGE_SECRET_FILE or HOME");
  return fs::path(home) / ".config" / "gpu-judge" / "secret";
}

judge_secret load_or_create_secret(const std::filesystem::path& path) {
  if (auto text = read_text(path)) return parse_secret(*text, path);
  create_secret(path);
  // Read back what is there now: ours, or the one another judge created a moment earlier.
  auto text = read_text(path);
  if (!text) fail(path, "it vanished right after it was created", ENOENT);
  return parse_secret(*text, path);
}

} // namespace judge
