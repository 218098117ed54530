// What a client may submit: a known problem and 1..max_files source files with plain names, none too
// large. Checked before anything is queued; a refusal is one message naming what and where.
#pragma once

#include "judge/service/http/http_message.hpp"
#include "judge/service/queue/submission_queue.hpp"

#include <chrono>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace judge::service {

struct submission_request {
  std::string problem;
  std::vector<source_file> files;
};

struct submission_limits {
  std::size_t max_files = 8;
  std::size_t max_file_bytes = 256 * 1024;
};

/// A file name a submission may use: [A-Za-z0-9_.-]+ ending .cu, .cuh or .h, at most 100 characters, not
/// starting with '.' (no paths, nothing hidden, nothing the shell or a URL would read otherwise).
bool valid_source_name(const std::string& name);

/// Checks a submission however it came (the API's JSON, the web page's form): a known problem
/// (`known_problem` says), 1..max_files files with valid, distinct names, none larger than max_file_bytes,
/// at least one .cu. Throws bad_request naming the file by position (files[i]) and what is wrong.
void check_submission(const submission_request& request, const submission_limits& limits,
                      const std::function<bool(const std::string&)>& known_problem);

/// Parses `body`: {"problem": "...", "files": [{"name": "...", "content": "..."}, ...]} and checks it
/// (check_submission). Throws bad_request.
submission_request parse_submission_request(const std::string& body, const submission_limits& limits,
                                            const std::function<bool(const std::string&)>& known_problem);

/// A rate limit's refusal (HTTP 429): the message and how long to wait [s] (Retry-After).
struct refusal {
  std::string message;
  int retry_after = 0;
};

/// Whether `account` (a student: instructors have no limits) may submit now: fewer than `per_minute`
/// submissions in the last 60 s and fewer than `queued_at_once` not yet graded.
std::optional<refusal> rate_limit(submission_queue& queue, const std::string& account, int per_minute,
                                  int queued_at_once, std::chrono::system_clock::time_point now);

/// ISO-8601 UTC of `t`, as utc_now() writes the present.
std::string utc_text(std::chrono::system_clock::time_point t);

} // namespace judge::service
