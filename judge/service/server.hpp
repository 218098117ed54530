// `judge serve`: one process on the GPU host. An HTTP server (http/http_server.hpp) takes submissions into
// the durable queue (queue/) and answers the JSON API (api_routes.cpp) and the web pages (web/); a pool
// of compile threads builds them on the CPU cores ahead of the GPUs; one worker per GPU grades them,
// pinned to its GPU, or Slurm jobs do (slurm/). TLS is left to a reverse proxy (docs/deploy.md).
#pragma once

#include "judge/service/http/http_server.hpp"
#include "judge/service/queue/server_options.hpp"
#include "judge/service/queue/service_state.hpp"

#include <functional>
#include <string>

namespace judge::service {

void add_api_routes(http_router& server, service_state& state); ///< api_routes.cpp

/// Runs the server until SIGTERM/SIGINT: recovers the queue, starts the compile threads and the GPU
/// workers, listens, and on the signal stops accepting, lets the workers end and returns. Throws
/// listen_error naming the address when it cannot listen, and store_in_use (queue/store_lock.hpp) when
/// another server holds the store.
void serve(const server_options& options, const std::function<void(const std::string&)>& log);

} // namespace judge::service
