#include "catch.hpp"

#include "common/hex.hpp"

#include <string>

TEST_CASE("bytes are written as lowercase hex, high nibble first", "[hex]") {
  const unsigned char bytes[] = {0x00, 0x0f, 0xa5, 0xff};
  CHECK(judge_hex::encode(bytes, sizeof bytes) == "000fa5ff");
  CHECK(judge_hex::encode(std::string("\x7f\x80", 2)) == "7f80");
  CHECK(judge_hex::encode(std::string()).empty());
}

TEST_CASE("every byte value survives a round trip", "[hex]") {
  std::string all;
  for (int b = 0; b < 256; ++b) all.push_back(static_cast<char>(b));
  const std::string text = judge_hex::encode(all);
  REQUIRE(text.size() == 512);
  CHECK(judge_hex::decode(text) == all);
}

TEST_CASE("decoding refuses an odd count, a non-digit, and uppercase unless asked", "[hex]") {
  CHECK_FALSE(judge_hex::decode("abc"));
  CHECK_FALSE(judge_hex::decode("0g"));
  CHECK_FALSE(judge_hex::decode("a "));
  CHECK_FALSE(judge_hex::decode("AB"));
  CHECK(judge_hex::decode("AB", judge_hex::digits::any_case) == std::string("\xab"));
  CHECK(judge_hex::decode("") == std::string());
}
