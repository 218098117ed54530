// The output files of checked calls: raw little-endian float32, written by the runner under names the
// judge chose, into the scratch folder the judge created; read once by the judge and removed.
#pragma once

#include "judge/grading/scratch_folder.hpp"
#include "common/wire.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace judge {

/// The name the judge gives the file of output `buffer` of checked call `check` of case `case_index`:
/// "3.0.C.bin" (a plain name: buffer names are C identifiers).
std::string output_file_name(std::int64_t case_index, std::size_t check, const std::string& buffer);

/// Whether `answer` lists output `file` among those its runner says are ready.
bool reported_ready(const judge_wire::check_answer& answer, const std::string& file);

/// One output of a checked call: its values, or why they could not be read.
struct output_read {
  std::optional<std::vector<float>> values;
  std::string problem; ///< "output file 3.0.C.bin holds 12 bytes, not 16", when values is empty
};

/// Reads output file `file` (`count` floats), which `answer` must list as ready, from `scratch`, then
/// removes it. Only a regular file right in the folder of exactly `count` floats is read: a link is not
/// followed and nothing but that entry of the folder is removed. The values are read into `reuse`'s
/// memory when it is given (the last read's values, handed back): a grader reading a 100 MB output per
/// checked call then touches memory it has, where a fresh buffer is zeroed and faulted in page by page.
output_read take_output(const scratch_folder& scratch, const judge_wire::check_answer& answer, const std::string& file,
                        std::int64_t count, std::vector<float> reuse = {});

/// A text file a runner wrote (a recording of a call's device work): its bytes, or why they cannot be had.
struct text_read {
  std::optional<std::string> text;
  std::string problem;
};

/// Reads file `file` from `scratch` (a regular file right in the folder, no link followed, at most
/// `max_bytes`), then removes it.
text_read take_text(const scratch_folder& scratch, const std::string& file, std::uint64_t max_bytes);

/// Moves file `file` from scratch folder `from` into `to` as `name`, unread: a regular file right in the
/// folder (no link followed), at most `max_bytes` (checked while copying, whatever the file grows to),
/// readable by the runner that owns `to`. Returns "" or why it cannot be moved; the source is removed
/// either way. For a recording, which only the replaying runner parses (docs/security.md).
std::string pass_file(const scratch_folder& from, const std::string& file, const scratch_folder& to,
                      const std::string& name, std::uint64_t max_bytes);

} // namespace judge
