#include "judge/report/source_fingerprint.hpp"

#include "judge/base/fnv1a.hpp"

#include <algorithm>
#include <iterator>
#include <cctype>

namespace judge {

namespace {

// Words kept as they are: they carry the structure of a solution, where names carry only taste.
constexpr std::string_view kept_words[] = {
    "auto",        "bool",         "break",       "case",          "char",         "const",      "constexpr",
    "continue",    "default",      "do",          "double",       "else",         "enum",       "extern",
    "float",       "for",          "goto",        "if",            "inline",       "int",        "long",
    "return",      "short",        "signed",      "sizeof",        "static",       "struct",     "switch",
    "template",    "typename",     "unsigned",    "void",          "volatile",     "while",      "class",
    "namespace",   "using",        "nullptr",     "true",          "false",        "size_t",     "__global__",
    "__device__",  "__host__",     "__shared__",  "__constant__",  "__restrict__", "__forceinline__",
    "__syncthreads", "__syncwarp", "threadIdx",   "blockIdx",      "blockDim",     "gridDim",    "warpSize",
    "atomicAdd",     "atomicMax",    "atomicMin",  "__shfl_down_sync",
    "__shfl_xor_sync", "__shfl_sync", "float4",   "float2",        "int4",         "dim3",       "fmaf",
    "min",         "max",          "solve"};

bool kept(std::string_view word) {
  return std::find(std::begin(kept_words), std::end(kept_words), word) != std::end(kept_words);
}

bool identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

} // namespace

std::vector<std::string> normalised_tokens(std::string_view text) {
  std::vector<std::string> tokens;
  std::size_t i = 0;
  bool line_start = true;
  const auto skip_to_line_end = [&] {
    // A preprocessor line may continue with a backslash.
    while (i < text.size() && text[i] != '\n') i += text[i] == '\\' && i + 1 < text.size() ? 2 : 1;
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      line_start = true;
      ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (line_start && c == '#') {
      skip_to_line_end();
      continue;
    }
    line_start = false;
    if (text.compare(i, 2, "//") == 0) {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (text.compare(i, 2, "/*") == 0) {
      const std::size_t end = text.find("*/", i + 2);
      i = end == std::string_view::npos ? text.size() : end + 2;
    } else if (identifier_start(c)) {
      const std::size_t start = i;
      while (i < text.size() && identifier_char(text[i])) ++i;
      const std::string_view word = text.substr(start, i - start);
      // A member's name is kept: threadIdx.x and a float4's .w are structure, where a variable x is a name.
      const std::size_t n = tokens.size();
      const bool member = n > 0 && (tokens[n - 1] == "." || (n > 1 && tokens[n - 1] == ">" && tokens[n - 2] == "-"));
      tokens.emplace_back(kept(word) || member ? std::string(word) : "V");
    } else if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && i + 1 < text.size() &&
                                                                 std::isdigit(static_cast<unsigned char>(text[i + 1])))) {
      // 1, 0x1F, 1.5e-3f, 1'000: a number's letters, digits, dots, quotes and exponent signs.
      while (i < text.size() && (identifier_char(text[i]) || text[i] == '.' || text[i] == '\'' ||
                                 ((text[i] == '+' || text[i] == '-') && (text[i - 1] == 'e' || text[i - 1] == 'E'))))
        ++i;
      tokens.emplace_back("N");
    } else if (c == '"' || c == '\'') {
      ++i;
      while (i < text.size() && text[i] != c && text[i] != '\n') i += text[i] == '\\' ? 2 : 1;
      ++i;
      tokens.emplace_back("S");
    } else {
      // Punctuation one character at a time: `a+=b` and `a = a + b` stay different, spacing aside.
      tokens.emplace_back(1, c);
      ++i;
    }
  }
  return tokens;
}

std::set<std::uint64_t> fingerprints(std::string_view text, const winnowing& how) {
  const std::vector<std::string> tokens = normalised_tokens(text);
  std::vector<std::uint64_t> hashes;
  for (std::size_t start = 0; start + how.k <= tokens.size(); ++start) {
    std::uint64_t h = fnv1a_basis;
    for (std::size_t t = start; t < start + how.k; ++t) h = fnv1a(tokens[t] + '\x1f', h);
    hashes.push_back(h);
  }
  std::set<std::uint64_t> kept_hashes;
  if (hashes.empty()) return kept_hashes;
  if (hashes.size() <= how.w) {
    kept_hashes.insert(*std::min_element(hashes.begin(), hashes.end()));
    return kept_hashes;
  }
  for (std::size_t start = 0; start + how.w <= hashes.size(); ++start)
    kept_hashes.insert(*std::min_element(hashes.begin() + static_cast<std::ptrdiff_t>(start),
                                         hashes.begin() + static_cast<std::ptrdiff_t>(start + how.w)));
  return kept_hashes;
}

double overlap(const std::set<std::uint64_t>& a, const std::set<std::uint64_t>& b,
               const std::set<std::uint64_t>& common) {
  std::size_t shared = 0, either = 0;
  std::set<std::uint64_t> all(a);
  all.insert(b.begin(), b.end());
  for (std::uint64_t h : all) {
    if (common.count(h)) continue;
    ++either;
    if (a.count(h) && b.count(h)) ++shared;
  }
  return either == 0 ? 0 : static_cast<double>(shared) / static_cast<double>(either);
}

} // namespace judge
