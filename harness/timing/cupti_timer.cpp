#include "harness/timing/cupti_timer.hpp"
#include "common/demangle.hpp"

#include "harness/timing/l2_flush_kernels.cuh"

#include <cupti.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace judge_harness {
namespace {

/// [B] per record buffer handed to CUPTI; a kernel record is a few hundred bytes.
constexpr std::size_t record_buffer_bytes = 4u << 20;
/// CUPTI requires record buffers aligned to 8 bytes.
constexpr std::size_t record_buffer_alignment = 8;

struct activity_record {
  std::uint64_t start_ns;
  std::uint64_t end_ns;
  std::uint32_t stream_id;
  std::uint32_t correlation_id; ///< of the API call that enqueued it; 0 when CUPTI gave none
  /// A kernel's launch configuration (name empty for copies and memsets). The name is copied: CUPTI's
  /// string lives only as long as the module that holds the kernel.
  judge_wire::kernel_launch launch;
};

judge_wire::kernel_launch launch_of(const CUpti_ActivityKernel10& k) {
  judge_wire::kernel_launch launch;
  if (k.name != nullptr) launch.name = judge_symbols::demangled(k.name);
  launch.grid[0] = k.gridX;
  launch.grid[1] = k.gridY;
  launch.grid[2] = k.gridZ;
  launch.block[0] = k.blockX;
  launch.block[1] = k.blockY;
  launch.block[2] = k.blockZ;
  launch.dynamic_shared_bytes = k.dynamicSharedMemory;
  launch.static_shared_bytes = k.staticSharedMemory;
  launch.registers = k.registersPerThread;
  return launch;
}

/// The judge's own kernels (the marker, the L2 flush, generators) are all named judge_*.
bool judges_own(const judge_wire::kernel_launch& launch) { return launch.name.rfind("judge_", 0) == 0; }

/// Whether every extent is at least 1, as the judge's decoder requires: a record without its
/// configuration is left out rather than put the runner out of step.
bool has_configuration(const judge_wire::kernel_launch& launch) {
  for (int d = 0; d < 3; ++d)
    if (launch.grid[d] < 1 || launch.block[d] < 1) return false;
  return true;
}

// CUPTI's buffer callbacks are plain C functions without a user pointer, so the records they deliver
// can only land in process-wide state; cupti_timer guarantees a single owner.
std::mutex g_records_mutex;
std::vector<activity_record> g_records;
std::atomic<bool> g_timer_alive{false};

// The correlation ids of the API calls the harness made while enqueuing its marker kernel. The marker
// is known by these ids, never by its name: a learner kernel of the same name has other ids. The
// launch callback runs on the launching thread; only the harness's thread, while it enqueues the
// marker, sets this flag, so a learner's thread launching at the same moment is not mistaken for it.
thread_local bool t_enqueuing_marker = false;
std::mutex g_marker_mutex;
std::set<std::uint32_t> g_marker_ids;

void CUPTIAPI on_buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(record_buffer_alignment, record_buffer_bytes));
  *size = *buffer == nullptr ? 0 : record_buffer_bytes;
  *max_records = 0; // as many as fit
}

void CUPTIAPI on_buffer_completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t,
                                  std::size_t valid_bytes) {
  std::vector<activity_record> parsed;
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid_bytes, &record) == CUPTI_SUCCESS) {
    switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    case CUPTI_ACTIVITY_KIND_KERNEL: {
      const auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      parsed.push_back({kernel->start, kernel->end, kernel->streamId, kernel->correlationId, launch_of(*kernel)});
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
      const auto* copy = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
      parsed.push_back({copy->start, copy->end, copy->streamId, copy->correlationId, {}});
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
      const auto* set = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
      parsed.push_back({set->start, set->end, set->streamId, set->correlationId, {}});
      break;
    }
    default:
      break;
    }
  }
  std::free(buffer);
  const std::lock_guard<std::mutex> lock(g_records_mutex);
  g_records.insert(g_records.end(), parsed.begin(), parsed.end());
}

/// Keeps the correlation id of every runtime and driver API call the harness's thread makes while it
/// enqueues the marker (the kernel record carries the id of the runtime or of the driver launch call,
/// depending on how it was launched; both are kept).
void CUPTIAPI on_api_call(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void* data) {
  if (!t_enqueuing_marker) return;
  const auto* call = static_cast<const CUpti_CallbackData*>(data);
  if (call->callbackSite != CUPTI_API_ENTER || call->correlationId == 0) return;
  const std::lock_guard<std::mutex> lock(g_marker_mutex);
  g_marker_ids.insert(call->correlationId);
}

std::set<std::uint32_t> take_marker_ids() {
  const std::lock_guard<std::mutex> lock(g_marker_mutex);
  std::set<std::uint32_t> taken;
  taken.swap(g_marker_ids);
  return taken;
}

std::string cupti_reason(CUptiResult result) {
  const char* text = nullptr;
  if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS || text == nullptr)
    return "CUPTI error " + std::to_string(result);
  return text;
}

void check_cupti(CUptiResult result, const char* call) {
  if (result != CUPTI_SUCCESS) throw std::runtime_error(std::string(call) + " failed: " + cupti_reason(result));
}

// KERNEL rather than CONCURRENT_KERNEL. On GPUs before Blackwell, CUPTI takes CONCURRENT_KERNEL's
// timestamps by instrumenting the kernel's code, and that instrumentation costs every block: measured on the
// H200 (bench/timing_offset/timing-offset.py --rest, docs/timing.md), vector_add's one-float-per-thread kernel (65,536
// blocks) read 3.6 µs above Nsight Compute traced that way, 59.0 against 58.2 µs traced as KERNEL; a
// float4 kernel with a quarter of the blocks read within 1 µs either way. KERNEL's timestamps come from
// the kernel's boundaries, at the price of running a call's kernels one after another (as Nsight Compute
// does too): kernels a solution overlaps on several streams are timed back to back.
constexpr CUpti_ActivityKind traced_kinds[] = {CUPTI_ACTIVITY_KIND_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                               CUPTI_ACTIVITY_KIND_MEMSET};

void disable_traced_kinds() noexcept {
  for (CUpti_ActivityKind kind : traced_kinds) cuptiActivityDisable(kind);
}

constexpr CUpti_CallbackDomain api_domains[] = {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_CB_DOMAIN_DRIVER_API};

/// Turns the API callbacks on or off for `subscriber`; off except while the marker is enqueued, so that
/// the learner's own launches pay nothing for them.
void enable_api_callbacks(CUpti_SubscriberHandle subscriber, bool on) {
  for (CUpti_CallbackDomain domain : api_domains)
    check_cupti(cuptiEnableDomain(on ? 1 : 0, subscriber, domain), "cuptiEnableDomain");
}

std::vector<activity_record> take_records() {
  const std::lock_guard<std::mutex> lock(g_records_mutex);
  std::vector<activity_record> taken;
  taken.swap(g_records);
  return taken;
}

} // namespace

cupti_timer::cupti_timer() {
  if (g_timer_alive.exchange(true)) throw std::logic_error("cupti_timer: only one may exist per process");
  try {
    // CUPTI allows one callback subscriber per process: holding it also keeps anyone else from it.
    check_cupti(cuptiSubscribe(&m_subscriber, on_api_call, nullptr), "cuptiSubscribe");
    check_cupti(cuptiActivityRegisterCallbacks(on_buffer_requested, on_buffer_completed),
                "cuptiActivityRegisterCallbacks");
    for (CUpti_ActivityKind kind : traced_kinds) check_cupti(cuptiActivityEnable(kind), "cuptiActivityEnable");
  } catch (...) {
    disable_traced_kinds();
    if (m_subscriber != nullptr) cuptiUnsubscribe(m_subscriber);
    g_timer_alive = false;
    throw;
  }
}

cupti_timer::~cupti_timer() {
  disable_traced_kinds();
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  take_records();
  take_marker_ids();
  cuptiUnsubscribe(m_subscriber);
  g_timer_alive = false;
}

void cupti_timer::enqueue_marker() {
  enable_api_callbacks(m_subscriber, true);
  t_enqueuing_marker = true;
  try {
    enqueue_timing_marker(nullptr);
  } catch (...) {
    t_enqueuing_marker = false;
    enable_api_callbacks(m_subscriber, false);
    throw;
  }
  t_enqueuing_marker = false;
  enable_api_callbacks(m_subscriber, false);
}

std::uint64_t cupti_timer::now_ns() const {
  std::uint64_t now = 0;
  check_cupti(cuptiGetTimestamp(&now), "cuptiGetTimestamp");
  return now;
}

activity_span cupti_timer::measure(std::uint64_t begin_ns, std::uint64_t returned_ns, std::uint64_t end_ns) {
  // The device was synchronised before end_ns, so every record of the call is complete and a default
  // (not forced) flush delivers it.
  check_cupti(cuptiActivityFlushAll(0), "cuptiActivityFlushAll");
  const std::vector<activity_record> records = take_records();
  const std::set<std::uint32_t> marker_ids = take_marker_ids();
  const auto is_marker = [&marker_ids](const activity_record& r) { return marker_ids.count(r.correlation_id) != 0; };

  // The judge's own work (inputs, poison, L2 flush) had finished before begin_ns, since the device was
  // synchronised before it; a record that ends after begin_ns is therefore the call's, even if clock
  // conversion put its start a hair before begin_ns. Work that starts after end_ns is not the call's.
  // Among the judge's records, the latest one tells the id of the legacy stream it runs on.
  // With a marker (every timed call has one; known by the correlation id of the harness's own launch),
  // the window opens when the marker ended, on the GPU's
  // clock, the same clock as every other record: no host-to-GPU conversion error can let the judge's
  // own work in. Without one (the self-test at start-up), the host timestamps decide.
  std::uint64_t marker_end = 0;
  bool have_marker = false;
  for (const activity_record& r : records)
    if (is_marker(r) && r.start_ns != 0 && r.end_ns >= marker_end) {
      marker_end = r.end_ns;
      have_marker = true;
    }
  activity_span span;
  span.marker_seen = have_marker;
  std::uint64_t first_start = 0;
  std::uint64_t last_end = 0;
  std::uint64_t latest_judge_end = 0;
  std::uint32_t legacy_stream_id = 0;
  bool legacy_stream_known = false;
  for (const activity_record& r : records) {
    if (r.start_ns == 0 || r.end_ns < r.start_ns) continue; // no timestamps: CUPTI could not time it
    if (is_marker(r)) continue;
    const bool before_call = have_marker ? r.start_ns < marker_end : r.end_ns <= begin_ns;
    if (before_call) {
      if (r.end_ns >= latest_judge_end) {
        latest_judge_end = r.end_ns;
        legacy_stream_id = r.stream_id;
        legacy_stream_known = true;
      }
      continue;
    }
    if (r.start_ns >= end_ns) continue;
    first_start = span.records == 0 ? r.start_ns : std::min(first_start, r.start_ns);
    last_end = std::max(last_end, r.end_ns);
    ++span.records;
  }
  std::vector<const activity_record*> launches;
  for (const activity_record& r : records)
    if (!r.launch.name.empty() && has_configuration(r.launch) && !is_marker(r) && !judges_own(r.launch) &&
        r.start_ns != 0 && r.start_ns < end_ns && (have_marker ? r.start_ns >= marker_end : r.end_ns > begin_ns))
      launches.push_back(&r);
  // Records arrive per buffer, not in launch order.
  std::sort(launches.begin(), launches.end(),
            [](const activity_record* a, const activity_record* b) { return a->start_ns < b->start_ns; });
  for (const activity_record* r : launches) {
    if (span.kernels.size() == judge_wire::max_kernel_launches) break;
    if (std::find(span.kernels.begin(), span.kernels.end(), r->launch) == span.kernels.end())
      span.kernels.push_back(r->launch);
  }
  if (span.records > 0) span.gpu_ms = static_cast<double>(last_end - first_start) / 1e6;
  if (legacy_stream_known) {
    for (const activity_record& r : records)
      if (r.start_ns != 0 && r.end_ns > returned_ns && r.start_ns < end_ns && r.end_ns > begin_ns &&
          r.stream_id != legacy_stream_id)
        span.other_streams_after_return = true;
  }
  return span;
}

void cupti_timer::discard() {
  check_cupti(cuptiActivityFlushAll(0), "cuptiActivityFlushAll");
  take_records();
  take_marker_ids();
}

} // namespace judge_harness
