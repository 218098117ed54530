#include "judge/service/queue/submission_queue.hpp"

#include "judge/base/utc_time.hpp"
#include "judge/record/record_json.hpp"
#include "judge/report/contest_view.hpp"
#include "judge/report/report_json.hpp"
#include "judge/report/report_terminal.hpp"
#include "judge/sanitizer/sanitizer_json.hpp"
#include "judge/store/sql_row.hpp"
#include "judge/store/state_names.hpp"
#include "judge/store/store_schema.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace judge::service {

namespace {
// Without files: listings never need them, and a class's history would otherwise carry every source.
const std::string& summary_columns() {
  static const std::string list = store::select_list("queued_submissions", {"files", "result_id"});
  return list;
}

// The sanitizer_state column holds an explanation's state by name, '' for none.
std::string explanation_column(explanation_state e) {
  return e == explanation_state::none ? "" : explanation_state_name(e);
}

explanation_state explanation_from_column(const std::string& text, const std::string& file) {
  if (text.empty()) return explanation_state::none;
  return explanation_state_from_name(text, "database '" + file + "' column sanitizer_state");
}

submission read_summary(const store::row& r) {
  submission s;
  s.id = r.integer("id");
  s.account = r.text("account");
  s.problem = r.text("problem");
  s.now = parse_state(r.text("state"));
  s.submitted_at = r.text("submitted_at");
  s.started_at = r.text("started_at");
  s.finished_at = r.text("finished_at");
  s.worker = r.text("worker");
  s.gpu = r.text("gpu");
  s.error = r.text("error");
  if (!r.is_null("result")) s.result = nlohmann::json::parse(r.text("result"));
  if (!r.is_null("contest_result")) s.contest_result = nlohmann::json::parse(r.text("contest_result"));
  if (!r.is_null("device")) s.device = nlohmann::json::parse(r.text("device"));
  s.note = r.text("note");
  s.node = r.text("node");
  s.assignment = r.text("assignment");
  s.late_seconds = r.integer("late_seconds");
  if (!r.is_null("rejudge_of")) s.rejudge_of = r.integer("rejudge_of");
  s.sanitizer = explanation_from_column(r.text("sanitizer_state"), r.file());
  return s;
}

std::string files_json(const std::vector<source_file>& files) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& f : files) out.push_back({{"name", f.name}, {"content", f.content}});
  return out.dump();
}

/// `waiting` (one state's submissions, oldest first) in the order claim() takes them, given each account's
/// last turn in the lane (`turns`, every account the lane has served): of each account's oldest, the
/// account served longest ago (never: first), which then becomes the one served last. claim()'s query,
/// played forward without new arrivals; the queue's test holds the two to the same order.
std::vector<submission> in_claim_order(std::vector<submission> waiting, std::map<std::string, std::int64_t> turns) {
  std::int64_t last = 0;
  for (const auto& [account, turn] : turns) last = std::max(last, turn);
  std::vector<submission> ordered;
  while (!waiting.empty()) {
    auto next = std::min_element(waiting.begin(), waiting.end(), [&](const submission& a, const submission& b) {
      const std::int64_t ta = turns.count(a.account) ? turns[a.account] : 0;
      const std::int64_t tb = turns.count(b.account) ? turns[b.account] : 0;
      return ta != tb ? ta < tb : a.id < b.id;
    });
    turns[next->account] = ++last;
    ordered.push_back(std::move(*next));
    waiting.erase(next);
  }
  return ordered;
}

std::vector<source_file> files_from_json(const std::string& text) {
  std::vector<source_file> out;
  for (const auto& f : nlohmann::json::parse(text)) out.push_back({f.at("name"), f.at("content")});
  return out;
}
} // namespace

std::string state_name(state s) { return store::submission_state_names[static_cast<std::size_t>(s)]; }

state parse_state(const std::string& text) {
  for (std::size_t i = 0; i < store::submission_state_names.size(); ++i)
    if (text == store::submission_state_names[i]) return static_cast<state>(i);
  throw std::invalid_argument("unknown submission state \"" + text + "\"");
}

submission_queue::submission_queue(results_db& store) : m_store(store), m_db(store.connection()) {}

std::int64_t submission_queue::enqueue(const std::string& account, const std::string& problem,
                                       std::vector<source_file> files, const course_mark& mark) {
  sqlite::transaction tx(m_db);
  m_db.prepare("INSERT INTO queued_submissions (account, problem, files, state, submitted_at, assignment, "
               "late_seconds) VALUES (?1, ?2, ?3, ?5, ?4, ?6, ?7)")
      .bind(1, account)
      .bind(2, problem)
      .bind(3, files_json(files))
      .bind(4, utc_now())
      .bind(5, state_name(state::queued))
      .bind(6, mark.assignment)
      .bind(7, mark.late_seconds)
      .run();
  const std::int64_t id = m_db.last_insert_rowid();
  tx.commit();
  return id;
}

std::vector<std::int64_t> submission_queue::requeue(const std::string& problem, const std::string& since) {
  sqlite::transaction tx(m_db);
  struct original {
    std::int64_t id;
    std::string account, files, assignment;
    std::int64_t late_seconds;
  };
  std::vector<original> originals;
  sqlite::statement pick = m_db.prepare("SELECT id, account, files, assignment, late_seconds FROM queued_submissions "
                                        "WHERE problem = ?1 AND "
                                        "rejudge_of IS NULL AND submitted_at >= ?2 AND state IN (?3, ?4) ORDER BY id");
  pick.bind(1, problem).bind(2, since).bind(3, state_name(state::done)).bind(4, state_name(state::failed));
  while (pick.step()) {
    const store::row r(pick, m_db.file());
    originals.push_back(
        {r.integer("id"), r.text("account"), r.text("files"), r.text("assignment"), r.integer("late_seconds")});
  }
  const std::string now = utc_now();
  std::vector<std::int64_t> ids;
  sqlite::statement insert =
      m_db.prepare("INSERT INTO queued_submissions (account, problem, files, state, submitted_at, rejudge_of, "
                   "assignment, late_seconds) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
  for (const original& o : originals) {
    insert.bind(1, o.account).bind(2, problem).bind(3, o.files).bind(4, state_name(state::queued)).bind(5, now);
    // A copy keeps its original's standing in the course: the assignment it was made for, how late.
    insert.bind(6, o.id).bind(7, o.assignment).bind(8, o.late_seconds).run();
    insert.reset();
    ids.push_back(m_db.last_insert_rowid());
  }
  tx.commit();
  return ids;
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
  const store::row picked(pick, m_db.file());
  const std::int64_t id = picked.integer("id");
  const std::string account = picked.text("account");
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
  m_db.prepare("UPDATE queued_submissions SET state = ?2 WHERE id = ?1 AND state = ?3")
      .bind(1, id)
      .bind(2, state_name(state::compiled))
      .bind(3, state_name(state::compiling))
      .run();
}

bool submission_queue::end(std::int64_t id, state to, const std::string& error, const solution_result* result,
                           const std::string& gpu, bool record) {
  sqlite::transaction tx(m_db);
  sqlite::statement now = m_db.prepare("SELECT state FROM queued_submissions WHERE id = ?1");
  now.bind(1, id);
  if (!now.step()) throw std::invalid_argument("no submission " + std::to_string(id));
  const state was = parse_state(store::row(now, m_db.file()).text("state"));
  if (was == state::done || was == state::failed) return false;
  sqlite::statement update =
      m_db.prepare("UPDATE queued_submissions SET state = ?1, error = ?2, result = ?3, gpu = ?4, finished_at = ?5, "
                   "result_id = ?6, contest_result = ?8, device = ?9, note = '', sanitizer_state = ?10, "
                   "sanitizer_worker = '' WHERE id = ?7");
  update.bind(1, state_name(to)).bind(2, error).bind(4, gpu).bind(5, utc_now()).bind(7, id);
  update.bind(10, explanation_column(result ? result->sanitizer.state : explanation_state::none));
  if (result) {
    update.bind(3, to_json(*result).dump()).bind(8, to_json(contest_view(*result)).dump());
  } else {
    update.bind_null(3).bind_null(8);
  }
  if (result && !result->device.name.empty())
    update.bind(9, device_json(result->device).dump());
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

std::optional<submission> submission_queue::claim_explanation(const std::string& worker) {
  sqlite::transaction tx(m_db);
  // Oldest first: explanations come in the order their verdicts did.
  sqlite::statement pick = m_db.prepare("SELECT id FROM queued_submissions WHERE sanitizer_state = ?1 AND "
                                        "sanitizer_worker = '' AND state = ?2 ORDER BY id LIMIT 1");
  pick.bind(1, explanation_column(explanation_state::pending)).bind(2, state_name(state::done));
  if (!pick.step()) return std::nullopt;
  const std::int64_t id = store::row(pick, m_db.file()).integer("id");
  m_db.prepare("UPDATE queued_submissions SET sanitizer_worker = ?1 WHERE id = ?2").bind(1, worker).bind(2, id).run();
  tx.commit();
  return get(id);
}

bool submission_queue::explained(std::int64_t id, const solution_result& result) {
  sqlite::transaction tx(m_db);
  sqlite::statement now =
      m_db.prepare("SELECT sanitizer_state, result, contest_result, result_id FROM queued_submissions WHERE id = ?1");
  now.bind(1, id);
  if (!now.step()) throw std::invalid_argument("no submission " + std::to_string(id));
  const store::row r(now, m_db.file());
  if (explanation_from_column(r.text("sanitizer_state"), r.file()) != explanation_state::pending) return false;
  // Only the explanation changes: the rest of each stored document is as it was published.
  const auto patched = [&](const char* column, const solution_result& shown) -> store::sql_value {
    if (r.is_null(column)) return nullptr;
    return with_explanation(nlohmann::json::parse(r.text(column)), shown).dump();
  };
  sqlite::statement update =
      m_db.prepare("UPDATE queued_submissions SET result = ?1, contest_result = ?2, sanitizer_state = ?3, "
                   "sanitizer_worker = '' WHERE id = ?4");
  store::bind_value(update, 1, patched("result", result));
  store::bind_value(update, 2, patched("contest_result", contest_view(result)));
  update.bind(3, explanation_column(result.sanitizer.state)).bind(4, id).run();
  if (!r.is_null("result_id")) m_store.record_explanation_within(tx, r.integer("result_id"), result);
  tx.commit();
  return true;
}

void submission_queue::set_note(const std::vector<std::int64_t>& ids, const std::string& note) {
  sqlite::transaction tx(m_db);
  for (std::int64_t id : ids)
    m_db.prepare("UPDATE queued_submissions SET note = ?1 WHERE id = ?2 AND state NOT IN (?3, ?4)")
        .bind(1, note)
        .bind(2, id)
        .bind(3, state_name(state::done))
        .bind(4, state_name(state::failed))
        .run();
  tx.commit();
}

void submission_queue::set_node(std::int64_t id, const std::string& node) {
  m_db.prepare("UPDATE queued_submissions SET node = ?1 WHERE id = ?2").bind(1, node).bind(2, id).run();
}

std::size_t submission_queue::recover() { return move_back(""); }

std::size_t submission_queue::release(const std::string& worker) { return move_back(worker); }

std::vector<std::int64_t> submission_queue::held_by(const std::string& worker) {
  sqlite::statement st =
      m_db.prepare("SELECT id FROM queued_submissions WHERE worker = ?1 AND state IN (?2, ?3) ORDER BY id");
  st.bind(1, worker).bind(2, state_name(state::running)).bind(3, state_name(state::compiling));
  std::vector<std::int64_t> out;
  while (st.step()) out.push_back(store::row(st, m_db.file()).integer("id"));
  return out;
}

std::size_t submission_queue::move_back(const std::string& worker) {
  sqlite::transaction tx(m_db);
  std::size_t moved = 0;
  // Each held state goes back to the state it was claimed from.
  for (const auto& [held, back] :
       {std::pair{state::compiling, state::queued}, std::pair{state::running, state::compiled}}) {
    m_db.prepare("UPDATE queued_submissions SET state = ?3 WHERE state = ?2 AND (?1 = '' OR worker = ?1)")
        .bind(1, worker)
        .bind(2, state_name(held))
        .bind(3, state_name(back))
        .run();
    sqlite::statement changes = m_db.prepare("SELECT changes()");
    changes.step();
    moved += static_cast<std::size_t>(changes.get_int(0));
  }
  // An explanation held is free again: it was pending all along to readers.
  m_db.prepare("UPDATE queued_submissions SET sanitizer_worker = '' WHERE sanitizer_worker <> '' AND "
               "(?1 = '' OR sanitizer_worker = ?1)")
      .bind(1, worker)
      .run();
  sqlite::statement changes = m_db.prepare("SELECT changes()");
  changes.step();
  moved += static_cast<std::size_t>(changes.get_int(0));
  tx.commit();
  return moved;
}

std::optional<submission> submission_queue::get(std::int64_t id) {
  sqlite::statement st = m_db.prepare("SELECT " + summary_columns() + ", files FROM queued_submissions WHERE id = ?1");
  st.bind(1, id);
  if (!st.step()) return std::nullopt;
  const store::row r(st, m_db.file());
  submission s = read_summary(r);
  s.files = files_from_json(r.text("files"));
  return s;
}

std::vector<submission> submission_queue::done_not_recorded(const std::string& problem) {
  sqlite::statement st =
      m_db.prepare("SELECT " + summary_columns() +
                   " FROM queued_submissions WHERE problem = ?1 AND state = ?2 AND result IS NOT NULL AND "
                   "result_id IS NULL ORDER BY id");
  st.bind(1, problem).bind(2, state_name(state::done));
  std::vector<submission> out;
  while (st.step()) out.push_back(read_summary(store::row(st, m_db.file())));
  return out;
}

std::vector<submission> submission_queue::latest_per_account(const std::string& problem) {
  sqlite::statement st = m_db.prepare(
      "SELECT " + summary_columns() +
      ", files FROM queued_submissions WHERE id IN (SELECT MAX(id) FROM queued_submissions WHERE problem = ?1 AND "
      "rejudge_of IS NULL GROUP BY account) ORDER BY account");
  st.bind(1, problem);
  std::vector<submission> out;
  while (st.step()) {
    const store::row r(st, m_db.file());
    out.push_back(read_summary(r));
    out.back().files = files_from_json(r.text("files"));
  }
  return out;
}

std::vector<submission> submission_queue::of_account(const std::string& account, std::size_t limit) {
  sqlite::statement st = m_db.prepare("SELECT " + summary_columns() +
                                      " FROM queued_submissions WHERE account = ?1 ORDER BY id DESC LIMIT ?2");
  st.bind(1, account).bind(2, static_cast<std::int64_t>(limit));
  std::vector<submission> out;
  while (st.step()) out.push_back(read_summary(store::row(st, m_db.file())));
  return out;
}

std::vector<submission> submission_queue::recent(std::size_t limit) {
  sqlite::statement st =
      m_db.prepare("SELECT " + summary_columns() + " FROM queued_submissions ORDER BY id DESC LIMIT ?1");
  st.bind(1, static_cast<std::int64_t>(limit));
  std::vector<submission> out;
  while (st.step()) out.push_back(read_summary(store::row(st, m_db.file())));
  return out;
}

std::size_t submission_queue::queued_of(const std::string& account) {
  sqlite::statement st =
      m_db.prepare("SELECT COUNT(*) FROM queued_submissions WHERE account = ?1 AND state NOT IN (?2, ?3) "
                   "AND rejudge_of IS NULL");
  st.bind(1, account).bind(2, state_name(state::done)).bind(3, state_name(state::failed));
  st.step();
  return static_cast<std::size_t>(st.get_int(0));
}

std::size_t submission_queue::submitted_since(const std::string& account, const std::string& utc_time) {
  sqlite::statement st =
      m_db.prepare("SELECT COUNT(*) FROM queued_submissions WHERE account = ?1 AND submitted_at >= ?2 "
                   "AND rejudge_of IS NULL");
  st.bind(1, account).bind(2, utc_time);
  st.step();
  return static_cast<std::size_t>(st.get_int(0));
}

std::vector<submission> submission_queue::of_problem(const std::string& problem) {
  sqlite::statement st =
      m_db.prepare("SELECT " + summary_columns() + " FROM queued_submissions WHERE problem = ?1 ORDER BY id DESC");
  st.bind(1, problem);
  std::vector<submission> out;
  while (st.step()) out.push_back(read_summary(store::row(st, m_db.file())));
  return out;
}

std::vector<line_place> submission_queue::line() {
  // Read without a transaction (BEGIN IMMEDIATE would hold up every submission and claim meanwhile): a
  // claim between the two reads shows one place off until the next look, and nothing is changed.
  sqlite::statement st =
      m_db.prepare("SELECT " + summary_columns() + " FROM queued_submissions WHERE state NOT IN (?1, ?2) ORDER BY id");
  st.bind(1, state_name(state::done)).bind(2, state_name(state::failed));
  std::map<state, std::vector<submission>> by_state;
  while (st.step()) {
    submission s = read_summary(store::row(st, m_db.file()));
    by_state[s.now].push_back(std::move(s));
  }
  auto turns_of = [&](const char* lane) {
    sqlite::statement turns = m_db.prepare("SELECT account, turn FROM queue_turns WHERE lane = ?1");
    turns.bind(1, std::string(lane));
    std::map<std::string, std::int64_t> out;
    while (turns.step()) {
      const store::row r(turns, m_db.file());
      out[r.text("account")] = r.integer("turn");
    }
    return out;
  };
  std::vector<line_place> out;
  for (state held : {state::running, state::compiling})
    for (submission& s : by_state[held]) out.push_back({std::move(s), 0, 0});
  for (const auto& [waiting, lane] : {std::pair{state::compiled, "gpu"}, std::pair{state::queued, "compile"}}) {
    std::vector<submission> ordered = in_claim_order(std::move(by_state[waiting]), turns_of(lane));
    for (std::size_t i = 0; i < ordered.size(); ++i) out.push_back({std::move(ordered[i]), i + 1, ordered.size()});
  }
  return out;
}

std::vector<problem_tally> submission_queue::tally() {
  sqlite::statement st =
      m_db.prepare("SELECT problem, COUNT(*) AS submissions, COUNT(DISTINCT account) AS accounts, "
                   "SUM(state NOT IN (?1, ?2)) AS in_line FROM queued_submissions GROUP BY problem ORDER BY problem");
  st.bind(1, state_name(state::done)).bind(2, state_name(state::failed));
  std::vector<problem_tally> out;
  while (st.step()) {
    const store::row r(st, m_db.file());
    out.push_back({r.text("problem"), static_cast<std::size_t>(r.integer("submissions")),
                   static_cast<std::size_t>(r.integer("accounts")), static_cast<std::size_t>(r.integer("in_line"))});
  }
  return out;
}

std::size_t submission_queue::count(state s) {
  sqlite::statement st = m_db.prepare("SELECT COUNT(*) FROM queued_submissions WHERE state = ?1");
  st.bind(1, state_name(s));
  st.step();
  return static_cast<std::size_t>(st.get_int(0));
}

} // namespace judge::service
