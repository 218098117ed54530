// Opening the results store to read it (history, leaderboard): reading never creates a store.
#pragma once

#include "judge/cli/cli.hpp"
#include "judge/store/results_db.hpp"

#include <optional>
#include <string>

namespace judge::cli {

/// The store named by --db (`db_option`), else results/judge.db, opened to read. A --db file that does not
/// exist is a usage error naming it (a mistyped path must not read as "no results"); the default store not
/// existing yet means nothing was graded: nullopt, like an empty store.
std::optional<results_db> open_store_to_read(const context& ctx, const std::string& db_option);

} // namespace judge::cli
