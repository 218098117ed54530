#include "judge/report/similarity.hpp"

#include "judge/report/source_fingerprint.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

namespace judge {

std::vector<similar_pair> similar_pairs(const std::vector<compared_source>& sources, const std::string& starter,
                                        double threshold) {
  const std::set<std::uint64_t> common = fingerprints(starter);
  std::vector<std::set<std::uint64_t>> prints;
  for (const compared_source& s : sources) prints.push_back(fingerprints(s.text));
  std::vector<similar_pair> pairs;
  for (std::size_t i = 0; i < sources.size(); ++i)
    for (std::size_t j = i + 1; j < sources.size(); ++j) {
      if (sources[i].author == sources[j].author) continue; // one's own submissions are alike by right
      const double o = overlap(prints[i], prints[j], common);
      if (o >= threshold && o > 0) pairs.push_back({&sources[i], &sources[j], o});
    }
  std::stable_sort(pairs.begin(), pairs.end(), [](const similar_pair& x, const similar_pair& y) {
    return x.overlap > y.overlap;
  });
  return pairs;
}

std::string similarity_text(const std::string& problem, std::size_t compared, double threshold,
                            const std::vector<similar_pair>& pairs) {
  std::string out = fmt::format("{}: {} submission(s) compared, pairs at or above {:.0f}% overlap of fingerprints "
                                "(the starter's left out)\n",
                                problem, compared, threshold * 100);
  if (pairs.empty()) return out + "no pair reaches it\n";
  out += fmt::format("{:>8}  {:<16}  {:<24}  {:<16}  {}\n", "overlap", "author", "submitted", "author", "submitted");
  for (const similar_pair& p : pairs)
    out += fmt::format("{:>7.1f}%  {:<16}  {:<24}  {:<16}  {}\n", p.overlap * 100, p.a->author, p.a->label,
                       p.b->author, p.b->label);
  return out;
}

std::string similarity_json(const std::string& problem, std::size_t compared, double threshold,
                            const std::vector<similar_pair>& pairs) {
  const auto side = [](const compared_source& s) {
    return nlohmann::json{{"author", s.author}, {"label", s.label}, {"id", s.id}};
  };
  nlohmann::json doc = {
      {"problem", problem}, {"compared", compared}, {"threshold", threshold}, {"pairs", nlohmann::json::array()}};
  for (const similar_pair& p : pairs) doc["pairs"].push_back({{"overlap", p.overlap}, {"a", side(*p.a)}, {"b", side(*p.b)}});
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace judge
