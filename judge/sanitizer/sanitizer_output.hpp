// compute-sanitizer's text report as facts: a pure parser (no process, no GPU), unit-tested on captured
// output (tests/data/sanitizer/). Each error becomes a finding: what kind of access went wrong, in which
// kernel, at which line of the learner's file, by which thread and block, and where its address lies
// relative to the judge's buffer it missed (with the runner's buffer map, common/buffer_map.hpp). Words
// are made in sanitizer_text.hpp, not here.
#pragma once

#include "common/buffer_map.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace judge {

/// The compute-sanitizer tools the judge runs (its --tool names).
enum class sanitizer_tool { memcheck, racecheck, initcheck };
const char* tool_name(sanitizer_tool tool);
std::optional<sanitizer_tool> tool_from_name(const std::string& name);

enum class sanitizer_error_kind {
  invalid_access,     ///< memcheck: an access outside any allocation, or misaligned
  hardware_exception, ///< memcheck: the GPU stopped a warp ("Warp Illegal Address", "Misaligned Address")
  uninitialised_read, ///< initcheck: a read of global memory nothing wrote
  shared_race,        ///< racecheck: two accesses to shared memory with no barrier between them
  cuda_api_error,     ///< a CUDA call returned an error (what the learner's code was told)
  other,              ///< an error line the parser does not know; its text is kept
};
enum class memory_space { unknown, global, shared, local };
enum class access_kind { unknown, read, write, atomic };

/// Where an address lies relative to the buffer it belongs to or missed.
enum class buffer_relation {
  unknown, ///< no buffer map, or no buffer near enough to name
  inside,  ///< within the buffer (misaligned, or uninitialised)
  after,   ///< `distance` bytes past its end (0: the first byte after it)
  before,  ///< `distance` bytes before its start (1: the byte just before it)
};

/// A learner's source line, as the learner names the file (the judge's staging folders removed).
struct source_line {
  std::string file; ///< "writes_past_end.cu"; empty without line information
  int line = 0;

  bool operator==(const source_line& o) const { return file == o.file && line == o.line; }
};

struct sanitizer_finding {
  sanitizer_tool tool = sanitizer_tool::memcheck;
  sanitizer_error_kind kind = sanitizer_error_kind::other;
  memory_space space = memory_space::unknown;
  access_kind access = access_kind::unknown;
  int size = 0;       ///< [B] of the access; 0 when not said
  std::string kernel; ///< the kernel's name as the sanitizer printed it (with its parameters)
  source_line at;
  std::optional<std::array<int, 3>> thread, block;
  std::optional<std::uint64_t> address;
  /// The judge's buffer the address belongs to or missed, and where it lies relative to it.
  std::string buffer;
  std::uint64_t buffer_bytes = 0; ///< [B]
  buffer_relation relation = buffer_relation::unknown;
  std::uint64_t distance = 0; ///< [B] after/before: how far outside; inside: the offset from the start
  /// shared_race: the other access of the pair, its line, and how many hazards the pair stands for.
  access_kind other_access = access_kind::unknown;
  source_line other_at;
  int hazards = 0;
  /// cuda_api_error: the error's name ("cudaErrorInvalidValue") and the call ("cudaMemcpy").
  std::string api_error, api_call;
  std::string headline; ///< the error's first line as printed (for `other`, and for the curious)

  bool operator==(const sanitizer_finding& o) const;
};

/// What one tool found in one run.
struct sanitizer_findings {
  std::vector<sanitizer_finding> findings; ///< in the order printed, at most `kept` of them
  int errors = -1;           ///< the tool's own count ("ERROR SUMMARY: 3 errors"); -1 when it printed none
  bool summary_seen = false; ///< the tool reached its summary (it was not cut off)
};

/// The learner's file name for a path in line information: the judge compiles copies of the learner's
/// files in `<cache>/<problem>/.tmp-<hash>-<pid>-<n>/src/`, which is taken off; other paths are kept.
std::string learner_file(const std::string& path);

/// Parses compute-sanitizer's output of `tool` (lines starting "========= "; other lines, the learner's
/// prints, are skipped), keeping at most `kept` findings. With `buffers` (the runner's map), each
/// address is placed relative to the buffer it belongs to or is nearest to.
sanitizer_findings parse_sanitizer_output(sanitizer_tool tool, const std::string& text,
                                          const std::vector<judge_wire::buffer_place>& buffers, std::size_t kept = 8);

/// The runner's buffer map lines in `text` (common/buffer_map.hpp), the last call's: a map line after a
/// non-map line starts a new map.
std::vector<judge_wire::buffer_place> parse_buffer_map(const std::string& text);

} // namespace judge
