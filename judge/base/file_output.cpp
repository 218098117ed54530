#include "file_output.hpp"

#include <fmt/format.h>

#include <fstream>
#include <stdexcept>

namespace judge {

void write_file_atomically(const std::filesystem::path& path, const std::string& text, const std::string& what) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) throw std::runtime_error(fmt::format("cannot create the folder of {}: {}", path.string(), ec.message()));
  std::filesystem::path temporary = path;
  temporary += ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
      std::filesystem::remove(temporary, ec);
      throw std::runtime_error(fmt::format("cannot write {} {}", what, temporary.string()));
    }
  }
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    const std::string why = ec.message();
    std::filesystem::remove(temporary, ec);
    throw std::runtime_error(fmt::format("cannot write {} {}: {}", what, path.string(), why));
  }
}

} // namespace judge
