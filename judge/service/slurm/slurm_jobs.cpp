#include "judge/service/slurm/slurm_jobs.hpp"

#include "judge/service/queue/accounts.hpp"
#include "judge/store/sql_row.hpp"
#include "judge/store/store_schema.hpp"
#include "judge/base/utc_time.hpp"

#include <nlohmann/json.hpp>

namespace judge::service {

namespace {
slurm_job read_job(const store::row& r) {
  slurm_job j;
  j.key = r.text("key");
  j.slurm_id = r.text("slurm_id");
  for (const auto& id : nlohmann::json::parse(r.text("submissions"))) j.submissions.push_back(id.get<std::int64_t>());
  j.live = r.integer("live") != 0;
  j.submitted_at = r.text("submitted_at");
  j.fault = r.text("fault");
  j.fault_node = r.text("fault_node");
  return j;
}
const std::string& job_columns() {
  static const std::string list = store::select_list("slurm_jobs", {"token_sha256", "ended_at", "ended_why"});
  return list;
}
} // namespace

std::string slurm_worker_name(const std::string& key) { return "slurm " + key; }

slurm_jobs::slurm_jobs(results_db& store) : m_db(store.connection()) {}

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
  sqlite::statement st = m_db.prepare("SELECT " + job_columns() + ", token_sha256 FROM slurm_jobs WHERE key = ?1");
  st.bind(1, key);
  if (!st.step()) return job_access::unknown;
  const store::row r(st, m_db.file());
  job = read_job(r);
  return job.live && r.text("token_sha256") == token_hash(token) ? job_access::granted : job_access::refused;
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
      m_db.prepare("SELECT " + job_columns() + " FROM slurm_jobs WHERE live = 1 ORDER BY submitted_at");
  std::vector<slurm_job> out;
  while (st.step()) out.push_back(read_job(store::row(st, m_db.file())));
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
  return static_cast<int>(store::row(st, m_db.file()).integer("times"));
}

} // namespace judge::service
