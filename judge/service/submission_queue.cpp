#include "submission_queue.hpp"

#include "access_policy.hpp"

#include "report_json.hpp"
#include "report_terminal.hpp"
#include "utc_time.hpp"

#include <array>
#include <stdexcept>

namespace judge::service {

namespace {
constexpr std::array<const char*, 6> state_names = {"queued", "compiling", "compiled", "running", "done", "failed"};

// Without files: listings never need them, and a class's history would otherwise carry every source.
constexpr const char* summary_columns = "id, account, problem, state, submitted_at, started_at, finished_at, worker, "
                                        "gpu, error, result, contest_result, device, note, node";

submission read_summary(sqlite::statement& st) {
  submission s;
  s.id = st.get_int(0);
  s.account = st.get_text(1);
  s.problem = st.get_text(2);
  s.now = parse_state(st.get_text(3));
  s.submitted_at = st.get_text(4);
  s.started_at = st.get_text(5);
  s.finished_at = st.get_text(6);
  s.worker = st.get_text(7);
  s.gpu = st.get_text(8);
  s.error = st.get_text(9);
  if (!st.is_null(10)) s.result = nlohmann::json::parse(st.get_text(10));
  if (!st.is_null(11)) s.contest_result = nlohmann::json::parse(st.get_text(11));
  if (!st.is_null(12)) s.device = nlohmann::json::parse(st.get_text(12));
  s.note = st.get_text(13);
  s.node = st.get_text(14);
  return s;
}

std::string files_json(const std::vector<source_file>& files) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& f : files) out.push_back({{"name", f.name}, {"content", f.content}});
  return out.dump();
}

std::vector<source_file> files_from_json(const std::string& text) {
  std::vector<source_file> out;
  for (const auto& f : nlohmann::json::parse(text)) out.push_back({f.at("name"), f.at("content")});
  return out;
}
} // namespace

std::string state_name(state s) { return state_names[static_cast<std::size_t>(s)]; }

state parse_state(const std::string& text) {
  for (std::size_t i = 0; i < state_names.size(); ++i)
    if (text == state_names[i]) return static_cast<state>(i);
  throw std::invalid_argument("unknown submission state \"" + text + "\"");
}

submission_queue::submission_queue(results_db& store) : m_store(store), m_db(store.connection()) {
  // `turns`: per lane (compile, gpu), the turn each account was last served at; the account with the
  // lowest (or none) goes next. `pending` tells the fair claim which accounts wait without a scan.
  m_db.exec("CREATE TABLE IF NOT EXISTS queued_submissions ("
            " id INTEGER PRIMARY KEY,"
            " account TEXT NOT NULL,"
            " problem TEXT NOT NULL,"
            " files TEXT NOT NULL,"
            " state TEXT NOT NULL,"
            " submitted_at TEXT NOT NULL,"
            " started_at TEXT NOT NULL DEFAULT '',"
            " finished_at TEXT NOT NULL DEFAULT '',"
            " worker TEXT NOT NULL DEFAULT '',"
            " gpu TEXT NOT NULL DEFAULT '',"
            " error TEXT NOT NULL DEFAULT '',"
            " result TEXT,"
            " contest_result TEXT,"
            " device TEXT,"
            " result_id INTEGER,"
            " note TEXT NOT NULL DEFAULT '',"
            " node TEXT NOT NULL DEFAULT '');"
            "CREATE INDEX IF NOT EXISTS queued_submissions_by_state ON queued_submissions (state, account, id);"
            "CREATE INDEX IF NOT EXISTS queued_submissions_by_account ON queued_submissions (account, id);"
            "CREATE TABLE IF NOT EXISTS queue_turns ("
            " lane TEXT NOT NULL, account TEXT NOT NULL, turn INTEGER NOT NULL, PRIMARY KEY (lane, account))");
  // A queue made before `note` and `node` existed gets them (empty for what it holds).
  for (const char* column : {"note", "node"}) {
    sqlite::statement has =
        m_db.prepare("SELECT COUNT(*) FROM pragma_table_info('queued_submissions') WHERE name = ?1");
    has.bind(1, std::string(column));
    has.step();
    if (has.get_int(0) == 0)
      m_db.exec(std::string("ALTER TABLE queued_submissions ADD COLUMN ") + column + " TEXT NOT NULL DEFAULT ''");
  }
}

std::int64_t submission_queue::enqueue(const std::string& account, const std::string& problem,
                                       std::vector<source_file> files) {
  sqlite::transaction tx(m_db);
  m_db.prepare("INSERT INTO queued_submissions (account, problem, files, state, submitted_at) "
               "VALUES (?1, ?2, ?3, 'queued', ?4)")
      .bind(1, account)
      .bind(2, problem)
      .bind(3, files_json(files))
      .bind(4, utc_now())
      .run();
  const std::int64_t id = m_db.last_insert_rowid();
  tx.commit();
  return id;
}

std::optional<submission> submission_queue::claim(state from, state to, const char* lane, const std::string& worker,
                                                  const std::string& problem) {
  sqlite::transaction tx(m_db);
  // Each waiting account's oldest submission; of those, the account served longest ago (never: first).
  sqlite::statement pick =
      m_db.prepare("SELECT q.id, q.account FROM queued_submissions q LEFT JOIN queue_turns t ON t.lane = ?2 AND "
                   "t.account = q.account WHERE q.state = ?1 AND (?3 = '' OR q.problem = ?3) "
                   "ORDER BY IFNULL(t.turn, 0), q.id LIMIT 1");
  pick.bind(1, state_name(from)).bind(2, std::string(lane)).bind(3, problem);
  if (!pick.step()) return std::nullopt;
  const std::int64_t id = pick.get_int(0);
  const std::string account = pick.get_text(1);
  m_db.prepare("INSERT INTO queue_turns (lane, account, turn) VALUES (?1, ?2, "
               " (SELECT IFNULL(MAX(turn), 0) + 1 FROM queue_turns WHERE lane = ?1)) "
               "ON CONFLICT (lane, account) DO UPDATE SET turn = excluded.turn")
      .bind(1, std::string(lane))
      .bind(2, account)
      .run();
  // started_at is when its grading began: the first claim; a recovered one keeps it.
  m_db.prepare("UPDATE queued_submissions SET state = ?1, worker = ?2, "
               "started_at = CASE started_at WHEN '' THEN ?3 ELSE started_at END WHERE id = ?4")
      .bind(1, state_name(to))
      .bind(2, worker)
      .bind(3, utc_now())
      .bind(4, id)
      .run();
  tx.commit();
  return get(id);
}

std::optional<submission> submission_queue::claim_for_compile(const std::string& worker) {
  return claim(state::queued, state::compiling, "compile", worker, "");
}

std::optional<submission> submission_queue::claim_for_gpu(const std::string& worker, const std::string& problem) {
  return claim(state::compiled, state::running, "gpu", worker, problem);
}

void submission_queue::compiled(std::int64_t id) {
  m_db.prepare("UPDATE queued_submissions SET state = 'compiled' WHERE id = ?1 AND state = 'compiling'")
      .bind(1, id)
      .run();
}

bool submission_queue::end(std::int64_t id, state to, const std::string& error, const solution_result* result,
                           const std::string& gpu, bool record) {
  sqlite::transaction tx(m_db);
  sqlite::statement now = m_db.prepare("SELECT state FROM queued_submissions WHERE id = ?1");
  now.bind(1, id);
  if (!now.step()) throw std::invalid_argument("no submission " + std::to_string(id));
  const state was = parse_state(now.get_text(0));
  if (was == state::done || was == state::failed) return false;
  sqlite::statement update =
      m_db.prepare("UPDATE queued_submissions SET state = ?1, error = ?2, result = ?3, gpu = ?4, finished_at = ?5, "
                   "result_id = ?6, contest_result = ?8, device = ?9, note = '' WHERE id = ?7");
  update.bind(1, state_name(to)).bind(2, error).bind(4, gpu).bind(5, utc_now()).bind(7, id);
  if (result) {
    update.bind(3, to_json(*result).dump()).bind(8, to_json(contest_view(*result)).dump());
  } else {
    update.bind_null(3).bind_null(8);
  }
  if (result && !result->device.name.empty())
    update.bind(9, device_to_json(result->device).dump());
  else
    update.bind_null(9);
  if (result && record)
    update.bind(6, m_store.record_within(tx, *result));
  else
    update.bind_null(6);
  update.run();
  tx.commit();
  return true;
}

bool submission_queue::finish(std::int64_t id, const solution_result& result, bool record, const std::string& gpu) {
  return end(id, state::done, "", &result, gpu, record);
}

bool submission_queue::fail(std::int64_t id, const std::string& why) {
  return end(id, state::failed, why, nullptr, "", false);
}

void submission_queue::set_note(const std::vector<std::int64_t>& ids, const std::string& note) {
  sqlite::transaction tx(m_db);
  for (std::int64_t id : ids)
    m_db.prepare("UPDATE queued_submissions SET note = ?1 WHERE id = ?2 AND state NOT IN ('done', 'failed')")
        .bind(1, note)
        .bind(2, id)
        .run();
  tx.commit();
}

void submission_queue::set_node(std::int64_t id, const std::string& node) {
  m_db.prepare("UPDATE queued_submissions SET node = ?1 WHERE id = ?2").bind(1, node).bind(2, id).run();
}

std::size_t submission_queue::recover() { return move_back(""); }

std::size_t submission_queue::release(const std::string& worker) { return move_back(worker); }

std::vector<std::int64_t> submission_queue::held_by(const std::string& worker) {
  sqlite::statement st = m_db.prepare(
      "SELECT id FROM queued_submissions WHERE worker = ?1 AND state IN ('running', 'compiling') ORDER BY id");
  st.bind(1, worker);
  std::vector<std::int64_t> out;
  while (st.step()) out.push_back(st.get_int(0));
  return out;
}

std::size_t submission_queue::move_back(const std::string& worker) {
  sqlite::transaction tx(m_db);
  std::size_t moved = 0;
  for (const char* sql : {"UPDATE queued_submissions SET state = 'queued' WHERE state = 'compiling' AND "
                          "(?1 = '' OR worker = ?1)",
                          "UPDATE queued_submissions SET state = 'compiled' WHERE state = 'running' AND "
                          "(?1 = '' OR worker = ?1)"}) {
    m_db.prepare(sql).bind(1, worker).run();
    sqlite::statement changes = m_db.prepare("SELECT changes()");
    changes.step();
    moved += static_cast<std::size_t>(changes.get_int(0));
  }
  tx.commit();
  return moved;
}

std::optional<submission> submission_queue::get(std::int64_t id) {
  sqlite::statement st =
      m_db.prepare(std::string("SELECT ") + summary_columns + ", files FROM queued_submissions WHERE id = ?1");
  st.bind(1, id);
  if (!st.step()) return std::nullopt;
  submission s = read_summary(st);
  s.files = files_from_json(st.get_text(15));
  return s;
}

std::vector<submission> submission_queue::of_account(const std::string& account, std::size_t limit) {
  sqlite::statement st = m_db.prepare(std::string("SELECT ") + summary_columns +
                                      " FROM queued_submissions WHERE account = ?1 ORDER BY id DESC LIMIT ?2");
  st.bind(1, account).bind(2, static_cast<std::int64_t>(limit));
  std::vector<submission> out;
  while (st.step()) out.push_back(read_summary(st));
  return out;
}

std::vector<submission> submission_queue::recent(std::size_t limit) {
  sqlite::statement st =
      m_db.prepare(std::string("SELECT ") + summary_columns + " FROM queued_submissions ORDER BY id DESC LIMIT ?1");
  st.bind(1, static_cast<std::int64_t>(limit));
  std::vector<submission> out;
  while (st.step()) out.push_back(read_summary(st));
  return out;
}

std::size_t submission_queue::queued_of(const std::string& account) {
  sqlite::statement st =
      m_db.prepare("SELECT COUNT(*) FROM queued_submissions WHERE account = ?1 AND state NOT IN ('done', 'failed')");
  st.bind(1, account);
  st.step();
  return static_cast<std::size_t>(st.get_int(0));
}

std::size_t submission_queue::submitted_since(const std::string& account, const std::string& utc_time) {
  sqlite::statement st =
      m_db.prepare("SELECT COUNT(*) FROM queued_submissions WHERE account = ?1 AND submitted_at >= ?2");
  st.bind(1, account).bind(2, utc_time);
  st.step();
  return static_cast<std::size_t>(st.get_int(0));
}

std::size_t submission_queue::count(state s) {
  sqlite::statement st = m_db.prepare("SELECT COUNT(*) FROM queued_submissions WHERE state = ?1");
  st.bind(1, state_name(s));
  st.step();
  return static_cast<std::size_t>(st.get_int(0));
}

} // namespace judge::service
