// judge rejudge <problem> [--since TIME] --server URL: an instructor has the server grade every stored
// submission to a problem again, on its current cases, queued like new ones. The old results stay; the
// new ones carry the new case-set version, and the board ranks by them.
#include "judge/cli/cli.hpp"

#include "judge/base/environment.hpp"
#include "judge/base/usage_error.hpp"
#include "judge/report/leaderboard.hpp"
#include "judge/service/queue/api_client.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace judge::cli {

namespace {
struct rejudge_flags {
  std::string problem, since, server;
};

int rejudge(const context&, const rejudge_flags& f) {
  std::string since;
  if (!f.since.empty()) {
    try {
      since = parse_before(f.since);
    } catch (const std::invalid_argument& e) {
      throw usage_error(std::string("--since ") + e.what());
    }
  }
  const service::server_url server = service::parse_server_url(f.server);
  service::api_client client(
      server, service::read_token(non_empty_env(env_name(judge_env::token)), service::default_token_file()));
  nlohmann::json answer;
  try {
    answer = client.rejudge(f.problem, since);
  } catch (const service::server_refusal& e) {
    if (e.status() >= 500) throw std::runtime_error(fmt::format("the server failed: {}", e.what()));
    throw usage_error(fmt::format("the server refused the rejudge: {}", e.what()));
  } catch (const service::server_unreachable& e) {
    throw usage_error(e.what());
  }
  const nlohmann::json& ids = answer.at("queued");
  std::printf("%s: %zu submission(s)%s queued again, to be graded on case set %s\n", f.problem.c_str(), ids.size(),
              since.empty() ? "" : (" made since " + since).c_str(),
              answer.value("case_set", std::string("?")).c_str());
  for (const auto& id : ids)
    std::printf("%lld  %s\n", static_cast<long long>(id.get<std::int64_t>()),
                client.page_url(id.get<std::int64_t>()).c_str());
  if (!ids.empty())
    std::fputs("judge: the board ranks each author by the new grades as they come in; the old results stay\n", stderr);
  return 0;
}
} // namespace

void add_rejudge(CLI::App& app, context& ctx) {
  auto [sub, flags] = add_problem_command<rejudge_flags>(
      app, ctx, "rejudge",
      "have the server grade a problem's submissions again on its current cases (instructors; the old results "
      "stay)",
      rejudge);
  sub->add_option("--since", flags->since,
                  "only submissions made at or after TIME (UTC; YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS])");
  sub->add_option("--server", flags->server, "the server's URL, e.g. http://judge.example.edu:8080")
      ->envname(env_name(judge_env::server))
      ->required();
}

} // namespace judge::cli
