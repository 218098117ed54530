// The name a student goes by on a public board that shows no names: the same for the same student on
// every board and every day, and not to be told back to the account without the judge secret (an
// HMAC-SHA-256 of the account's name under it; the roster alone does not reveal who is who).
#pragma once

#include "judge/problem/secret.hpp"

#include <string>

namespace judge::course {

/// "amber-heron-3f2a": two words and four hex digits from HMAC-SHA-256(secret, "board pseudonym" \0 account),
/// 2^26 names, so a class of hundreds does not share one in practice.
std::string pseudonym(const judge_secret& secret, const std::string& account);

} // namespace judge::course
