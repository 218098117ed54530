// The output files of checked calls: raw little-endian float32, written by the runner into its scratch
// folder, read once by the judge and removed.
#pragma once

#include "wire.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace judge {

/// Reads a raw float32 file of exactly `count` elements; nullopt if absent or of another size.
std::optional<std::vector<float>> read_floats(const std::filesystem::path& file, std::int64_t count);

/// One output of a checked call: its values, or why they could not be read.
struct output_read {
  std::optional<std::vector<float>> values;
  std::string problem; ///< "output file /s/3.0.C.bin holds 12 bytes, not 16", when values is empty
};

/// Reads output `name` (`count` floats) from the file `answer` names for it, then removes the file.
output_read take_output(const judge_wire::check_answer& answer, const std::string& name, std::int64_t count);

} // namespace judge
