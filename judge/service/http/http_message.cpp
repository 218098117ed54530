#include "judge/service/http/http_message.hpp"

namespace judge::service {

namespace {
int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string first_of(const http_headers& headers, const std::string& name) {
  const auto it = headers.find(name);
  return it == headers.end() ? "" : it->second;
}

/// The value of `key` in a header's parameters (`form-data; name="x"; filename="a.cu"`), unquoted.
std::string parameter_of(const std::string& header, const std::string& key) {
  for (std::size_t at = 0; (at = header.find(key + "=", at)) != std::string::npos; at += key.size()) {
    if (at != 0 && header[at - 1] != ' ' && header[at - 1] != ';') continue;
    std::size_t start = at + key.size() + 1;
    if (start < header.size() && header[start] == '"') {
      const std::size_t end = header.find('"', start + 1);
      return header.substr(start + 1, end == std::string::npos ? std::string::npos : end - start - 1);
    }
    return header.substr(start, header.find(';', start) - start);
  }
  return "";
}
} // namespace

std::string json_text(const nlohmann::json& doc) {
  return doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void send_json(http_response& res, int status, const nlohmann::json& body) {
  res.status = status;
  res.set_content(json_text(body), "application/json");
}

std::string http_request::get_header_value(const std::string& name) const { return first_of(headers, name); }

std::string http_request::get_param_value(const std::string& name) const {
  const auto it = params.find(name);
  return it == params.end() ? "" : it->second;
}

form_file http_request::get_file_value(const std::string& name) const {
  const auto it = files.find(name);
  return it == files.end() ? form_file{} : it->second;
}

void http_response::set_header(const std::string& name, const std::string& value) {
  headers.erase(name);
  headers.emplace(name, value);
}

std::string http_response::get_header_value(const std::string& name) const { return first_of(headers, name); }

void http_response::set_content(std::string text, const std::string& content_type) {
  body = std::move(text);
  set_header("Content-Type", content_type);
}

std::string percent_decode(const std::string& text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hex_value(text[i + 1]) >= 0 && hex_value(text[i + 2]) >= 0) {
      out += static_cast<char>(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2]));
      i += 2;
    } else if (text[i] == '+' && plus_is_space) {
      out += ' ';
    } else {
      out += text[i];
    }
  }
  return out;
}

void parse_query(const std::string& text, std::multimap<std::string, std::string>& out) {
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('&', start);
    if (end == std::string::npos) end = text.size();
    const std::string field = text.substr(start, end - start);
    if (!field.empty()) {
      const std::size_t equals = field.find('=');
      out.emplace(percent_decode(field.substr(0, equals), true),
                  equals == std::string::npos ? "" : percent_decode(field.substr(equals + 1), true));
    }
    start = end + 1;
  }
}

void parse_multipart(const std::string& content_type, const std::string& body,
                     std::multimap<std::string, form_file>& out) {
  const std::string boundary = parameter_of(content_type, "boundary");
  if (boundary.empty() || boundary.size() > 70)
    throw bad_request("the form's Content-Type names no multipart boundary (or one longer than 70 characters)");
  const std::string delimiter = "--" + boundary;
  std::size_t at = body.find(delimiter);
  if (at == std::string::npos) throw bad_request("the form's body does not contain its boundary");
  while (true) {
    at += delimiter.size();
    if (body.compare(at, 2, "--") == 0) return; // the closing delimiter
    if (body.compare(at, 2, "\r\n") != 0) throw bad_request("the form's body is malformed after a boundary");
    at += 2;
    const std::size_t headers_end = body.find("\r\n\r\n", at);
    if (headers_end == std::string::npos) throw bad_request("a part of the form has no end of its headers");
    form_file part;
    std::string disposition;
    for (std::size_t line = at; line < headers_end;) {
      std::size_t line_end = body.find("\r\n", line);
      if (line_end == std::string::npos || line_end > headers_end) line_end = headers_end;
      const std::string header = body.substr(line, line_end - line);
      const std::size_t colon = header.find(':');
      if (colon != std::string::npos) {
        std::string value = header.substr(colon + 1);
        value.erase(0, value.find_first_not_of(' '));
        const std::string name = header.substr(0, colon);
        if (::strcasecmp(name.c_str(), "Content-Disposition") == 0) disposition = value;
        if (::strcasecmp(name.c_str(), "Content-Type") == 0) part.content_type = value;
      }
      line = line_end + 2;
    }
    part.name = parameter_of(disposition, "name");
    part.filename = parameter_of(disposition, "filename");
    const std::size_t content_start = headers_end + 4;
    const std::size_t next = body.find("\r\n" + delimiter, content_start);
    if (next == std::string::npos) throw bad_request("a part of the form (\"" + part.name + "\") is not closed");
    part.content = body.substr(content_start, next - content_start);
    out.emplace(part.name, std::move(part));
    at = next + 2;
  }
}

} // namespace judge::service
