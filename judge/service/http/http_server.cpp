#include "judge/service/http/http_server.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <nlohmann/json.hpp>

#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>

namespace judge::service {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {
std::string error_json(const std::string& message) {
  return nlohmann::json{{"error", message}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void set_error(http_response& res, int status, const std::string& message) {
  res.status = status;
  res.set_content(error_json(message), "application/json");
}

/// The request as the routes see it: the path decoded, the query and a form's fields parsed.
http_request request_of(http::request<http::string_body>&& in) {
  http_request out;
  out.method = std::string(in.method_string());
  out.target = std::string(in.target());
  const std::size_t question = out.target.find('?');
  out.path = percent_decode(out.target.substr(0, question), false);
  if (question != std::string::npos) parse_query(out.target.substr(question + 1), out.params);
  for (const auto& field : in) out.headers.emplace(std::string(field.name_string()), std::string(field.value()));
  out.body = std::move(in.body());
  return out;
}

/// A form's fields, parsed only for a route that runs (a refused request is never parsed).
void parse_form(http_request& req) {
  const std::string type = req.get_header_value("Content-Type");
  if (type.rfind("application/x-www-form-urlencoded", 0) == 0) parse_query(req.body, req.params);
  if (type.rfind("multipart/form-data", 0) == 0) parse_multipart(type, req.body, req.files);
}
} // namespace

void http_router::get(const std::string& pattern, http_handler handler) {
  m_routes.push_back({"GET", std::regex(pattern), std::move(handler)});
}

void http_router::post(const std::string& pattern, http_handler handler) {
  m_routes.push_back({"POST", std::regex(pattern), std::move(handler)});
}

void http_router::dispatch(http_request& request, http_response& response) const {
  try {
    // HEAD is GET without the body (a proxy's or a monitor's health check): the server drops the body.
    const std::string method = request.method == "HEAD" ? "GET" : request.method;
    for (const route& r : m_routes) {
      if (r.method != method || !std::regex_match(request.path, request.matches, r.pattern)) continue;
      parse_form(request);
      r.handler(request, response);
      return;
    }
    set_error(response, 404, "no such page: " + request.method + " " + request.path);
  } catch (const bad_request& e) {
    response = {};
    set_error(response, 400, e.what());
  } catch (const http_unavailable& e) {
    response = {};
    set_error(response, 503, e.what());
    response.set_header("Retry-After", "30");
  } catch (const std::exception& e) {
    response = {};
    set_error(response, 500, std::string("the judge failed: ") + e.what());
  }
}

namespace {
class session;
}

struct http_server::impl {
  const http_router& router;
  http_limits limits;
  // Before the I/O context: sessions it still holds when it is destroyed count themselves out here.
  std::atomic<std::size_t> open{0};
  std::atomic<bool> stopped{false};
  // Every open connection, to find the one that has waited longest for its request when a new one
  // comes at the cap.
  std::mutex sessions_mutex;
  std::unordered_map<const void*, std::weak_ptr<session>> sessions;
  asio::io_context io{static_cast<int>(limits.io_threads)};
  asio::thread_pool handlers{limits.handler_threads};
  tcp::acceptor acceptor{io};

  impl(const http_router& r, http_limits l) : router(r), limits(l) {}
  void accept();
  bool evict_longest_waiting(); ///< closes the connection waiting longest; false when all are busy
};

namespace {
/// One connection, on its own strand: read a request's headers, decide how large its body may be, read
/// the body, hand the request to a handler thread, write the answer, and again while the client keeps
/// the connection alive. Every step runs under the request's deadline.
class session : public std::enable_shared_from_this<session> {
public:
  session(tcp::socket socket, http_server::impl& server) : m_stream(std::move(socket)), m_server(server) {
    ++m_server.open;
  }
  ~session() {
    {
      const std::lock_guard<std::mutex> lock(m_server.sessions_mutex);
      m_server.sessions.erase(this);
    }
    --m_server.open;
  }

  void start() {
    {
      const std::lock_guard<std::mutex> lock(m_server.sessions_mutex);
      m_server.sessions[this] = weak_from_this();
    }
    asio::dispatch(m_stream.get_executor(), [self = shared_from_this()] { self->read_header(); });
  }

  /// Since when [steady clock, ns] it has waited for its request to arrive whole; 0 while one is handled.
  std::int64_t waiting_since() const { return m_waiting_since; }
  /// Closes it from any thread (it is the one that has waited longest when the server is full).
  void evict() {
    // Checked again on its strand: a request that arrived whole meanwhile is answered.
    asio::post(m_stream.get_executor(), [self = shared_from_this()] {
      if (self->m_waiting_since != 0) self->close();
    });
  }

private:
  const http_limits& limits() const { return m_server.limits; }

  void read_header() {
    m_waiting_since = std::chrono::steady_clock::now().time_since_epoch().count();
    m_parser.emplace();
    m_anonymous = false;
    m_parser->header_limit(static_cast<std::uint32_t>(limits().header_bytes));
    // The largest body any request may have; a stranger's is lowered to anonymous_body once its headers
    // are read (Content-Length beyond the cap is refused here, before a byte of the body is read).
    m_parser->body_limit(limits().body);
    m_stream.expires_after(limits().request_deadline);
    http::async_read_header(m_stream, m_buffer, *m_parser,
                            [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_header(ec); });
  }

  void on_header(beast::error_code ec) {
    if (ec) return read_failed(ec);
    const auto& head = m_parser->get();
    if (static_cast<std::size_t>(std::distance(head.begin(), head.end())) > limits().header_fields)
      return refuse(431, "a request may have at most " + std::to_string(limits().header_fields) + " header lines");
    const auto encoding = head[http::field::content_encoding];
    if (!encoding.empty() && !beast::iequals(encoding, "identity"))
      return refuse(415, "request bodies are not compressed here (Content-Encoding: " + std::string(encoding) +
                             "); send it as it is");
    if (m_parser->is_done()) return handle();
    const auto length = m_parser->content_length();
    if (length && *length <= limits().anonymous_body) return read_body();
    // A larger body (or one whose size is not yet known: chunked) only for a request with a valid token;
    // deciding that may read the store, so it runs on a handler thread, never on an I/O thread.
    http_request probe;
    probe.method = std::string(head.method_string());
    probe.target = std::string(head.target());
    probe.path = percent_decode(probe.target.substr(0, probe.target.find('?')), false);
    for (const auto& field : head) probe.headers.emplace(std::string(field.name_string()), std::string(field.value()));
    asio::post(m_server.handlers, [self = shared_from_this(), probe = std::move(probe)] {
      bool trusted = false;
      try {
        trusted = self->m_server.router.trusted(probe);
      } catch (const std::exception&) {
        // A store that cannot answer admits no large body; the request itself still gets its answer.
      }
      asio::post(self->m_stream.get_executor(), [self, trusted] { self->admit_body(trusted); });
    });
  }

  void admit_body(bool trusted) {
    if (!trusted) {
      const auto length = m_parser->content_length();
      const std::string cap = std::to_string(limits().anonymous_body / 1024) + " KiB";
      if (length && *length > limits().anonymous_body)
        return refuse(413, "a request without a valid token may carry at most " + cap + "; sign in first");
      m_parser->body_limit(limits().anonymous_body);
      m_anonymous = true;
    }
    read_body();
  }

  void read_body() {
    const auto& head = m_parser->get();
    if (beast::iequals(head[http::field::expect], "100-continue")) {
      // The client waits for this before it sends the body (curl does above 1 MiB).
      auto interim = std::make_shared<std::string>("HTTP/1.1 100 Continue\r\n\r\n");
      return asio::async_write(m_stream, asio::buffer(*interim),
                               [self = shared_from_this(), interim](beast::error_code ec, std::size_t) {
                                 if (ec) return self->close();
                                 self->read_rest();
                               });
    }
    read_rest();
  }

  void read_rest() {
    http::async_read(m_stream, m_buffer, *m_parser, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->read_failed(ec);
      self->handle();
    });
  }

  void read_failed(beast::error_code ec) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout || ec == asio::error::operation_aborted ||
        ec == asio::error::connection_reset || ec == asio::error::eof)
      return close();
    if (ec == http::error::header_limit)
      return refuse(431,
                    "a request's headers may have at most " + std::to_string(limits().header_bytes / 1024) + " KiB");
    if (ec == http::error::body_limit)
      return refuse(413, m_anonymous ? "a request without a valid token may carry at most " +
                                           std::to_string(limits().anonymous_body / 1024) + " KiB; sign in first"
                                     : "the request is larger than a submission may be (" +
                                           std::to_string(limits().body / (1024 * 1024)) + " MiB)");
    refuse(400, std::string("not an HTTP/1.1 request: ") + ec.message());
  }

  void handle() {
    m_waiting_since = 0;
    const bool keep_alive = m_parser->keep_alive();
    const bool head = m_parser->get().method() == http::verb::head;
    auto request = std::make_shared<http_request>(request_of(m_parser->release()));
    m_parser.reset();
    asio::post(m_server.handlers, [self = shared_from_this(), request, keep_alive, head] {
      http_response response;
      self->m_server.router.dispatch(*request, response);
      asio::post(self->m_stream.get_executor(), [self, response = std::move(response), keep_alive, head]() mutable {
        self->write(std::move(response), keep_alive, head);
      });
    });
  }

  /// Answers and closes: the request was refused before it was read in full.
  void refuse(int status, const std::string& message) {
    http_response response;
    set_error(response, status, message);
    write(std::move(response), false);
  }

  void write(http_response response, bool keep_alive, bool head = false) {
    keep_alive = keep_alive && !m_server.stopped;
    m_stream.expires_after(limits().request_deadline);
    if (head) { // the headers a GET would get, its Content-Length included, and no body
      auto out = std::make_shared<http::response<http::empty_body>>(static_cast<http::status>(response.status), 11);
      for (const auto& [name, value] : response.headers) out->insert(name, value);
      out->content_length(response.body.size());
      out->keep_alive(keep_alive);
      return send(out);
    }
    auto out = std::make_shared<http::response<http::string_body>>(static_cast<http::status>(response.status), 11);
    for (const auto& [name, value] : response.headers) out->insert(name, value);
    out->body() = std::move(response.body);
    out->keep_alive(keep_alive);
    out->prepare_payload();
    send(out);
  }

  template <typename Message> void send(const std::shared_ptr<Message>& out) {
    http::async_write(m_stream, *out, [self = shared_from_this(), out](beast::error_code ec, std::size_t) {
      if (ec || !out->keep_alive()) return self->linger();
      self->read_header();
    });
  }

  /// After a refusal the client may still be sending: stop our side, read and drop what comes for a
  /// moment, then close, so the client reads the answer instead of a reset.
  void linger() {
    beast::error_code ignored;
    m_stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
    m_stream.expires_after(std::chrono::seconds(2));
    drain();
  }

  void drain() {
    m_stream.async_read_some(asio::buffer(m_scratch), [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec || ++self->m_drained > 256) return self->close(); // at most 1 MiB more
      self->drain();
    });
  }

  void close() {
    beast::error_code ignored;
    m_stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
    m_stream.close();
  }

  beast::tcp_stream m_stream;
  http_server::impl& m_server;
  // At most this much read ahead of the parser: a body streams through it into its string.
  beast::flat_buffer m_buffer{limits().header_bytes + 4096};
  std::optional<http::request_parser<http::string_body>> m_parser;
  bool m_anonymous = false;
  std::atomic<std::int64_t> m_waiting_since{0};
  std::array<char, 4096> m_scratch{};
  int m_drained = 0;
};
} // namespace

void http_server::impl::accept() {
  acceptor.async_accept(asio::make_strand(io), [this](beast::error_code ec, tcp::socket socket) {
    if (stopped || !acceptor.is_open()) return;
    if (!ec) {
      if (open >= limits.connections && !evict_longest_waiting()) {
        beast::error_code ignored;
        socket.close(ignored); // every connection is being answered: none to give way
      } else {
        std::make_shared<session>(std::move(socket), *this)->start();
      }
    }
    accept();
  });
}

bool http_server::impl::evict_longest_waiting() {
  // At the cap, the connection that has waited longest for its request gives way to the new one: an idle
  // or slow client, never one whose request is being answered. Holding the server full then takes
  // sending requests faster than anyone else, not merely holding connections open.
  std::shared_ptr<session> oldest;
  {
    const std::lock_guard<std::mutex> lock(sessions_mutex);
    for (const auto& [key, weak] : sessions) {
      auto s = weak.lock();
      if (s && s->waiting_since() != 0 && (!oldest || s->waiting_since() < oldest->waiting_since()))
        oldest = std::move(s);
    }
  }
  if (!oldest) return false;
  oldest->evict();
  return true;
}

http_server::http_server(const http_router& router, http_limits limits) : m(std::make_unique<impl>(router, limits)) {
  // Each connection is a descriptor: let the process have as many as its hard limit allows.
  rlimit files{};
  if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
    files.rlim_cur = files.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &files);
  }
}

http_server::~http_server() {
  stop();
  m->handlers.join();
}

int http_server::bind(const std::string& host, int port) {
  const auto where = host + ":" + std::to_string(port);
  beast::error_code ec;
  // A name (localhost) as well as an address; the first address it resolves to is the one listened on.
  tcp::resolver resolver(m->io);
  const auto found = resolver.resolve(host, std::to_string(port), tcp::resolver::passive, ec);
  if (ec || found.empty())
    throw listen_error("cannot listen on " + where +
                       " (not an address of this machine: " + (ec ? ec.message() : std::string("no address")) + ")");
  const tcp::endpoint endpoint = found.begin()->endpoint();
  m->acceptor.open(endpoint.protocol(), ec);
  if (!ec) m->acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) m->acceptor.bind(endpoint, ec);
  if (!ec) m->acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec)
    throw listen_error("cannot listen on " + where + " (in use, or not an address of this machine: " + ec.message() +
                       ")");
  return m->acceptor.local_endpoint().port();
}

void http_server::run() {
  m->accept();
  std::vector<std::thread> threads;
  for (unsigned i = 1; i < m->limits.io_threads; ++i) threads.emplace_back([this] { m->io.run(); });
  m->io.run();
  for (std::thread& t : threads) t.join();
}

void http_server::stop() {
  m->stopped = true;
  asio::post(m->io, [this] {
    beast::error_code ignored;
    m->acceptor.close(ignored);
    m->io.stop();
  });
  m->io.stop();
}

} // namespace judge::service
