// One HTTP request and its answer as the routes see them: plain data, filled by http_server.cpp from
// what it read and turned back into bytes there. Header names compare without case (RFC 9110); query
// and form fields are decoded here once, so a route reads values, never encodings.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <regex>
#include <stdexcept>
#include <string>
#include <strings.h>

namespace judge::service {

/// A request the server refuses (HTTP 400): what() is the message for the client. A route throws it; the
/// router answers 400 with it (http_server.hpp).
class bad_request : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct header_name_less {
  bool operator()(const std::string& a, const std::string& b) const { return ::strcasecmp(a.c_str(), b.c_str()) < 0; }
};
using http_headers = std::multimap<std::string, std::string, header_name_less>;

/// One part of a multipart/form-data body: a text field (`filename` empty) or an uploaded file.
struct form_file {
  std::string name, content, filename, content_type;
};

struct http_request {
  std::string method; ///< "GET", "POST", ...
  std::string target; ///< as sent: path and query
  std::string path;   ///< percent-decoded, without the query
  http_headers headers;
  std::string body;
  std::multimap<std::string, std::string> params; ///< the query's fields, and a urlencoded form's
  std::multimap<std::string, form_file> files;    ///< a multipart form's parts, by field name
  std::smatch matches;                            ///< the route pattern's groups, matched against `path`

  bool has_header(const std::string& name) const { return headers.count(name) != 0; }
  /// The first value of `name`, or "" when absent.
  std::string get_header_value(const std::string& name) const;
  bool has_param(const std::string& name) const { return params.count(name) != 0; }
  std::string get_param_value(const std::string& name) const;
  bool has_file(const std::string& name) const { return files.count(name) != 0; }
  /// The first part called `name`, or an empty one.
  form_file get_file_value(const std::string& name) const;
};

struct http_response {
  int status = 200;
  http_headers headers;
  std::string body;

  /// Replaces any earlier value of `name`.
  void set_header(const std::string& name, const std::string& value);
  std::string get_header_value(const std::string& name) const;
  void set_content(std::string text, const std::string& content_type);
};

/// `doc` as compact JSON text; bytes that are not UTF-8 (a client's, quoted back in a message) become
/// U+FFFD instead of failing the reply.
std::string json_text(const nlohmann::json& doc);

/// Answers `status` with `body` as JSON.
void send_json(http_response& res, int status, const nlohmann::json& body);

/// "%41b+c" → "Ab c" when `plus_is_space` (form and query fields), "Ab+c" otherwise (paths). A malformed
/// escape is kept as it is.
std::string percent_decode(const std::string& text, bool plus_is_space);

/// "a=1&b=x%20y" into `out` (repeated names kept in order).
void parse_query(const std::string& text, std::multimap<std::string, std::string>& out);

/// A multipart/form-data body into `out`; `content_type` is the request's header (it names the
/// boundary). Throws bad_request naming what is malformed.
void parse_multipart(const std::string& content_type, const std::string& body,
                     std::multimap<std::string, form_file>& out);

} // namespace judge::service
