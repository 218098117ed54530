// judge similarity <problem> [--threshold 0.8] [--json]: pairs of near-identical submissions to a problem
// in the store's queue (what a server was sent), by token winnowing (report/source_fingerprint.hpp).
#include "judge/cli/cli.hpp"

#include "judge/base/file_input.hpp"
#include "judge/base/usage_error.hpp"
#include "judge/cli/cli_store.hpp"
#include "judge/problem/problem.hpp"
#include "judge/report/similarity.hpp"
#include "judge/service/queue/similarity_sources.hpp"

#include <cstdio>

namespace judge::cli {

namespace {
struct similarity_flags {
  std::string problem, db_file;
  double threshold = 0.8;
  bool json = false;
};

int similarity(const context& ctx, const similarity_flags& f) {
  if (!(f.threshold >= 0 && f.threshold <= 1))
    throw usage_error("--threshold " + std::to_string(f.threshold) + ": give a fraction from 0 to 1, e.g. 0.8");
  // An unknown problem is a usage error, not an empty report.
  const problem_spec spec = load_problem(ctx.where.problems() / f.problem);
  std::error_code no_starter;
  const std::string starter = read_file(spec.dir / "starter.cu", no_starter).value_or("");
  std::vector<compared_source> sources;
  if (std::optional<results_db> db = open_store_to_read(ctx, f.db_file)) {
    service::submission_queue queue(*db);
    sources = service::similarity_sources(queue, f.problem);
  }
  const std::vector<similar_pair> pairs = similar_pairs(sources, starter, f.threshold);
  std::fputs((f.json ? similarity_json(f.problem, sources.size(), f.threshold, pairs)
                     : similarity_text(f.problem, sources.size(), f.threshold, pairs))
                 .c_str(),
             stdout);
  return 0;
}
} // namespace

void add_similarity(CLI::App& app, context& ctx) {
  auto [sub, flags] = add_problem_command<similarity_flags>(
      app, ctx, "similarity",
      "pairs of near-identical submissions to a problem on the server's store (each account's latest), by token "
      "winnowing",
      similarity);
  add_store_option(*sub, flags->db_file);
  sub->add_option("--threshold", flags->threshold,
                  "the least overlap of fingerprints a pair must have to be listed, from 0 to 1 (default 0.8)");
  sub->add_flag("--json", flags->json, "print JSON instead of a table");
}

} // namespace judge::cli
