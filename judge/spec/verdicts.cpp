#include "verdicts.hpp"

namespace judge {

std::string short_name(verdict v) {
  switch (v) {
  case verdict::accepted:
    return "AC";
  case verdict::wrong_answer:
    return "WA";
  case verdict::compile_error:
    return "CE";
  case verdict::run_time_error:
    return "RTE";
  case verdict::time_limit_exceeded:
    return "TLE";
  case verdict::internal_error:
    return "IE";
  }
  return "IE";
}

std::string folder_name(verdict v) {
  switch (v) {
  case verdict::accepted:
    return "accepted";
  case verdict::wrong_answer:
    return "wrong_answer";
  case verdict::compile_error:
    return "compile_error";
  case verdict::run_time_error:
    return "run_time_error";
  case verdict::time_limit_exceeded:
    return "time_limit_exceeded";
  case verdict::internal_error:
    return "internal_error";
  }
  return "internal_error";
}

std::optional<verdict> verdict_from_folder(const std::string& folder) {
  for (verdict v : {verdict::accepted, verdict::wrong_answer, verdict::compile_error, verdict::run_time_error,
                    verdict::time_limit_exceeded, verdict::internal_error})
    if (folder == folder_name(v)) return v;
  return std::nullopt;
}

} // namespace judge
