#include "catch.hpp"

#include "judge/grading/device_memo.hpp"

#include <thread>

using namespace judge;

namespace {
probe_result h200(bool bandwidth) {
  device_info d;
  d.name = "NVIDIA H200";
  d.uuid = "GPU-1";
  if (bandwidth) d.measured_bandwidth_gbps = 4000;
  return probe_result{d, false, ""};
}
} // namespace

TEST_CASE("a device memo probes each question once while its answer is young", "[device_memo]") {
  int plain = 0, measured = 0;
  device_memo memo(std::chrono::seconds(60), [&](bool bandwidth) {
    ++(bandwidth ? measured : plain);
    return h200(bandwidth);
  });
  CHECK(memo.probe(false).device->name == "NVIDIA H200");
  CHECK(memo.probe(false).device->uuid == "GPU-1");
  CHECK(memo.probe(true).device->measured_bandwidth_gbps == 4000);
  CHECK(memo.probe(true).device);
  CHECK(plain == 1);
  CHECK(measured == 1);
}

TEST_CASE("a device memo probes again once its answer is older than its age limit", "[device_memo]") {
  int calls = 0;
  device_memo memo(std::chrono::seconds(0), [&](bool bandwidth) {
    ++calls;
    return h200(bandwidth);
  });
  memo.probe(false);
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  memo.probe(false);
  CHECK(calls == 2);
}

TEST_CASE("a device memo keeps a clean no-device answer but not a failed probe", "[device_memo]") {
  int calls = 0;
  bool fail = true;
  device_memo memo(std::chrono::seconds(60), [&](bool) {
    ++calls;
    return fail ? probe_result{std::nullopt, false, "the probe crashed"}
                : probe_result{std::nullopt, true, "no CUDA device"};
  });
  CHECK(memo.probe(false).error == "the probe crashed");
  CHECK(memo.probe(false).error == "the probe crashed");
  CHECK(calls == 2); // a failure is asked again
  fail = false;
  CHECK(memo.probe(false).no_device);
  CHECK(memo.probe(false).no_device);
  CHECK(calls == 3);
}
