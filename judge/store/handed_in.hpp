// What a course's gradebook and boards read of the online judge's queue (service/queue/submission_queue.hpp
// writes it): every submission a server took for some problems, who made it and when, how it stands, its
// result document and its standing in the course. Read only; the queue's table, as the schema ladder
// declares it (store_schema.hpp).
#pragma once

#include "judge/store/results_db.hpp"
#include "judge/store/state_names.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace judge::store {

struct handed_in {
  std::int64_t id = 0;
  std::string account;
  std::string problem;
  std::string submitted_at; ///< ISO-8601 UTC, the server's clock when it was stored
  submission_state state = submission_state::queued;
  std::optional<nlohmann::json> result; ///< done: its result document (report/report_json.hpp's to_json)
  /// done and recorded among the results (a run on a GPU, or a compile error): its id there
  /// (results_db::recorded_for); nullopt for a result not recorded (compiled, not run)
  std::optional<std::int64_t> result_id;
  std::string assignment;               ///< the assignment it was made for, "" for none (schema version 8)
  std::int64_t late_seconds = 0;        ///< [s] how late it was for it when made; 0 in time
};

/// Every submission to any of `problems`, oldest first.
std::vector<handed_in> handed_in_to(results_db& store, const std::vector<std::string>& problems);

} // namespace judge::store
