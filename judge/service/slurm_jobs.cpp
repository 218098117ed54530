#include "slurm_jobs.hpp"

#include "accounts.hpp"
#include "utc_time.hpp"

#include <nlohmann/json.hpp>

namespace judge::service {

namespace {
slurm_job read_job(sqlite::statement& st) {
  slurm_job j;
  j.key = st.get_text(0);
  j.slurm_id = st.get_text(1);
  for (const auto& id : nlohmann::json::parse(st.get_text(2))) j.submissions.push_back(id.get<std::int64_t>());
  j.live = st.get_int(3) != 0;
  j.submitted_at = st.get_text(4);
  j.fault = st.get_text(5);
  j.fault_node = st.get_text(6);
  return j;
}
constexpr const char* job_columns = "key, slurm_id, submissions, live, submitted_at, fault, fault_node";
} // namespace

std::string slurm_worker_name(const std::string& key) { return "slurm " + key; }

slurm_jobs::slurm_jobs(results_db& store) : m_db(store.connection()) {
  m_db.exec("CREATE TABLE IF NOT EXISTS slurm_jobs ("
            " key TEXT PRIMARY KEY,"
            " token_sha256 TEXT NOT NULL,"
            " slurm_id TEXT NOT NULL DEFAULT '',"
            " submissions TEXT NOT NULL,"
            " live INTEGER NOT NULL,"
            " submitted_at TEXT NOT NULL,"
            " ended_at TEXT NOT NULL DEFAULT '',"
            " ended_why TEXT NOT NULL DEFAULT '',"
            " fault TEXT NOT NULL DEFAULT '',"
            " fault_node TEXT NOT NULL DEFAULT '');"
            "CREATE TABLE IF NOT EXISTS slurm_lost (submission INTEGER PRIMARY KEY, times INTEGER NOT NULL)");
}

std::string slurm_jobs::add(const std::string& key, const std::vector<std::int64_t>& submissions) {
  const std::string token = new_token();
  m_db.prepare("INSERT INTO slurm_jobs (key, token_sha256, submissions, live, submitted_at) VALUES (?1, ?2, ?3, 1, ?4)")
      .bind(1, key)
      .bind(2, token_hash(token))
      .bind(3, nlohmann::json(submissions).dump())
      .bind(4, utc_now())
      .run();
  return token;
}

void slurm_jobs::set_slurm_id(const std::string& key, const std::string& slurm_id) {
  m_db.prepare("UPDATE slurm_jobs SET slurm_id = ?1 WHERE key = ?2").bind(1, slurm_id).bind(2, key).run();
}

job_access slurm_jobs::authenticate(const std::string& key, const std::string& token, slurm_job& job) {
  sqlite::statement st =
      m_db.prepare(std::string("SELECT ") + job_columns + ", token_sha256 FROM slurm_jobs WHERE key = ?1");
  st.bind(1, key);
  if (!st.step()) return job_access::unknown;
  job = read_job(st);
  return job.live && st.get_text(7) == token_hash(token) ? job_access::granted : job_access::refused;
}

void slurm_jobs::record_fault(const std::string& key, const std::string& node, const std::string& why) {
  m_db.prepare("UPDATE slurm_jobs SET fault = ?1, fault_node = ?2 WHERE key = ?3 AND live = 1")
      .bind(1, why)
      .bind(2, node)
      .bind(3, key)
      .run();
}

std::vector<slurm_job> slurm_jobs::live() {
  sqlite::statement st =
      m_db.prepare(std::string("SELECT ") + job_columns + " FROM slurm_jobs WHERE live = 1 ORDER BY submitted_at");
  std::vector<slurm_job> out;
  while (st.step()) out.push_back(read_job(st));
  return out;
}

bool slurm_jobs::end(const std::string& key, const std::string& why) {
  m_db.prepare("UPDATE slurm_jobs SET live = 0, ended_at = ?1, ended_why = ?2 WHERE key = ?3 AND live = 1")
      .bind(1, utc_now())
      .bind(2, why)
      .bind(3, key)
      .run();
  sqlite::statement changes = m_db.prepare("SELECT changes()");
  changes.step();
  return changes.get_int(0) > 0;
}

int slurm_jobs::lost_one(std::int64_t id) {
  m_db.prepare("INSERT INTO slurm_lost (submission, times) VALUES (?1, 1) "
               "ON CONFLICT (submission) DO UPDATE SET times = times + 1")
      .bind(1, id)
      .run();
  sqlite::statement st = m_db.prepare("SELECT times FROM slurm_lost WHERE submission = ?1");
  st.bind(1, id);
  st.step();
  return static_cast<int>(st.get_int(0));
}

} // namespace judge::service
