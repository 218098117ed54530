#include "judge/service/queue/accounts.hpp"

#include "judge/base/file_input.hpp"
#include "judge/store/sql_row.hpp"
#include "judge/store/state_names.hpp"
#include "judge/store/store_schema.hpp"
#include "common/hex.hpp"
#include "judge/base/utc_time.hpp"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <array>
#include <set>

namespace judge::service {

namespace {
constexpr const char* token_prefix = "jt_";
constexpr std::size_t token_bytes = 32;

std::string base64url(const unsigned char* bytes, std::size_t n) {
  static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  std::uint32_t bits = 0;
  int held = 0;
  for (std::size_t i = 0; i < n; ++i) {
    bits = (bits << 8) | bytes[i];
    held += 8;
    while (held >= 6) {
      held -= 6;
      out += alphabet[(bits >> held) & 63];
    }
  }
  if (held > 0) out += alphabet[(bits << (6 - held)) & 63];
  return out;
}

// A disabled account's token_sha256 is "disabled:<id>": unique, and no token hashes to it.
const std::string& account_columns() {
  static const std::string list =
      store::select_list("accounts", {"token_sha256"}) + ", token_sha256 LIKE 'disabled:%' AS disabled";
  return list;
}

account read_account(sqlite::statement& st) {
  const store::row r(st, "the store");
  return account{r.integer("id"),
                 r.text("name"),
                 parse_role(r.text("role")),
                 r.text("created_at"),
                 r.integer("disabled") != 0,
                 {}};
}

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}
} // namespace

std::string role_name(role r) { return store::role_names[static_cast<std::size_t>(r)]; }

role parse_role(const std::string& text) {
  for (std::size_t i = 0; i < store::role_names.size(); ++i)
    if (text == store::role_names[i]) return static_cast<role>(i);
  throw account_error("unknown role \"" + text + "\": use student or instructor");
}

bool valid_account_name(const std::string& name) {
  if (name.empty() || name.size() > 64 || name[0] == '.' || name[0] == '-') return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-')) return false;
  return true;
}

std::string new_token() {
  std::array<unsigned char, token_bytes> bytes{};
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1)
    throw std::runtime_error("OpenSSL's RAND_bytes could not make a token");
  return token_prefix + base64url(bytes.data(), bytes.size());
}

std::string token_hash(const std::string& token) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(token.data(), token.size(), digest, &length, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("OpenSSL's SHA-256 failed");
  return judge_hex::encode(digest, length);
}

std::string form_token(const std::string& token) { return token_hash("form:" + token).substr(0, 32); }

accounts::accounts(results_db& store) : m_db(store.connection()) {}

std::string accounts::add(const std::string& name, role who) {

  sqlite::transaction tx(m_db);
  if (!valid_account_name(name))
    throw account_error("account name \"" + name + "\" is not allowed: use 1-64 letters, digits, '_', '.', '-' " +
                        "(not first)");
  if (find(name)) throw account_error("account \"" + name + "\" exists already");
  const std::string token = new_token();
  m_db.prepare("INSERT INTO accounts (name, role, token_sha256, created_at) VALUES (?1, ?2, ?3, ?4)")
      .bind(1, name)
      .bind(2, role_name(who))
      .bind(3, token_hash(token))
      .bind(4, utc_now())
      .run();
  tx.commit();
  return token;
}

accounts::roster_import accounts::import_roster(const std::filesystem::path& csv) {
  const std::string text = read_file(csv);
  std::vector<std::pair<std::string, role>> wanted;
  std::vector<std::string> kept;
  std::set<std::string> seen;
  std::size_t line_number = 0, start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = trim(text.substr(start, end - start));
    start = end + 1;
    ++line_number;
    if (line.empty() || line[0] == '#') continue;
    const auto comma = line.find(',');
    const std::string name = trim(line.substr(0, comma));
    const std::string role_text = comma == std::string::npos ? "student" : trim(line.substr(comma + 1));
    if (wanted.empty() && seen.empty() && name == "name" && role_text == "role") continue; // a header
    const std::string where = csv.string() + ":" + std::to_string(line_number) + ": ";
    if (!valid_account_name(name))
      throw account_error(where + "account name \"" + name + "\" is not allowed: use 1-64 letters, digits, '_', " +
                          "'.', '-' (not first)");
    role who;
    try {
      who = parse_role(role_text);
    } catch (const account_error& e) {
      throw account_error(where + e.what());
    }
    if (!seen.insert(name).second) throw account_error(where + "\"" + name + "\" appears twice in the roster");
    if (const auto existing = find(name)) {
      if (existing->who != who)
        throw account_error(where + "account \"" + name + "\" exists already as " + role_name(existing->who) +
                            ", not " + role_name(who) + "; nothing was imported");
      kept.push_back(name);
      continue;
    }
    wanted.emplace_back(name, who);
  }
  roster_import out;
  out.kept = std::move(kept);
  auto& tokens = out.added;
  sqlite::transaction tx(m_db);
  sqlite::statement insert =
      m_db.prepare("INSERT INTO accounts (name, role, token_sha256, created_at) VALUES (?1, ?2, ?3, ?4)");
  const std::string now = utc_now();
  for (const auto& [name, who] : wanted) {
    const std::string token = new_token();
    insert.bind(1, name).bind(2, role_name(who)).bind(3, token_hash(token)).bind(4, now).run();
    insert.reset();
    tokens.emplace_back(name, token);
  }
  tx.commit();
  return out;
}

std::optional<account> accounts::authenticate(const std::string& token) {
  if (token.rfind(token_prefix, 0) != 0 || token.size() > 128) return std::nullopt;
  sqlite::statement st = m_db.prepare("SELECT " + account_columns() + " FROM accounts WHERE token_sha256 = ?1");
  st.bind(1, token_hash(token));
  if (!st.step()) return std::nullopt;
  return read_account(st);
}

std::optional<account> accounts::find(const std::string& name) {
  sqlite::statement st = m_db.prepare("SELECT " + account_columns() + " FROM accounts WHERE name = ?1");
  st.bind(1, name);
  if (!st.step()) return std::nullopt;
  return read_account(st);
}

std::vector<account> accounts::list() {
  sqlite::statement st = m_db.prepare("SELECT " + account_columns() + " FROM accounts ORDER BY name");
  std::vector<account> out;
  while (st.step()) out.push_back(read_account(st));
  return out;
}

std::string accounts::rotate_token(const std::string& name) {
  sqlite::transaction tx(m_db);
  if (!find(name)) throw account_error("no account \"" + name + "\" (see `judge users list`)");
  const std::string token = new_token();
  m_db.prepare("UPDATE accounts SET token_sha256 = ?1 WHERE name = ?2").bind(1, token_hash(token)).bind(2, name).run();
  tx.commit();
  return token;
}

void accounts::disable(const std::string& name) {
  sqlite::transaction tx(m_db);
  const auto a = find(name);
  if (!a) throw account_error("no account \"" + name + "\" (see `judge users list`)");
  m_db.prepare("UPDATE accounts SET token_sha256 = ?1 WHERE id = ?2")
      .bind(1, "disabled:" + std::to_string(a->id))
      .bind(2, a->id)
      .run();
  tx.commit();
}

void accounts::remove(const std::string& name) {
  sqlite::transaction tx(m_db);
  if (!find(name)) throw account_error("no account \"" + name + "\" (see `judge users list`)");
  // The queue's table is the store's (store/store_schema.hpp): there is always one to ask.
  sqlite::statement held = m_db.prepare("SELECT count(*) AS n FROM queued_submissions WHERE account = ?1");
  held.bind(1, name);
  held.step();
  if (const std::int64_t n = store::row(held, m_db.file()).integer("n"); n > 0)
    throw account_error("account \"" + name + "\" has " + std::to_string(n) +
                        " submission(s) in the store: a later account of that name would see them as its own; "
                        "disable it instead (`judge users disable " +
                        name + "`)");
  m_db.prepare("DELETE FROM accounts WHERE name = ?1").bind(1, name).run();
  tx.commit();
}

} // namespace judge::service
