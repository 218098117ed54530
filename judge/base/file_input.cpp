#include "judge/base/file_input.hpp"

#include <cerrno>
#include <cstdio>
#include <memory>
#include <stdexcept>

namespace judge {

std::optional<std::string> read_file(const std::filesystem::path& file, std::error_code& error) {
  error.clear();
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> in(std::fopen(file.c_str(), "rb"), &std::fclose);
  if (!in) {
    error.assign(errno, std::generic_category());
    return std::nullopt;
  }
  std::string text;
  char buffer[64 * 1024];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, in.get())) > 0;) text.append(buffer, n);
  // A folder opens, and only the read fails (EISDIR).
  if (std::ferror(in.get())) {
    error.assign(errno ? errno : EIO, std::generic_category());
    return std::nullopt;
  }
  return text;
}

std::string read_file(const std::filesystem::path& file) {
  std::error_code error;
  std::optional<std::string> text = read_file(file, error);
  if (!text) throw std::runtime_error("cannot read " + file.string() + ": " + error.message());
  return std::move(*text);
}

} // namespace judge
