#include "judge/store/handed_in.hpp"

#include "judge/store/sql_row.hpp"
#include "judge/store/store_schema.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace judge::store {

namespace {
submission_state state_named(const std::string& text, const std::string& file) {
  for (std::size_t i = 0; i < submission_state_names.size(); ++i)
    if (text == submission_state_names[i]) return static_cast<submission_state>(i);
  throw std::runtime_error(fmt::format("database '{}' holds an unknown submission state '{}'", file, text));
}
} // namespace

std::vector<handed_in> handed_in_to(results_db& store, const std::vector<std::string>& problems) {
  sqlite::database& db = store.connection();
  // Without the files: a class's sources are not needed to grade it.
  sqlite::statement st = db.prepare("SELECT " + select_list("queued_submissions", {"files"}) +
                                    " FROM queued_submissions WHERE problem = ?1 ORDER BY id");
  std::vector<handed_in> out;
  for (const std::string& problem : problems) {
    st.bind(1, problem);
    while (st.step()) {
      const row r(st, db.file());
      handed_in h;
      h.id = r.integer("id");
      h.account = r.text("account");
      h.problem = r.text("problem");
      h.submitted_at = r.text("submitted_at");
      h.state = state_named(r.text("state"), db.file());
      if (!r.is_null("result")) {
        h.result = nlohmann::json::parse(r.text("result"), nullptr, false);
        if (h.result->is_discarded())
          throw std::runtime_error(fmt::format("database '{}' holds an unreadable result of submission {}", db.file(), h.id));
      }
      if (!r.is_null("result_id")) h.result_id = r.integer("result_id");
      h.assignment = r.text("assignment");
      h.late_seconds = r.integer("late_seconds");
      out.push_back(std::move(h));
    }
    st.reset();
  }
  std::stable_sort(out.begin(), out.end(), [](const handed_in& a, const handed_in& b) { return a.id < b.id; });
  return out;
}

} // namespace judge::store
