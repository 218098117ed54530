#include "judge/service/http/request_origin.hpp"

#include <openssl/crypto.h>

namespace judge::service {

credential credential_of(const http_request& request) {
  if (request.get_header_value("Authorization").rfind("Bearer ", 0) == 0) return credential::bearer;
  return token_of(request).empty() ? credential::none : credential::cookie;
}

std::string token_of(const http_request& request) {
  const std::string authorization = request.get_header_value("Authorization");
  const std::string bearer = "Bearer ";
  if (authorization.rfind(bearer, 0) == 0) return authorization.substr(bearer.size());
  // Cookie: a=b; judge_token=jt_...; c=d
  const std::string cookies = request.get_header_value("Cookie");
  const std::string key = "judge_token=";
  for (std::size_t at = cookies.find(key); at != std::string::npos; at = cookies.find(key, at + 1)) {
    if (at != 0 && cookies[at - 1] != ' ' && cookies[at - 1] != ';') continue;
    const std::size_t start = at + key.size();
    return cookies.substr(start, cookies.find(';', start) - start);
  }
  return "";
}

std::string cross_origin_reason(const http_request& request) {
  const std::string site = request.get_header_value("Sec-Fetch-Site");
  if (!site.empty() && site != "same-origin" && site != "none")
    return "the browser says the request came from a " + site + " page (Sec-Fetch-Site)";
  if (!request.has_header("Origin")) return "";
  const std::string origin = request.get_header_value("Origin");
  const auto scheme_end = origin.find("://");
  if (scheme_end == std::string::npos || origin.substr(scheme_end + 3) != request.get_header_value("Host"))
    return "it came from a page of " + origin + ", not of this server (" + request.get_header_value("Host") + ")";
  return "";
}

bool same_token(const std::string& sent, const std::string& expected) {
  return !expected.empty() && sent.size() == expected.size() &&
         CRYPTO_memcmp(sent.data(), expected.data(), sent.size()) == 0;
}

} // namespace judge::service
