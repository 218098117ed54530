// The replaying runner's check of a recording (harness/replay/recording_check.cpp), without a GPU: a
// device described by plain data, recordings as the recorder writes them, and each field forged the way
// a solution that rewrites its recording would.
#include "catch.hpp"
#include "text_match.hpp"

#include "harness/replay/recording_check.hpp"

#include <cuda.h>

#include <cstring>
#include <map>

using judge_test::contains;
using namespace judge_wire;
using judge_harness::check_recording;
using judge_harness::checked_attributes;
using judge_harness::replay_device;
using judge_harness::replay_refusal;

namespace {

const std::string kernel = "_Z6matmulPKfS0_Pfiii";

replay_device device() {
  replay_device d;
  d.buffer_bytes = {4096, 4096, 4096};
  d.kernel = [](const std::string& name) -> std::optional<judge_harness::parameter_layout> {
    if (name != kernel) return std::nullopt;
    return judge_harness::parameter_layout{{0, 8}, {8, 8}, {16, 8}, {24, 4}, {28, 4}, {32, 4}};
  };
  d.variable = [](const std::string& name) -> std::optional<std::uint64_t> {
    if (name == "table") return 2u << 20;
    return std::nullopt;
  };
  d.memory_bytes = 1ull << 30;
  return d;
}

recorded_launch launch() {
  recorded_launch l;
  l.kernel = kernel;
  l.grid[0] = 32;
  l.block[0] = 256;
  l.parameters = std::string(36, '\0');
  l.relocations = {{0, {region_kind::buffer, 0, "", 0}}, {8, {region_kind::buffer, 1, "", 0}},
                   {16, {region_kind::buffer, 2, "", 0}}};
  return l;
}

/// What the recorder writes for a solution with a 2 MiB table built on its first call, a workspace and
/// a cluster launch.
recorded_work honest() {
  recorded_work w;
  w.allocations.push_back({1u << 20});
  recorded_copy table;
  table.direction = copy_direction::host_to_device;
  table.target = device_address{region_kind::global, 0, "table", 0};
  table.bytes = 2u << 20;
  table.host_bytes = std::string(table.bytes, '\x01');
  w.preamble.push_back(table);
  w.preamble.push_back(recorded_function_attribute{kernel, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 98304});
  recorded_launch l = launch();
  std::string cluster(64, '\0');
  const std::uint32_t dims[3] = {2, 1, 1};
  std::memcpy(cluster.data(), dims, sizeof dims);
  l.attributes.push_back({CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, cluster});
  w.steps.push_back(l);
  w.steps.push_back(recorded_memset_2d{{region_kind::allocation, 0, "", 0}, 0, 1024, 1000, 1024});
  recorded_copy down;
  down.direction = copy_direction::device_to_host;
  down.source = device_address{region_kind::buffer, 2, "", 0};
  down.bytes = 4096;
  w.steps.push_back(down);
  w.limits.malloc_heap_bytes = 64u << 20;
  return w;
}

/// The refusal `work` gets: its status and message; status ok when it passes.
std::pair<call_status, std::string> refusal_of(const recorded_work& work) {
  try {
    check_recording(work, device());
  } catch (const replay_refusal& r) {
    return {r.status(), r.what()};
  }
  return {call_status::ok, ""};
}

} // namespace

TEST_CASE("a recording the recorder writes for honest code passes", "[replay]") {
  CHECK(refusal_of(honest()).first == call_status::ok);
}

TEST_CASE("work before the timed window is refused: restoration only", "[replay]") {
  SECTION("a launch") {
    recorded_work w = honest();
    w.preamble.push_back(launch());
    const auto [status, why] = refusal_of(w);
    CHECK(status == call_status::invalid_recording);
    CHECK(contains(why, "restoration step 3 does device work before the timed window"));
  }
  SECTION("a copy on the device") {
    recorded_work w = honest();
    recorded_copy c;
    c.direction = copy_direction::device_to_device;
    c.target = device_address{region_kind::buffer, 2, "", 0};
    c.source = device_address{region_kind::buffer, 0, "", 0};
    c.bytes = 4096;
    w.preamble.insert(w.preamble.begin(), c);
    CHECK(refusal_of(w).first == call_status::invalid_recording);
  }
  SECTION("a memset") {
    recorded_work w = honest();
    w.preamble.push_back(recorded_memset{{region_kind::allocation, 0, "", 0}, 0, 16});
    CHECK(refusal_of(w).first == call_status::invalid_recording);
  }
  SECTION("a write into the judge's buffers") {
    recorded_work w = honest();
    auto c = std::get<recorded_copy>(w.preamble[0]);
    c.target = device_address{region_kind::buffer, 2, "", 0};
    c.bytes = 16;
    c.host_bytes = std::string(16, '\0');
    w.preamble.push_back(c);
    CHECK(contains(refusal_of(w).second, "writes one of the judge's buffers before the timed window"));
  }
}

TEST_CASE("forged sizes and offsets are refused before any CUDA call", "[replay]") {
  SECTION("a copy to the host larger than its source") {
    recorded_work w = honest();
    std::get<recorded_copy>(w.steps[2]).bytes = 1u << 20;
    const auto [status, why] = refusal_of(w);
    CHECK(status == call_status::invalid_recording);
    CHECK(contains(why, "reaches outside buffer 2 of 4096 bytes"));
  }
  SECTION("a negative offset") {
    recorded_work w = honest();
    std::get<recorded_copy>(w.steps[2]).source->offset = -8;
    CHECK(refusal_of(w).first == call_status::invalid_recording);
  }
  SECTION("an offset that wraps") {
    recorded_work w = honest();
    std::get<recorded_copy>(w.steps[2]).source->offset = 4096;
    std::get<recorded_copy>(w.steps[2]).bytes = std::numeric_limits<std::uint64_t>::max() - 10;
    CHECK(refusal_of(w).first == call_status::invalid_recording);
  }
  SECTION("a 2D memset past its allocation") {
    recorded_work w = honest();
    std::get<recorded_memset_2d>(w.steps[1]).height = 1025;
    CHECK(contains(refusal_of(w).second, "reaches outside allocation 0"));
  }
  SECTION("a pointer far outside a buffer's guards") {
    recorded_work w = honest();
    std::get<recorded_launch>(w.steps[0]).relocations[0].target.offset = 1 << 20;
    CHECK(contains(refusal_of(w).second, "points 1048576 bytes into buffer 0"));
  }
  SECTION("a pointer slot inside no parameter") {
    recorded_work w = honest();
    std::get<recorded_launch>(w.steps[0]).relocations.push_back({24, {region_kind::buffer, 0, "", 0}});
    CHECK(contains(refusal_of(w).second, "which is no 8-byte slot of a parameter"));
  }
  SECTION("a parameter block of another size than the kernel takes") {
    recorded_work w = honest();
    std::get<recorded_launch>(w.steps[0]).parameters += "xxxx";
    CHECK(contains(refusal_of(w).second, "passes 40 bytes of parameters"));
  }
  SECTION("a buffer the case does not have") {
    recorded_work w = honest();
    std::get<recorded_copy>(w.steps[2]).source->index = 3;
    CHECK(contains(refusal_of(w).second, "names buffer 3 of 3"));
  }
  SECTION("launch dimensions beyond CUDA's") {
    recorded_work w = honest();
    std::get<recorded_launch>(w.steps[0]).block[0] = 2048;
    CHECK(refusal_of(w).first == call_status::invalid_recording);
    std::get<recorded_launch>(w.steps[0]).block[0] = 64;
    std::get<recorded_launch>(w.steps[0]).block[1] = 32;
    CHECK(contains(refusal_of(w).second, "more than 1024 threads"));
  }
  SECTION("dynamic shared memory beyond a block's") {
    recorded_work w = honest();
    std::get<recorded_launch>(w.steps[0]).shared_bytes = 1u << 30;
    CHECK(refusal_of(w).first == call_status::invalid_recording);
  }
}

TEST_CASE("launch and function attributes the recorder never writes are refused", "[replay]") {
  SECTION("a completion event with an arbitrary handle") {
    recorded_work w = honest();
    std::get<recorded_launch>(w.steps[0]).attributes.push_back(
        {CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT, std::string(16, '\x41')});
    const auto [status, why] = refusal_of(w);
    CHECK(status == call_status::invalid_recording);
    CHECK(contains(why, "sets launch attribute 12"));
  }
  SECTION("a programmatic event") {
    recorded_work w = honest();
    std::get<recorded_launch>(w.steps[0]).attributes.push_back({CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT, "x"});
    CHECK(refusal_of(w).first == call_status::invalid_recording);
  }
  SECTION("a cluster of no blocks") {
    recorded_work w = honest();
    std::get<recorded_launch>(w.steps[0]).attributes[0].value = std::string(64, '\0');
    CHECK(contains(refusal_of(w).second, "cluster extent of 0"));
  }
  SECTION("an attribute set twice") {
    recorded_work w = honest();
    auto& l = std::get<recorded_launch>(w.steps[0]);
    l.attributes.push_back(l.attributes[0]);
    CHECK(contains(refusal_of(w).second, "twice"));
  }
  SECTION("a function attribute that cannot be set") {
    recorded_work w = honest();
    std::get<recorded_function_attribute>(w.preamble[1]).attribute = CU_FUNC_ATTRIBUTE_NUM_REGS;
    CHECK(contains(refusal_of(w).second, "sets function attribute 4"));
  }
}

TEST_CASE("what the device lacks is not replayable or another's kernel, not a forgery", "[replay]") {
  SECTION("a library's kernel") {
    recorded_work w = honest();
    std::get<recorded_launch>(w.steps[0]).kernel = "cutlass_kernel";
    CHECK(refusal_of(w).first == call_status::foreign_kernel);
  }
  SECTION("more memory than the device has") {
    recorded_work w = honest();
    w.allocations.push_back({2ull << 30});
    const auto [status, why] = refusal_of(w);
    CHECK(status == call_status::not_replayable);
    CHECK(contains(why, "than the device has"));
  }
  SECTION("a device variable the code does not define") {
    recorded_work w = honest();
    std::get<recorded_copy>(w.preamble[0]).target->global = "other";
    CHECK(refusal_of(w).first == call_status::not_replayable);
  }
}

TEST_CASE("a launch attribute is rebuilt from the fields its id means", "[replay]") {
  recorded_launch l = launch();
  std::string cooperative(64, '\x7f'); // the rest of the solution's union: whatever its stack held
  l.attributes.push_back({CU_LAUNCH_ATTRIBUTE_COOPERATIVE, cooperative});
  const auto rebuilt = checked_attributes(l);
  REQUIRE(rebuilt.size() == 1);
  std::uint32_t yes = 0;
  std::memcpy(&yes, rebuilt[0].value.data(), sizeof yes);
  CHECK(yes == 1);
  for (std::size_t i = 4; i < rebuilt[0].value.size(); ++i) CHECK(rebuilt[0].value[i] == 0);
}
