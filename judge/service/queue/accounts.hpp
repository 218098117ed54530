// The class's accounts: a name, a role and a token. A token is shown once, when made, and stored only as
// its SHA-256 (hex): a copy of the database does not let anyone sign in.
#pragma once

#include "judge/store/results_db.hpp"
#include "judge/store/sqlite_db.hpp"
#include "judge/store/state_names.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace judge::service {

/// An account's role: the store's enum, beside the names its table holds (store/state_names.hpp).
using role = store::account_role;

/// "student" or "instructor".
std::string role_name(role r);
/// The role named `text`; throws account_error for anything else.
role parse_role(const std::string& text);

struct account {
  std::int64_t id = 0;
  std::string name;
  role who = role::student;
  std::string created_at; ///< ISO-8601 UTC
  bool disabled = false;  ///< `judge users disable`: no token signs it in until a new one is made
  /// Set when a request is authenticated: form_token() of the token it carried, which the web pages'
  /// forms send back. Empty otherwise.
  std::string form_token;
};

/// A name that is taken or not allowed, an unknown account, a bad roster line: the message says which.
class account_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// A name an account may have: 1–64 of [A-Za-z0-9_.-], starting with a letter or digit (it appears in
/// URLs, file names of staged submissions and the leaderboard).
bool valid_account_name(const std::string& name);

/// A fresh token: "jt_" + base64url (no padding) of 32 bytes from OpenSSL's RAND_bytes.
std::string new_token();
/// SHA-256 of `token`, lowercase hex: what the store keeps.
std::string token_hash(const std::string& token);
/// The form token of a session: the first 32 hex digits of SHA-256("form:" + token). Pages put it in a
/// hidden field of each form (http/request_origin.hpp says why); another origin cannot read the page, nor
/// the HttpOnly cookie it comes from.
std::string form_token(const std::string& token);

/// Reads and writes the `accounts` table in the results store's file. Use from one thread at a time
/// (it uses the connection it is given).
class accounts {
public:
  /// The table is the store's (store/store_schema.hpp), made when `store` was opened.
  explicit accounts(results_db& store);

  /// Adds an account and returns its token (shown once). Throws account_error for a taken or invalid name.
  std::string add(const std::string& name, role who);
  /// What an import did: (name, token) for each account added, in file order, and the names that
  /// existed already with the same role (kept as they are, tokens unchanged).
  struct roster_import {
    std::vector<std::pair<std::string, std::string>> added;
    std::vector<std::string> kept;
  };
  /// Adds every account of a roster that is not there yet: one `name,role` per line (role: student or
  /// instructor; a missing role is student), blank lines and lines starting with '#' skipped, an optional
  /// `name,role` header. So the same roster with a name added imports that name. All or nothing: a bad
  /// line (named by file and line number), or a name that exists with another role, adds none.
  roster_import import_roster(const std::filesystem::path& csv);
  /// The account whose token this is; nullopt for an unknown or malformed token.
  std::optional<account> authenticate(const std::string& token);
  std::optional<account> find(const std::string& name);
  /// Every account, by name.
  std::vector<account> list();
  /// Replaces `name`'s token and returns the new one (the old one stops working at once). Throws
  /// account_error for an unknown name.
  std::string rotate_token(const std::string& name);
  /// `name` can no longer sign in (its token stops working at once; its submissions stay); a new token
  /// (rotate_token) enables it again. Throws account_error for an unknown name.
  void disable(const std::string& name);
  /// Removes `name`. Refused (account_error) while the store holds submissions of it: a later account
  /// of that name would see them as its own; disable it instead.
  void remove(const std::string& name);

private:
  sqlite::database& m_db;
};

} // namespace judge::service
