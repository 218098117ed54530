#include "judge/service/queue/similarity_sources.hpp"

namespace judge::service {

std::vector<compared_source> similarity_sources(submission_queue& queue, const std::string& problem) {
  std::vector<compared_source> out;
  for (const submission& s : queue.latest_per_account(problem)) {
    compared_source c{s.account, "submission " + std::to_string(s.id), s.id, ""};
    // Files in name order, as they were stored: a solution split differently joins to the same text.
    for (const source_file& f : s.files) c.text += f.content + "\n";
    out.push_back(std::move(c));
  }
  return out;
}

} // namespace judge::service
