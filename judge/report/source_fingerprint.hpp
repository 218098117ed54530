// A source file's fingerprints for finding near-identical submissions, by winnowing (Schleimer, Wilkerson
// and Aiken, "Winnowing: local algorithms for document fingerprinting", 2003; the method of MOSS). The
// text is cut into C/CUDA tokens with comments, whitespace and preprocessor lines left out, every
// identifier that is not a keyword, a CUDA built-in or a member's name (`.x`) becomes one token, and every
// number and string another; each run of k tokens is hashed, and of every w consecutive hashes the
// smallest is kept.
//
// What it sees: renamed identifiers, reformatting, changed comments and constants give the same
// fingerprints. Reordered functions keep most of them (only the k-grams across a boundary change).
// Inserted dead code lowers the overlap in proportion to its length. A rewritten algorithm is not found.
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace judge {

/// The normalised tokens of C++/CUDA source `text` (see above): "V" for an identifier, "N" a number,
/// "S" a string or character literal, a keyword or punctuation as it is.
std::vector<std::string> normalised_tokens(std::string_view text);

struct winnowing {
  std::size_t k = 8; ///< tokens per hashed run: shorter runs are common to every solution
  std::size_t w = 4; ///< hashes per window: any shared run of k + w - 1 tokens is found
};

/// The fingerprints of `text`: the winnowed hashes of its runs of k normalised tokens.
std::set<std::uint64_t> fingerprints(std::string_view text, const winnowing& how = {});

/// |a ∩ b| / |a ∪ b| over the fingerprints not in `common` (the starter's: what every submission shares
/// by right); 0 when either has none left.
double overlap(const std::set<std::uint64_t>& a, const std::set<std::uint64_t>& b,
               const std::set<std::uint64_t>& common = {});

} // namespace judge
