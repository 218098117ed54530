// The similarity report of a problem: pairs of submissions by different authors whose fingerprints
// (source_fingerprint.hpp) overlap at least a threshold, most similar first, as text and JSON. It points an
// instructor at pairs to read side by side; it decides nothing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace judge {

/// One submission as the report compares it: its files' text joined.
struct compared_source {
  std::string author;
  std::string label; ///< how it is named: "submission 17", a path
  std::int64_t id = 0; ///< its submission number on a server; 0 for a file
  std::string text;
};

struct similar_pair {
  const compared_source* a = nullptr;
  const compared_source* b = nullptr;
  double overlap = 0; ///< [fraction] source_fingerprint.hpp's overlap()
};

/// Every pair of `sources` by different authors whose overlap, the fingerprints of `starter` left out, is
/// at least `threshold` (0 to 1), most similar first. The pairs point into `sources`.
std::vector<similar_pair> similar_pairs(const std::vector<compared_source>& sources, const std::string& starter,
                                        double threshold);

/// A table: overlap, the two authors and what each submitted; or a line saying none reached the threshold.
std::string similarity_text(const std::string& problem, std::size_t compared, double threshold,
                            const std::vector<similar_pair>& pairs);
/// {"problem", "compared", "threshold", "pairs": [{"overlap", "a": {"author", "label", "id"}, "b": ...}]}.
std::string similarity_json(const std::string& problem, std::size_t compared, double threshold,
                            const std::vector<similar_pair>& pairs);

} // namespace judge
