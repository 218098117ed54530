#include "judge/problem/secret.hpp"

#include "catch.hpp"
#include "judge/base/file_input.hpp"
#include "scoped_env.hpp"
#include "spec_test_files.hpp"

#include <cstdlib>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>

#include <sys/stat.h>

using judge::load_or_create_secret;
using judge_test::temp_folder;
using judge_test::scoped_env;
using spec_test::message_of;

namespace {

unsigned permissions(const std::filesystem::path& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

} // namespace

TEST_CASE("the secret lives in JUDGE_SECRET_FILE, else under XDG_CONFIG_HOME, else under HOME", "[secret]") {
  const scoped_env home("HOME", "/home/judge");
  SECTION("JUDGE_SECRET_FILE wins") {
    const scoped_env file("JUDGE_SECRET_FILE", "/srv/judge/secret");
    const scoped_env config("XDG_CONFIG_HOME", "/cfg");
    CHECK(judge::secret_path() == "/srv/judge/secret");
  }
  SECTION("then XDG_CONFIG_HOME") {
    const scoped_env file("JUDGE_SECRET_FILE", std::nullopt);
    const scoped_env config("XDG_CONFIG_HOME", "/cfg");
    CHECK(judge::secret_path() == "/cfg/gpu-judge/secret");
  }
  SECTION("then HOME, also when XDG_CONFIG_HOME is empty or relative") {
    const scoped_env file("JUDGE_SECRET_FILE", "");
    for (const std::string config_value : {"", "relative/cfg"}) {
      CAPTURE(config_value);
      const scoped_env config("XDG_CONFIG_HOME", config_value);
      CHECK(judge::secret_path() == "/home/judge/.config/gpu-judge/secret");
    }
  }
}

TEST_CASE("a new secret is created private, in private folders, and read back the same", "[secret]") {
  const temp_folder dir;
  const auto path = dir.path() / "config" / "gpu-judge" / "secret";
  const judge::judge_secret first = load_or_create_secret(path);

  CHECK(permissions(path) == 0600);
  CHECK(permissions(path.parent_path()) == 0700);
  CHECK(permissions(path.parent_path().parent_path()) == 0700);
  const std::string text = judge::read_file(path);
  CHECK(text.size() == 65);
  CHECK(text.find_first_not_of("0123456789abcdef") == 64);
  CHECK(text.back() == '\n');
  // Only the secret is left behind, no temporary file.
  CHECK(std::distance(std::filesystem::directory_iterator(path.parent_path()), std::filesystem::directory_iterator()) ==
        1);

  CHECK(load_or_create_secret(path) == first);
}

TEST_CASE("two new secrets differ", "[secret]") {
  const temp_folder dir;
  CHECK(load_or_create_secret(dir.path() / "one") != load_or_create_secret(dir.path() / "two"));
}

TEST_CASE("a secret's 64 digits are its 32 bytes in order, all of them kept", "[secret]") {
  const temp_folder dir;
  const auto path = dir.write("counting", "000102030405060708090a0b0c0d0e0f101112131415161718191A1B1C1D1E1F\n");
  judge::judge_secret expected;
  for (unsigned i = 0; i < expected.bytes.size(); ++i) expected.bytes[i] = static_cast<unsigned char>(i);
  CHECK(load_or_create_secret(path) == expected);
}

TEST_CASE("a secret written by hand is read as written, with or without a final newline", "[secret]") {
  const temp_folder dir;
  const std::string hex(64, 'a');
  const auto plain = dir.write("plain", hex);
  const auto with_newline = dir.write("newline", hex + "\n");
  const auto upper = dir.write("upper", std::string(64, 'A') + "\n");
  const auto other = dir.write("other", std::string(63, 'a') + "b\n");
  CHECK(load_or_create_secret(plain) == load_or_create_secret(with_newline));
  CHECK(load_or_create_secret(plain) == load_or_create_secret(upper));
  CHECK(load_or_create_secret(plain) != load_or_create_secret(other));
  CHECK(judge::read_file(plain) == hex); // reading never rewrites the file
}

TEST_CASE("a malformed secret is an error that says how to fix it", "[secret]") {
  const temp_folder dir;
  const std::string text = GENERATE(std::string(""), std::string("xyz\n"), std::string(62, '0') + "\n",
                                    std::string(64, 'g') + "\n", std::string(66, '0') + "\n");
  CAPTURE(text);
  const auto path = dir.write("secret", text);
  const std::string message = message_of<std::runtime_error>([&] { load_or_create_secret(path); });
  CAPTURE(message);
  CHECK(message.find(path.string() + " is not 64 hexadecimal digits; delete it") != std::string::npos);
  CHECK(judge::read_file(path) == text); // a broken secret is reported, never replaced behind the instructor's back
}

TEST_CASE("a secret that cannot be read is an error naming the file", "[secret]") {
  const temp_folder dir;
  // A folder where the file should be: unreadable as a file even for root, unlike a chmod 000 file.
  std::filesystem::create_directories(dir.path() / "secret");
  const std::string message = message_of<std::runtime_error>([&] { load_or_create_secret(dir.path() / "secret"); });
  CAPTURE(message);
  CHECK(message.find("judge secret " + (dir.path() / "secret").string() + ": cannot read it (") == 0);
  CHECK(message.find("JUDGE_SECRET_FILE") != std::string::npos);
}
