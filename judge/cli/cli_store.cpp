#include "judge/cli/cli_store.hpp"

#include "judge/base/usage_error.hpp"

namespace judge::cli {

std::optional<results_db> open_store_to_read(const context& ctx, const std::string& db_option) {
  const std::filesystem::path path = ctx.where.store(db_option);
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) return std::optional<results_db>(std::in_place, path);
  if (!db_option.empty())
    throw usage_error("--db " + path.string() + " does not exist (give the results database a judge wrote)");
  return std::nullopt;
}

} // namespace judge::cli
