// libFuzzer target: a recording, as bytes a solution's process could have written, through the replaying
// runner's decoder (common/recorded_work_json.hpp) and its check before binding
// (harness/replay/recording_check.cpp), against a device described by plain data. Every input must end
// in a recording that passes or in one clear refusal (protocol_error, replay_refusal): a crash, a
// sanitizer report, another exception, a hang or an allocation past -rss_limit_mb is a finding.
// Built with clang++-14 -fsanitize=fuzzer,address,undefined by tests/CMakeLists.txt; the seed corpus is
// tests/data/recordings/ (recordings written by the recording runner on a GPU, and hand-made ones).
#include "common/wire_json.hpp"
#include "harness/replay/recording_check.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

const judge_harness::replay_device& fake_device() {
  static const judge_harness::replay_device device = [] {
    judge_harness::replay_device d;
    d.buffer_bytes = {4096, 1u << 20, 4u << 20};
    // Every kernel whose name starts with "_Z" exists, with a layout made from its name's length, so that
    // mutated names still reach the parameter and relocation checks.
    d.kernel = [](const std::string& name) -> std::optional<judge_harness::parameter_layout> {
      if (name.rfind("_Z", 0) != 0) return std::nullopt;
      judge_harness::parameter_layout layout;
      std::size_t offset = 0;
      for (std::size_t i = 0; i < name.size() % 9; ++i) {
        const std::size_t size = i % 3 == 2 ? 4 : 8;
        offset = (offset + size - 1) / size * size;
        layout.emplace_back(offset, size);
        offset += size;
      }
      return layout;
    };
    d.variable = [](const std::string& name) -> std::optional<std::uint64_t> {
      if (name.empty() || name.size() > 64) return std::nullopt;
      return static_cast<std::uint64_t>(name.size()) * 1024;
    };
    d.memory_bytes = 80ull << 30;
    return d;
  }();
  return device;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const judge_wire::recorded_work work = judge_wire::decode_recorded_work(text);
    judge_harness::check_recording(work, fake_device());
    for (const judge_wire::recorded_step& s : work.steps)
      if (const auto* l = std::get_if<judge_wire::recorded_launch>(&s)) (void)judge_harness::checked_attributes(*l);
    // What passed must survive the codec: the replaying runner reads what the recorder wrote.
    const judge_wire::recorded_work again = judge_wire::decode_recorded_work(judge_wire::encode_recorded_work(work));
    if (judge_wire::encode_recorded_work(again) != judge_wire::encode_recorded_work(work)) __builtin_trap();
  } catch (const judge_wire::protocol_error&) {
  } catch (const judge_harness::replay_refusal&) {
  }
  return 0;
}
