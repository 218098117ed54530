// Whether a request that changes something came from one of the judge's own pages. A cookie rides along
// with any request the browser makes to this host, also one a page of another origin starts (another port
// of the same host, a sibling subdomain: "same site" for SameSite=Strict). So every state change made with
// the cookie needs proof that the judge's page made it: the browser's own word on where it came from
// (Origin, Sec-Fetch-Site), and what another origin cannot produce (a form token it cannot read, or a
// JSON content type, which another origin can send only after a CORS preflight this server never grants).
// A bearer token is never sent by a browser on its own, so bearer clients need none of this.
#pragma once

#include "judge/service/http/http_message.hpp"

#include <string>

namespace judge::service {

/// How a request says who it is.
enum class credential { none, bearer, cookie };
credential credential_of(const http_request& request);

/// The token the request carries ("Authorization: Bearer", else the judge_token cookie), or "".
std::string token_of(const http_request& request);

/// Why the browser says `request` came from another origin: Sec-Fetch-Site other than same-origin or
/// none (typed by the user), or an Origin whose host:port is not the Host it was sent to. "" when it says
/// neither (curl sends no such header; a browser too old to send them is what the form token covers).
std::string cross_origin_reason(const http_request& request);

/// Whether `sent` is `expected` (in constant time; an empty `expected` never matches).
bool same_token(const std::string& sent, const std::string& expected);

} // namespace judge::service
