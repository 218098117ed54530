#include "catch.hpp"

#include "judge/grading/device_memo.hpp"
#include "judge/grading/device_memo_file.hpp"
#include "temp_folder.hpp"

using namespace judge;

namespace {
/// What the GPU probe prints for an H200, read by the probe's own reader.
probe_result h200(bool bandwidth) {
  return parse_probe_output(std::string("{\"device\": \"NVIDIA H200\", \"uuid\": \"GPU-1\", \"cc\": \"9.0\", ") +
                            "\"sms\": 132, \"l2_bytes\": 62914560" + (bandwidth ? ", \"copy_gbps\": 4000" : "") + "}");
}
} // namespace

TEST_CASE("a device memo with a file answers the next process from it, without probing", "[device_memo]") {
  judge_test::temp_folder folder("probe-memo");
  const auto file = folder / "device-probe.json";
  int calls = 0;
  const auto counting = [&](bool bandwidth) {
    ++calls;
    return h200(bandwidth);
  };
  {
    device_memo first(std::chrono::seconds(600), counting, file);
    first.probe(false);
    first.probe(true);
  }
  CHECK(calls == 2);
  device_memo second(std::chrono::seconds(600), counting, file);
  const probe_result plain = second.probe(false);
  const probe_result measured = second.probe(true);
  CHECK(calls == 2);
  REQUIRE(plain.device);
  CHECK(plain.device->uuid == "GPU-1");
  CHECK(plain.device->sms == 132);
  CHECK(plain.device->l2_bytes == 62914560);
  CHECK(plain.device->measured_bandwidth_gbps == 0);
  REQUIRE(measured.device);
  CHECK(measured.device->measured_bandwidth_gbps == 4000);
}

TEST_CASE("a kept probe answer is not read back when old, from another machine state, or garbled", "[device_memo]") {
  judge_test::temp_folder folder("probe-memo");
  const auto file = folder / "device-probe.json";
  keep_probe(file, true, h200(true), "boot-a|driver-1|0");
  CHECK(read_kept_probe(file, true, std::chrono::seconds(600), "boot-a|driver-1|0"));
  CHECK_FALSE(read_kept_probe(file, false, std::chrono::seconds(600), "boot-a|driver-1|0")); // never asked
  CHECK_FALSE(read_kept_probe(file, true, std::chrono::seconds(600), "boot-b|driver-1|0"));  // rebooted
  CHECK_FALSE(read_kept_probe(file, true, std::chrono::seconds(600), "boot-a|driver-1|1"));  // other GPUs visible
  CHECK_FALSE(read_kept_probe(file, true, std::chrono::seconds(0), "boot-a|driver-1|0"));    // too old
  folder.write("device-probe.json", "{\"machine\": \"boot-a|driver-1|0\", \"with_bandwidth\": 7}");
  CHECK_FALSE(read_kept_probe(file, true, std::chrono::seconds(600), "boot-a|driver-1|0"));
  folder.write("device-probe.json", "not json");
  CHECK_FALSE(read_kept_probe(file, true, std::chrono::seconds(600), "boot-a|driver-1|0"));
}

TEST_CASE("a probe that found no device is not kept in the file", "[device_memo]") {
  judge_test::temp_folder folder("probe-memo");
  const auto file = folder / "device-probe.json";
  keep_probe(file, false, probe_result{std::nullopt, true, "no CUDA device"}, "k");
  CHECK_FALSE(std::filesystem::exists(file));
}
