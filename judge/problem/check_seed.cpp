#include "judge/problem/check_seed.hpp"

#include "judge/base/fnv1a.hpp"

#include "common/datagen.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <stdexcept>

namespace judge {

std::uint64_t sample_check_seed(std::uint64_t case_seed, const std::string& problem, const std::string& case_name,
                                int check) {
  // The case's name joins its seed, so two cases that share a seed in cases.yaml still get different data.
  const std::uint64_t case_key = judge_data::mix64(judge_data::mix64(case_seed) ^ fnv1a(problem + '/' + case_name));
  return judge_data::derive_seed(case_key, judge_data::seed_for_check, static_cast<std::uint64_t>(check));
}

std::uint64_t hidden_check_seed(const judge_secret& secret, std::uint64_t case_seed, const std::string& problem,
                                const std::string& case_name, int check) {
  // NUL separates the parts: no problem or case name holds one, so no two calls share a message.
  std::string message = problem;
  message += '\0';
  message += case_name;
  message += '\0';
  message += std::to_string(case_seed);
  message += '\0';
  message += std::to_string(check);
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int mac_bytes = 0;
  if (!HMAC(EVP_sha256(), secret.bytes.data(), static_cast<int>(secret.bytes.size()),
            reinterpret_cast<const unsigned char*>(message.data()), message.size(), mac, &mac_bytes) ||
      mac_bytes < 8)
    throw std::runtime_error("OpenSSL could not compute HMAC-SHA-256 for the seed of hidden case " + case_name);
  std::uint64_t seed = 0;
  for (int i = 0; i < 8; ++i) seed = seed << 8 | mac[i];
  return seed;
}

std::uint64_t check_seed(const judge_secret& secret, const std::string& problem, const test_case& c, int check) {
  return c.visibility == visibility::hidden ? hidden_check_seed(secret, c.seed, problem, c.name, check)
                                            : sample_check_seed(c.seed, problem, c.name, check);
}

} // namespace judge
