// The seed of each checked call of a case: the only seed a runner receives. Sample cases' seeds follow
// from cases.yaml alone, so that learners can regenerate their data; hidden cases' seeds are a keyed
// one-way hash of the judge secret and the call, so that the seeds a runner sees reveal neither the
// secret nor the seed of any other case or call.
#pragma once

#include "judge/problem/secret.hpp"
#include "judge/problem/cases.hpp"

#include <cstdint>
#include <string>

namespace judge {

/// The seed of checked call `check` of sample case `case_name` of `problem`, whose cases.yaml seed is
/// `case_seed`. Depends on nothing secret (`judge cases` shows the data it makes).
std::uint64_t sample_check_seed(std::uint64_t case_seed, const std::string& problem, const std::string& case_name,
                                int check);

/// The seed of checked call `check` of hidden case `case_name`: the first 8 bytes, read big-endian, of
/// HMAC-SHA-256(key = the secret's 32 bytes, message = problem \0 case_name \0 case_seed \0 check), the
/// two numbers written in decimal. HMAC is one-way: from any number of these seeds (and cases.yaml)
/// neither the key nor another message's seed can be computed.
std::uint64_t hidden_check_seed(const judge_secret& secret, std::uint64_t case_seed, const std::string& problem,
                                const std::string& case_name, int check);

/// The seed of checked call `check` of case `c`, by its visibility.
std::uint64_t check_seed(const judge_secret& secret, const std::string& problem, const test_case& c, int check);

} // namespace judge
