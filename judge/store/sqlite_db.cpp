#include "judge/store/sqlite_db.hpp"

#include <fmt/format.h>
#include <sqlite3.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cmath>
#include <utility>

namespace judge::sqlite {

namespace {

// Schema SQL spans lines; one line per message keeps logs greppable.
std::string one_line(const std::string& sql) {
  std::string out;
  for (char c : sql) {
    bool space = std::isspace(static_cast<unsigned char>(c)) != 0;
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

error make_error(const std::string& file, sqlite3* db, int code, const std::string& sql) {
  // sqlite3_errmsg holds the specific text ("CHECK constraint failed: ...") only while it belongs to
  // this failure; fall back to the generic text for the code.
  const char* text = db != nullptr && sqlite3_extended_errcode(db) == code ? sqlite3_errmsg(db) : sqlite3_errstr(code);
  return error(
      fmt::format("sqlite error in database '{}': {} (code {}), running SQL: {}", file, text, code, one_line(sql)),
      code);
}

/// The store holds every student's source and results: made 0600 (sqlite's own default is 0644, and its
/// -wal and -shm files take the database's mode), and an existing one loses any permission for others
/// (a group an administrator gave, 0640, is kept).
void keep_private(const std::string& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return; // sqlite's open says why, with its own message
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & S_IRWXO) != 0)
    (void)::fchmod(fd, st.st_mode & 07770);
  ::close(fd);
}

} // namespace

bool error::is_busy() const { return (m_code & 0xFF) == SQLITE_BUSY; }

bool error::is_not_a_database() const { return (m_code & 0xff) == SQLITE_NOTADB; }

// ---- database ----

database::database(const std::filesystem::path& file) : m_file(file.string()) {
  keep_private(m_file);
  int code = sqlite3_open_v2(m_file.c_str(), &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  if (code != SQLITE_OK) {
    // sqlite hands back a handle even on failure; it carries the message and must still be closed.
    std::string text = m_db != nullptr ? sqlite3_errmsg(m_db) : sqlite3_errstr(code);
    sqlite3_close(m_db);
    m_db = nullptr;
    throw error(fmt::format("cannot open database '{}': {} (code {})", m_file, text, code), code);
  }
  sqlite3_extended_result_codes(m_db, 1);
}

database::~database() {
  // Statements are finalised before their connection by contract, so close cannot be refused.
  sqlite3_close(m_db);
}

database::database(database&& other) noexcept
    : m_db(std::exchange(other.m_db, nullptr)), m_file(std::move(other.m_file)) {}

database& database::operator=(database&& other) noexcept {
  if (this != &other) {
    sqlite3_close(m_db);
    m_db = std::exchange(other.m_db, nullptr);
    m_file = std::move(other.m_file);
  }
  return *this;
}

void database::exec(const std::string& sql) {
  int code = sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, nullptr);
  if (code != SQLITE_OK) throw make_error(m_file, m_db, code, sql);
}

bool database::try_exec(const char* sql) noexcept {
  return m_db != nullptr && sqlite3_exec(m_db, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
}

statement database::prepare(const std::string& sql) {
  sqlite3_stmt* stmt = nullptr;
  int code = sqlite3_prepare_v2(m_db, sql.c_str(), static_cast<int>(sql.size()), &stmt, nullptr);
  if (code != SQLITE_OK) {
    sqlite3_finalize(stmt);
    throw make_error(m_file, m_db, code, sql);
  }
  return statement(m_db, stmt, m_file, sql);
}

std::int64_t database::last_insert_rowid() const { return sqlite3_last_insert_rowid(m_db); }

// ---- statement ----

statement::statement(sqlite3* db, sqlite3_stmt* stmt, std::string file, std::string sql)
    : m_db(db), m_stmt(stmt), m_file(std::move(file)), m_sql(std::move(sql)) {}

statement::~statement() { sqlite3_finalize(m_stmt); }

statement::statement(statement&& other) noexcept
    : m_db(std::exchange(other.m_db, nullptr)), m_stmt(std::exchange(other.m_stmt, nullptr)),
      m_file(std::move(other.m_file)), m_sql(std::move(other.m_sql)) {}

statement& statement::operator=(statement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(m_stmt);
    m_db = std::exchange(other.m_db, nullptr);
    m_stmt = std::exchange(other.m_stmt, nullptr);
    m_file = std::move(other.m_file);
    m_sql = std::move(other.m_sql);
  }
  return *this;
}

void statement::fail(int code) const { throw make_error(m_file, m_db, code, m_sql); }

void statement::check_bind(int code) const {
  if (code != SQLITE_OK) fail(code);
}

statement& statement::bind(int index, std::int64_t value) {
  check_bind(sqlite3_bind_int64(m_stmt, index, value));
  return *this;
}

statement& statement::bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }

statement& statement::bind(int index, double value) {
  check_bind(std::isnan(value) ? sqlite3_bind_null(m_stmt, index) : sqlite3_bind_double(m_stmt, index, value));
  return *this;
}

statement& statement::bind(int index, const std::string& text) {
  check_bind(sqlite3_bind_text64(m_stmt, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8));
  return *this;
}

statement& statement::bind_null(int index) {
  check_bind(sqlite3_bind_null(m_stmt, index));
  return *this;
}

bool statement::step() {
  int code = sqlite3_step(m_stmt);
  if (code == SQLITE_ROW) return true;
  if (code == SQLITE_DONE) return false;
  fail(code);
}

void statement::run() {
  while (step()) {
  }
}

void statement::reset() {
  // sqlite3_reset repeats the last step's error, which step() has already thrown.
  sqlite3_reset(m_stmt);
  sqlite3_clear_bindings(m_stmt);
}

int statement::column_count() const { return sqlite3_column_count(m_stmt); }

std::string statement::column_name(int column) const {
  const char* name = sqlite3_column_name(m_stmt, column);
  return name != nullptr ? name : "";
}

bool statement::is_null(int column) const { return sqlite3_column_type(m_stmt, column) == SQLITE_NULL; }

std::int64_t statement::get_int(int column) const { return sqlite3_column_int64(m_stmt, column); }

double statement::get_double(int column) const { return sqlite3_column_double(m_stmt, column); }

std::string statement::get_text(int column) const {
  const unsigned char* text = sqlite3_column_text(m_stmt, column);
  int bytes = sqlite3_column_bytes(m_stmt, column);
  return text != nullptr ? std::string(reinterpret_cast<const char*>(text), static_cast<std::size_t>(bytes))
                         : std::string();
}

// ---- transaction ----

transaction::transaction(database& db) : m_db(db) { m_db.exec("BEGIN IMMEDIATE"); }

transaction::~transaction() {
  if (m_open) m_db.try_exec("ROLLBACK");
}

void transaction::commit() {
  m_db.exec("COMMIT");
  m_open = false;
}

} // namespace judge::sqlite
