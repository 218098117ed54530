#include "judge/course/pseudonym.hpp"

#include <fmt/format.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <array>
#include <stdexcept>

namespace judge::course {

namespace {
constexpr std::array<const char*, 32> adjectives = {
    "amber", "azure", "bold",   "brisk",  "calm",   "coral", "crisp", "dusky", "eager", "fern",  "gentle",
    "golden", "hazel", "ivory", "jade",   "keen",   "lively", "lunar", "mellow", "misty", "noble", "olive",
    "plum",  "quiet", "rapid",  "rusty",  "silver", "solar", "swift", "tidal", "vivid", "witty"};
constexpr std::array<const char*, 32> animals = {
    "badger", "bison",  "crane", "dingo",  "eagle", "egret",  "falcon", "ferret", "gecko", "heron", "ibex",
    "jackal", "koala",  "lemur", "lynx",   "marten", "newt",  "ocelot", "otter",  "panda", "puffin", "quail",
    "raven",  "seal",   "stoat", "tapir",  "toucan", "urchin", "viper", "walrus", "wombat", "yak"};
} // namespace

std::string pseudonym(const judge_secret& secret, const std::string& account) {
  const std::string message = std::string("board pseudonym") + '\0' + account;
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (!HMAC(EVP_sha256(), secret.bytes.data(), static_cast<int>(secret.bytes.size()),
            reinterpret_cast<const unsigned char*>(message.data()), message.size(), digest, &length) ||
      length < 4)
    throw std::runtime_error("OpenSSL could not compute HMAC-SHA-256 for a board pseudonym");
  return fmt::format("{}-{}-{:02x}{:02x}", adjectives[digest[0] % 32], animals[digest[1] % 32], digest[2], digest[3]);
}

} // namespace judge::course
