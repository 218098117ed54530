#include "judge/grading/device_memo.hpp"

#include "judge/grading/device_memo_file.hpp"

namespace judge {

probe_result device_memo::probe(bool bandwidth) {
  const std::lock_guard<std::mutex> hold(m_mutex);
  std::optional<kept>& slot = bandwidth ? m_with_bandwidth : m_plain;
  const auto now = std::chrono::steady_clock::now();
  if (slot && now - slot->at < m_max_age) return slot->answer;
  const std::string machine = m_file.empty() ? std::string() : probe_machine_key();
  if (!m_file.empty())
    if (auto kept_answer = read_kept_probe(m_file, bandwidth, m_max_age, machine)) {
      slot = kept{kept_answer->answer, now - kept_answer->age}; // as old here as it is in the file
      return kept_answer->answer;
    }
  return probe_and_keep(bandwidth, machine);
}

probe_result device_memo::probe_now(bool bandwidth) {
  const std::lock_guard<std::mutex> hold(m_mutex);
  return probe_and_keep(bandwidth, m_file.empty() ? std::string() : probe_machine_key());
}

bool device_memo::expires_within(std::chrono::seconds margin, bool bandwidth) {
  const std::lock_guard<std::mutex> hold(m_mutex);
  const std::optional<kept>& slot = bandwidth ? m_with_bandwidth : m_plain;
  return !slot || std::chrono::steady_clock::now() - slot->at >= m_max_age - margin;
}

probe_result device_memo::probe_and_keep(bool bandwidth, const std::string& machine) {
  std::optional<kept>& slot = bandwidth ? m_with_bandwidth : m_plain;
  probe_result answer = m_probe(bandwidth);
  if (!m_file.empty()) keep_probe(m_file, bandwidth, answer, machine);
  if (answer.device || answer.no_device)
    slot = kept{answer, std::chrono::steady_clock::now()};
  else
    slot.reset();
  return answer;
}

} // namespace judge
