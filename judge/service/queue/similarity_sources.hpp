// What the similarity report (report/similarity.hpp) compares on a server: each account's latest
// submission to a problem, its files' text joined. The CLI and the instructors' page read the same.
#pragma once

#include "judge/report/similarity.hpp"
#include "judge/service/queue/submission_queue.hpp"

#include <string>
#include <vector>

namespace judge::service {

/// Each account's latest submission to `problem` in `queue` (rejudged copies aside), by account.
std::vector<compared_source> similarity_sources(submission_queue& queue, const std::string& problem);

} // namespace judge::service
