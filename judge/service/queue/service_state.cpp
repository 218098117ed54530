#include "judge/service/queue/service_state.hpp"

#include "judge/service/http/http_server.hpp"

#include "judge/base/utc_time.hpp"
#include "judge/course/course_rules.hpp"
#include "judge/course/course_watch.hpp"
#include "judge/problem/problem.hpp"
#include "judge/service/queue/access_policy.hpp"
#include "judge/service/http/request_origin.hpp"
#include "judge/store/results_db.hpp"
#include "judge/problem/cases.hpp"
#include "judge/problem/case_set_version.hpp"
#include "judge/service/queue/access_policy.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>

namespace judge::service {

struct service_state::signals {
  std::mutex mutex;
  std::condition_variable queued, compiled;
  std::uint64_t queued_count = 0, compiled_count = 0;
};

store_connection::store_connection(const std::filesystem::path& db) : store(db), users(store), queue(store) {
  // An acknowledged submission must survive a power cut, not only a crash of the server: WAL's default
  // here (NORMAL) may lose the last commits to one. FULL costs an fsync per commit.
  store.connection().exec("PRAGMA synchronous = FULL");
}

service_state::borrowed::borrowed(service_state& s) : owner(s) {
  {
    const std::lock_guard<std::mutex> lock(s.m_pool_mutex);
    if (!s.m_pool.empty()) {
      c = std::move(s.m_pool.back());
      s.m_pool.pop_back();
    }
  }
  if (!c) c = std::make_unique<store_connection>(s.m_options.db);
}

service_state::borrowed::~borrowed() {
  const std::lock_guard<std::mutex> lock(owner.m_pool_mutex);
  owner.m_pool.push_back(std::move(c));
}

namespace {
/// What a catalogue is loaded from, as text that changes when any of it does: each problem folder's
/// name with the times of its problem.yaml and its cases.yaml.
std::string catalogue_signature(const std::filesystem::path& problems, const std::filesystem::path& testcases) {
  std::string out;
  std::error_code error;
  auto stamp = [&](const std::filesystem::path& p) {
    const auto t = std::filesystem::last_write_time(p, error);
    out += error ? std::string("-") : std::to_string(t.time_since_epoch().count());
    out += ' ';
  };
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(problems, error))
    if (entry.is_directory(error)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    out += name + ' ';
    stamp(problems / name / "problem.yaml");
    stamp(testcases / name / "cases.yaml");
  }
  return out;
}
} // namespace

service_state::service_state(server_options options)
    : m_options(std::move(options)), m_signals(std::make_unique<signals>()) {
  // Tables are made once here, before any thread races to make them.
  with_store([](store_connection&) {});
  // At start a problem that does not load is the instructor's to fix before the class: it is thrown.
  auto first = load_catalogue(catalogue_signature(problems_root(), testcases_root()));
  m_catalogue = first.get();
  m_catalogues.push_back(std::move(first));
  m_checked = std::chrono::steady_clock::now();
  // Like a problem, a course file that does not read stops the server at start: the instructor's to fix.
  if (!m_options.course.empty())
    m_course = std::make_unique<course::course_watch>(
        m_options.course,
        [this] {
          std::vector<std::string> names;
          for (const problem_entry& p : problems()) names.push_back(p.name);
          return names;
        },
        [this](const std::string& line) { m_log(line); });
}

service_state::~service_state() = default;

std::unique_ptr<service_state::catalogue> service_state::load_catalogue(std::string signature) const {
  auto out = std::make_unique<catalogue>();
  out->signature = std::move(signature);
  for (const std::string& name : list_problems(problems_root())) {
    auto spec = std::make_unique<problem_spec>(load_problem(problems_root() / name));
    problem_entry entry{spec->name, spec->title, unit_name(spec->unit), 0, spec->draft,
                        case_set_version(spec->spec_file, testcases_root() / name / "cases.yaml")};
    for (const test_case& c : load_cases(*spec, testcases_root() / name / "cases.yaml"))
      // A robustness case is timed only where grading is strict: elsewhere it counts in no score.
      if (c.timed && c.visibility == visibility::hidden && (!c.robustness() || options().strict)) ++entry.timed_cases;
    out->problems.push_back(entry);
    out->specs.push_back(std::move(spec));
  }
  return out;
}

const service_state::catalogue& service_state::current() const {
  const std::lock_guard<std::mutex> lock(m_catalogue_mutex);
  const auto now = std::chrono::steady_clock::now();
  if (now - m_checked < std::chrono::seconds(1)) return *m_catalogue.load();
  m_checked = now;
  const std::string signature = catalogue_signature(problems_root(), testcases_root());
  if (signature == m_catalogue.load()->signature) return *m_catalogue.load();
  std::unique_ptr<catalogue> next;
  try {
    next = load_catalogue(signature);
  } catch (const std::exception&) {
    // Half written, or broken: what was loaded stays offered; the next look (a second on) tries again.
    return *m_catalogue.load();
  }
  m_catalogue = next.get();
  m_catalogues.push_back(std::move(next));
  return *m_catalogue.load();
}

const problem_spec* service_state::spec(const std::string& name) const {
  for (const auto& s : current().specs)
    if (s->name == name) return s.get();
  return nullptr;
}

const problem_spec* service_state::spec_for(const account& who, const std::string& name) const {
  return shows_problem(who, name) ? spec(name) : nullptr;
}

const problem_entry* service_state::entry(const std::string& name) const {
  for (const problem_entry& p : problems())
    if (p.name == name) return &p;
  return nullptr;
}

std::optional<account> service_state::authenticate(const http_request& request) {
  const std::string token = token_of(request);
  if (token.empty()) return std::nullopt;
  auto who = with_store([&](store_connection& c) { return c.users.authenticate(token); });
  if (who) who->form_token = form_token(token);
  return who;
}

std::shared_ptr<const course::course_spec> service_state::course() const {
  return m_course ? m_course->current() : nullptr;
}

bool service_state::shows_problem(const account& who, const std::string& name) const {
  const problem_spec* found = spec(name);
  return found != nullptr && can_see_draft(who, found->draft) &&
         can_see_problem(who, course().get(), name, epoch_seconds_now());
}

std::vector<problem_entry> service_state::problems_for(const account& who) const {
  std::vector<problem_entry> out;
  const auto now_course = course();
  const std::int64_t now = epoch_seconds_now();
  for (const problem_entry& p : problems())
    if (can_see_draft(who, p.draft) && can_see_problem(who, now_course.get(), p.name, now)) out.push_back(p);
  return out;
}

service_state::admission service_state::submit(const account& who, const submission_request& request) {
  // A draft is named as one: its author's students are told why, not that it does not exist.
  if (const problem_spec* asked = spec(request.problem); asked && !can_see_draft(who, asked->draft))
    throw bad_request("problem \"" + request.problem +
                      "\" is a draft: it is not open for submissions until an instructor publishes it");
  check_submission(request, {m_options.max_files, m_options.max_file_bytes},
                   [&](const std::string& name) { return shows_problem(who, name); });
  admission out;
  if (who.who == role::student) {
    const course::hand_in decided =
        course::judge_hand_in(course().get(), request.problem, who.name, epoch_seconds_now());
    if (decided.what == course::hand_in::outcome::refused) {
      out.closed = decided.refusal;
      return out;
    }
    out.mark = {decided.assignment, decided.late_seconds};
  }
  try {
    with_store([&](store_connection& c) {
      const std::lock_guard<std::mutex> lock(m_admission_mutex);
      if (who.who == role::student)
        out.refused = rate_limit(c.queue, who.name, m_options.per_minute, m_options.queued_at_once,
                                 std::chrono::system_clock::now());
      // An instructor's script gone wrong must not fill the queue ahead of a whole class.
      const std::size_t cap = static_cast<std::size_t>(std::max(0, m_options.instructor_queued_at_once));
      if (who.who == role::instructor && cap > 0) {
        const std::size_t waiting = c.queue.queued_of(who.name);
        if (waiting >= cap)
          out.refused = refusal{"you have " + std::to_string(waiting) + " submissions waiting to be graded (at most " +
                                    std::to_string(cap) +
                                    " at once for an instructor, --instructor-queued): submit "
                                    "again when some are done",
                                5};
      }
      if (!out.refused) out.id = c.queue.enqueue(who.name, request.problem, request.files, out.mark);
    });
  } catch (const sqlite::error& e) {
    // Nothing was queued (enqueue is one transaction): the client is told so, and may try again.
    throw http_unavailable(std::string("the judge cannot store a submission now (") +
                           ((e.code() & 0xff) == SQLITE_FULL ? "its disk is full" : "its store fails") +
                           "); nothing was queued: try again in a minute");
  }
  if (!out.refused) notify_queued();
  return out;
}

std::vector<std::int64_t> service_state::rejudge(const std::string& problem, const std::string& since) {
  std::vector<std::int64_t> ids;
  try {
    ids = with_store([&](store_connection& c) { return c.queue.requeue(problem, since); });
  } catch (const sqlite::error& e) {
    throw http_unavailable(std::string("the judge cannot store a submission now (") +
                           ((e.code() & 0xff) == SQLITE_FULL ? "its disk is full" : "its store fails") +
                           "); nothing was queued: try again in a minute");
  }
  if (!ids.empty()) notify_queued();
  return ids;
}

void service_state::notify_queued() {
  {
    const std::lock_guard<std::mutex> lock(m_signals->mutex);
    ++m_signals->queued_count;
  }
  m_signals->queued.notify_all();
}

void service_state::notify_compiled() {
  {
    const std::lock_guard<std::mutex> lock(m_signals->mutex);
    ++m_signals->compiled_count;
  }
  m_signals->compiled.notify_all();
}

void service_state::wait_for_queued(double seconds) {
  std::unique_lock<std::mutex> lock(m_signals->mutex);
  const auto seen = m_signals->queued_count;
  m_signals->queued.wait_for(lock, std::chrono::duration<double>(seconds),
                             [&] { return m_signals->queued_count != seen || m_stopping; });
}

void service_state::wait_for_compiled(double seconds) {
  std::unique_lock<std::mutex> lock(m_signals->mutex);
  const auto seen = m_signals->compiled_count;
  m_signals->compiled.wait_for(lock, std::chrono::duration<double>(seconds),
                               [&] { return m_signals->compiled_count != seen || m_stopping; });
}

} // namespace judge::service
