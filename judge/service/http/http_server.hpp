// The HTTP/1.1 server of `judge serve`, on Boost.Beast and Asio: a few I/O threads carry every
// connection without blocking, and a pool of handler threads runs routes for requests that have fully
// arrived. A slow or idle client costs a socket and a few KiB, never a thread, so the capacity to answer
// does not end at the thread count (docs/deploy.md has the measurements behind this choice).
//
// What an unknown client can make the server hold is bounded before any route runs: the header section
// (bytes and fields), the body (refused once it passes the cap, however it is framed: Content-Length,
// chunked; a request without either has no body in HTTP/1.1, and compressed bodies are refused rather
// than inflated), and time (one deadline for a whole request, from its first byte to its last). A body
// larger than `anonymous_body` is read only for a request `trusted` admits from its headers (a valid
// token), so memory held for strangers is connections × (header + anonymous_body).
#pragma once

#include "judge/service/http/http_message.hpp"

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

namespace judge::service {

using http_handler = std::function<void(const http_request&, http_response&)>;

/// The routes: a method and a pattern matched against the whole decoded path (its groups in
/// request.matches), first match wins.
class http_router {
public:
  void get(const std::string& pattern, http_handler handler);
  void post(const std::string& pattern, http_handler handler);
  /// Runs the route of `request` into `response`: 404 when none matches; a bad_request it throws is a
  /// 400, an http_unavailable a 503 and any other exception a 500, each with {"error": ...}.
  void dispatch(http_request& request, http_response& response) const;
  /// Whether a request, from its headers alone, may send a body larger than http_limits::anonymous_body
  /// (it carries a valid token). Unset: none may. Called on a handler thread (it may read the store).
  void set_trusted(std::function<bool(const http_request& head)> trusted) { m_trusted = std::move(trusted); }
  bool trusted(const http_request& head) const { return m_trusted && m_trusted(head); }

private:
  struct route {
    std::string method;
    std::regex pattern;
    http_handler handler;
  };
  std::vector<route> m_routes;
  std::function<bool(const http_request&)> m_trusted;
};

struct http_limits {
  std::size_t header_bytes = 16 * 1024;   ///< request line and headers together (431 beyond)
  std::size_t header_fields = 100;        ///< header lines (431 beyond)
  std::size_t anonymous_body = 64 * 1024; ///< the body of a request `trusted` does not admit (413 beyond)
  std::size_t body = 16 * 1024 * 1024;    ///< any body (413 beyond)
  /// From a request's first byte (or, on a kept-alive connection, the end of the previous answer) to its
  /// last; a client slower than that is disconnected.
  std::chrono::milliseconds request_deadline{30000};
  /// Open at once. A connection beyond it takes the place of the one that has waited longest for its
  /// request (idle or slow); when every one is being answered, it is closed.
  std::size_t connections = 4096;
  unsigned io_threads = 2;
  unsigned handler_threads = 8;
};

/// The server cannot do what was asked now, through no fault of the request (its store cannot be
/// written): a route throws it for a 503 with Retry-After and the message.
class http_unavailable : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// The address given cannot be listened on (in use, or not this machine's).
class listen_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

class http_server {
public:
  http_server(const http_router& router, http_limits limits);
  ~http_server();
  http_server(const http_server&) = delete;
  http_server& operator=(const http_server&) = delete;

  /// Binds `host`:`port` (0: any free port) and returns the port. SO_REUSEADDR only, never SO_REUSEPORT:
  /// a restarted server takes its port at once, but a second server cannot share it. Throws listen_error.
  int bind(const std::string& host, int port);
  /// Serves until stop(); returns when every I/O thread has ended.
  void run();
  /// From any thread, also before run(): run() returns soon after.
  void stop();

  struct impl; ///< http_server.cpp: the I/O context, the handler threads, the acceptor (its sessions use it)

private:
  std::unique_ptr<impl> m;
};

} // namespace judge::service
