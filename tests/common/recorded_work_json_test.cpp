// The codec of recorded device work (common/recorded_work.hpp): what a recording runner writes and the
// replaying runner reads. A recording comes from a process that runs learner code, so the decoder is the
// first check of a hostile one: it must refuse what would make the replaying runner touch memory the
// recording does not name.
#include "catch.hpp"
#include "text_match.hpp"

#include "common/wire_json.hpp"

#include <string>

using judge_test::contains;
using namespace judge_wire;

namespace {

recorded_work sample_work() {
  recorded_work w;
  w.allocations.push_back({4096});
  recorded_launch launch;
  launch.kernel = "_Z6matmulPKfS0_Pfiii";
  launch.grid[0] = 32;
  launch.block[0] = 256;
  launch.shared_bytes = 49152;
  launch.attributes.push_back({4, std::string("\x02\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00\x00", 12)});
  launch.parameters = std::string(24, '\0') + std::string("\x00\x04\x00\x00", 4);
  launch.relocations.push_back({0, {region_kind::buffer, 0, "", 0}});
  launch.relocations.push_back({8, {region_kind::allocation, 0, "", 128}});
  launch.relocations.push_back({16, {region_kind::global, 0, "c_weights", -4}});
  w.steps.push_back(launch);
  w.steps.push_back(recorded_memset{{region_kind::allocation, 0, "", 0}, 0, 4096});
  recorded_copy up;
  up.direction = copy_direction::host_to_device;
  up.target = device_address{region_kind::global, 0, "c_weights", 0};
  up.bytes = 3;
  up.host_bytes = std::string("\x01\xff\x00", 3);
  w.steps.push_back(up);
  recorded_copy down;
  down.direction = copy_direction::device_to_host;
  down.source = device_address{region_kind::buffer, 2, "", 0};
  down.bytes = 64;
  w.steps.push_back(down);
  w.preamble.push_back(recorded_function_attribute{"_Z6matmulPKfS0_Pfiii", 8, 98304});
  w.reads_back_before_more_work = true;
  return w;
}

/// The message of what `f` throws, or "" when it throws nothing.
template <typename F> std::string error_of(F f) {
  try {
    f();
  } catch (const protocol_error& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST_CASE("recorded work survives the codec byte for byte", "[wire]") {
  const recorded_work w = sample_work();
  const recorded_work back = decode_recorded_work(encode_recorded_work(w));
  CHECK(encode_recorded_work(back) == encode_recorded_work(w));
  REQUIRE(back.steps.size() == 4);
  const auto& launch = std::get<recorded_launch>(back.steps[0]);
  CHECK(launch.parameters == std::get<recorded_launch>(w.steps[0]).parameters);
  CHECK(launch.relocations.at(2).target.global == "c_weights");
  CHECK(launch.relocations.at(2).target.offset == -4);
  CHECK(std::get<recorded_copy>(back.steps[2]).host_bytes == std::string("\x01\xff\x00", 3));
  CHECK(back.reads_back_before_more_work);
  CHECK(std::get<recorded_function_attribute>(back.preamble.at(0)).value == 98304);
}

TEST_CASE("a recording that names memory it does not have is refused with the field", "[wire]") {
  const auto refused = [](const recorded_work& w) {
    try {
      decode_recorded_work(encode_recorded_work(w));
    } catch (const protocol_error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  SECTION("an allocation that does not exist") {
    recorded_work w = sample_work();
    std::get<recorded_memset>(w.steps[1]).target.index = 7;
    CHECK(contains(refused(w), "recorded work field steps[1].target.index: names allocation 7 of 1"));
  }
  SECTION("a pointer slot outside the parameter block") {
    recorded_work w = sample_work();
    std::get<recorded_launch>(w.steps[0]).relocations[0].at = 32;
    CHECK(contains(refused(w), "must be an 8-byte slot inside the block"));
  }
  SECTION("a slot named twice") {
    recorded_work w = sample_work();
    std::get<recorded_launch>(w.steps[0]).relocations[1].at = 0;
    CHECK(contains(refused(w), "names a slot twice"));
  }
  SECTION("host data of another length than the copy") {
    recorded_work w = sample_work();
    std::get<recorded_copy>(w.steps[2]).bytes = 4;
    CHECK(contains(refused(w), "host_bytes: must hold exactly `bytes` bytes"));
  }
  SECTION("a copy to the host with no source") {
    recorded_work w = sample_work();
    std::get<recorded_copy>(w.steps[3]).source.reset();
    CHECK(contains(refused(w), "steps[3].source: missing"));
  }
  SECTION("a global without its name") {
    recorded_work w = sample_work();
    std::get<recorded_copy>(w.steps[2]).target->global = "";
    CHECK(contains(refused(w), "must name the variable"));
  }
}

TEST_CASE("a number no double holds is a protocol error, not an escaping exception", "[wire]") {
  // Found by the recording fuzz target: nlohmann's parser throws out_of_range, not parse_error, for it.
  CHECK(contains(error_of([] { decode_recorded_work("{\"allocations\":[{\"bytes\":5e6563}]}"); }),
                 "not valid JSON"));
}

TEST_CASE("bytes that are not hex are refused", "[wire]") {
  std::string text = encode_recorded_work(sample_work());
  const std::string field = "\"host_bytes\":\"01ff00\"";
  REQUIRE(text.find(field) != std::string::npos);
  text.replace(text.find(field), field.size(), "\"host_bytes\":\"01FG00\"");
  CHECK(contains(error_of([&] { decode_recorded_work(text); }), "must be lowercase hex digits"));
}

TEST_CASE("a timing request names its recording file, never with checks, and only a plain name", "[wire]") {
  case_request c;
  c.name = "n_100";
  c.buffers = {{"C", buffer_role::output, 100, std::nullopt, std::nullopt}};
  c.timing = timing_spec{};
  c.replay_file = "replay.0.record.json";
  const request back = decode_request(encode(c));
  CHECK(std::get<case_request>(back).replay_file == std::string("replay.0.record.json"));

  case_request with_checks = c;
  with_checks.checks.push_back({1, poison_kind::nan, {"0.0.C.bin"}, std::nullopt});
  CHECK(contains(error_of([&] { decode_request(encode(with_checks)); }), "never with checks"));
  case_request untimed = c;
  untimed.timing.reset();
  CHECK(contains(error_of([&] { decode_request(encode(untimed)); }), "goes with timing"));
  case_request elsewhere = c;
  elsewhere.replay_file = "../0.record.json";
  CHECK(contains(error_of([&] { decode_request(encode(elsewhere)); }), "must be a plain file name"));
}

TEST_CASE("device limits, 2D memsets and uncarried state survive the codec", "[wire]") {
  recorded_work w = sample_work();
  w.limits.malloc_heap_bytes = 256u << 20;
  w.steps.push_back(recorded_memset_2d{{region_kind::allocation, 0, "", 0}, 7, 512, 500, 8});
  w.uncarried.push_back({"an allocation of an earlier call", 64u << 20});
  const recorded_work back = decode_recorded_work(encode_recorded_work(w));
  CHECK(encode_recorded_work(back) == encode_recorded_work(w));
  CHECK(back.limits.malloc_heap_bytes == std::optional<std::uint64_t>(256u << 20));
  CHECK_FALSE(back.limits.stack_bytes);
  CHECK(std::get<recorded_memset_2d>(back.steps.back()).pitch == 512);
  CHECK(back.uncarried.at(0).bytes == (64u << 20));

  recorded_work huge = sample_work();
  huge.limits.stack_bytes = 1ull << 40;
  CHECK(contains(error_of([&] { decode_recorded_work(encode_recorded_work(huge)); }), "limits.stack_bytes"));
}

TEST_CASE("a check may name a recording file, which no output may share", "[wire]") {
  case_request c;
  c.name = "n_100";
  c.buffers = {{"C", buffer_role::output, 100, std::nullopt, std::nullopt}};
  c.checks.push_back({1, poison_kind::nan, {"0.0.C.bin"}, std::string("0.record.json")});
  const request back = decode_request(encode(c));
  CHECK(std::get<case_request>(back).checks.at(0).record_file == std::string("0.record.json"));
  c.checks[0].record_file = "0.0.C.bin";
  CHECK(contains(error_of([&] { decode_request(encode(c)); }), "names \"0.0.C.bin\" twice"));
  c.checks[0].record_file = "../secret";
  CHECK(contains(error_of([&] { decode_request(encode(c)); }), "must be a plain file name"));
}
