#include "output_files.hpp"

#include <fmt/format.h>

#include <fstream>

namespace judge {

std::optional<std::vector<float>> read_floats(const std::filesystem::path& file, std::int64_t count) {
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(file, ec);
  if (ec || bytes != static_cast<std::uintmax_t>(count) * sizeof(float)) return std::nullopt;
  std::vector<float> values(static_cast<std::size_t>(count));
  std::ifstream in(file, std::ios::binary);
  if (!in.read(reinterpret_cast<char*>(values.data()), static_cast<std::streamsize>(bytes))) return std::nullopt;
  return values;
}

output_read take_output(const judge_wire::check_answer& answer, const std::string& name, std::int64_t count) {
  std::filesystem::path file;
  for (const judge_wire::output_file& o : answer.outputs)
    if (o.name == name) file = o.file;
  output_read read;
  if (file.empty()) {
    read.problem = fmt::format("the runner named no file for output {}", name);
    return read;
  }
  read.values = read_floats(file, count);
  std::error_code ec;
  if (!read.values) {
    const auto size = std::filesystem::file_size(file, ec);
    read.problem = ec ? fmt::format("output file {} cannot be read: {}", file.string(), ec.message())
                      : fmt::format("output file {} holds {} bytes, not {}", file.string(), size, count * 4);
  }
  std::filesystem::remove(file, ec);
  return read;
}

} // namespace judge
