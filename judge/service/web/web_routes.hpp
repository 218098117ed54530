// The web UI's routes (web_routes.cpp): who is asking (the judge_token cookie), what they may see, and
// which page shows it (web_pages.hpp renders).
#pragma once

#include "judge/service/http/http_server.hpp"
#include "judge/service/queue/service_state.hpp"

namespace judge::service {

void add_web_routes(http_router& server, service_state& state);

} // namespace judge::service
