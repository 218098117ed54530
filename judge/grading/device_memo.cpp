#include "device_memo.hpp"

namespace judge {

probe_result device_memo::probe(bool bandwidth) {
  const std::lock_guard<std::mutex> hold(m_mutex);
  std::optional<kept>& slot = bandwidth ? m_with_bandwidth : m_plain;
  const auto now = std::chrono::steady_clock::now();
  if (slot && now - slot->at < m_max_age) return slot->answer;
  probe_result answer = m_probe(bandwidth);
  if (answer.device || answer.no_device)
    slot = kept{answer, now};
  else
    slot.reset();
  return answer;
}

} // namespace judge
