// The codec of common/recorded_work.hpp, in the style of the rest of the runner protocol's codec:
// strict, every field written, an error names the field. Bytes travel as lowercase hex (hex.hpp). This file is a
// part of common/wire_json.hpp, included there after the readers it uses; include wire_json.hpp.
#pragma once

#ifndef JUDGE_WIRE_JSON_READERS
#error "include wire_json.hpp, not recorded_work_json.hpp"
#endif

namespace judge_wire {
namespace detail {

/// A reader of hex text holding at most `max_bytes` bytes.
inline auto hex_bytes(std::uint64_t max_bytes) {
  return [max_bytes](const json& v, const where& w) {
    const std::string text = read_string(v, w);
    if (text.size() % 2 != 0) fail(w, "must be hex digits in pairs");
    if (text.size() / 2 > max_bytes) fail(w, "holds more than " + std::to_string(max_bytes) + " bytes");
    std::optional<std::string> bytes = judge_hex::decode(text);
    if (!bytes) fail(w, "must be lowercase hex digits");
    return *bytes;
  };
}

inline std::uint64_t read_unsigned(const json& v, const where& w) {
  return static_cast<std::uint64_t>(read_count(v, w));
}

inline device_address read_device_address(const json& v, const where& w) {
  const object_reader r(v, w);
  device_address a;
  a.kind = r.get("kind", read_name<region_kind>);
  a.index = r.get("index", integer_in(0, static_cast<std::int64_t>(recording_limits::max_allocations)));
  a.global = r.get("global", read_string);
  a.offset = r.get("offset", integer_in(std::numeric_limits<std::int64_t>::min() / 2,
                                        std::numeric_limits<std::int64_t>::max() / 2));
  if (a.kind == region_kind::global && a.global.empty()) fail(w.at("global"), "must name the variable");
  if (a.kind != region_kind::global && !a.global.empty()) fail(w.at("global"), "must be empty but for globals");
  return a;
}

/// Relocations of a block of `size` bytes: each 8-byte slot inside it, once.
inline std::vector<relocation> read_relocations(const json& v, const where& w, std::size_t size) {
  const std::vector<relocation> list = array_of([](const json& e, const where& ew) {
    const object_reader r(e, ew);
    return relocation{r.get("at", read_unsigned), r.get("target", read_device_address)};
  })(v, w);
  std::vector<std::uint64_t> seen;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::uint64_t at = list[i].at;
    if (at % 8 != 0 || at + 8 > size) fail(w.at(i).at("at"), "must be an 8-byte slot inside the block");
    if (std::find(seen.begin(), seen.end(), at) != seen.end()) fail(w.at(i).at("at"), "names a slot twice");
    seen.push_back(at);
  }
  return list;
}

inline recorded_launch read_recorded_launch(const object_reader& r) {
  recorded_launch l;
  l.kernel = r.get("kernel", read_string);
  if (l.kernel.empty()) fail(r.place().at("kernel"), "must name the kernel");
  const auto dims = [&r](const char* key, std::uint32_t (&out)[3]) {
    const std::vector<std::int64_t> e = r.get(key, array_of(integer_in(1, std::numeric_limits<std::int32_t>::max())));
    if (e.size() != 3) fail(r.place().at(key), "must have three extents (x, y, z)");
    for (int d = 0; d < 3; ++d) out[d] = static_cast<std::uint32_t>(e[static_cast<std::size_t>(d)]);
  };
  dims("grid", l.grid);
  dims("block", l.block);
  l.shared_bytes = r.get("shared_bytes", read_unsigned);
  l.attributes = r.get("attributes", array_of([](const json& e, const where& ew) {
    const object_reader a(e, ew);
    return launch_attribute{static_cast<int>(a.get("id", integer_in(0, 1 << 20))),
                            a.get("value", hex_bytes(recording_limits::max_attribute_bytes))};
  }));
  l.parameters = r.get("parameters", hex_bytes(recording_limits::max_parameter_bytes));
  l.relocations = read_relocations(r.field("relocations"), r.place().at("relocations"), l.parameters.size());
  return l;
}

inline recorded_memset read_recorded_memset(const object_reader& r) {
  recorded_memset m;
  m.target = r.get("target", read_device_address);
  m.value = static_cast<int>(r.get("value", integer_in(INT_MIN, INT_MAX)));
  m.bytes = r.get("bytes", read_unsigned);
  return m;
}

inline recorded_copy read_recorded_copy(const object_reader& r) {
  recorded_copy c;
  c.direction = r.get("direction", read_name<copy_direction>);
  c.target = r.get("target", nullable(read_device_address));
  c.source = r.get("source", nullable(read_device_address));
  c.bytes = r.get("bytes", read_unsigned);
  c.host_bytes = r.get("host_bytes", hex_bytes(recording_limits::max_host_bytes));
  c.relocations = read_relocations(r.field("relocations"), r.place().at("relocations"), c.host_bytes.size());
  const bool to_device = c.direction != copy_direction::device_to_host;
  const bool from_device = c.direction != copy_direction::host_to_device;
  if (to_device != c.target.has_value()) fail(r.place().at("target"), to_device ? "missing" : "must be null");
  if (from_device != c.source.has_value()) fail(r.place().at("source"), from_device ? "missing" : "must be null");
  if (c.direction == copy_direction::host_to_device && c.host_bytes.size() != c.bytes)
    fail(r.place().at("host_bytes"), "must hold exactly `bytes` bytes");
  if (c.direction != copy_direction::host_to_device && !c.host_bytes.empty())
    fail(r.place().at("host_bytes"), "must be empty but for host to device copies");
  return c;
}

inline recorded_memset_2d read_recorded_memset_2d(const object_reader& r) {
  recorded_memset_2d m;
  m.target = r.get("target", read_device_address);
  m.value = static_cast<int>(r.get("value", integer_in(INT_MIN, INT_MAX)));
  m.pitch = r.get("pitch", read_unsigned);
  m.width = r.get("width", read_unsigned);
  m.height = r.get("height", read_unsigned);
  if (m.width > m.pitch && m.height > 1) fail(r.place().at("width"), "must not exceed the pitch");
  return m;
}

inline recorded_function_attribute read_recorded_function_attribute(const object_reader& r) {
  recorded_function_attribute a;
  a.kernel = r.get("kernel", read_string);
  a.attribute = static_cast<int>(r.get("attribute", integer_in(-1, 1 << 20)));
  a.value = static_cast<int>(r.get("value", integer_in(INT_MIN, INT_MAX)));
  return a;
}

inline recorded_step read_recorded_step(const json& v, const where& w) {
  const object_reader r(v, w);
  const std::string step = r.get("step", read_string);
  if (step == "launch") return read_recorded_launch(r);
  if (step == "memset") return read_recorded_memset(r);
  if (step == "copy") return read_recorded_copy(r);
  if (step == "function_attribute") return read_recorded_function_attribute(r);
  if (step == "memset_2d") return read_recorded_memset_2d(r);
  fail(w.at("step"), "must be launch, memset, memset_2d, copy or function_attribute, not \"" + step + "\"");
}

inline recorded_work read_recorded_work(const json& v, const where& w) {
  const object_reader r(v, w);
  recorded_work work;
  work.allocations = r.get("allocations", array_of([](const json& e, const where& ew) {
    const object_reader a(e, ew);
    return recorded_allocation{a.get("bytes", read_unsigned)};
  }));
  work.preamble = r.get("preamble", array_of(read_recorded_step));
  work.steps = r.get("steps", array_of(read_recorded_step));
  work.reads_back_before_more_work = r.get("reads_back_before_more_work", read_bool);
  {
    const object_reader l(r.field("limits"), w.at("limits"));
    const auto limit = nullable(integer_in(0, static_cast<std::int64_t>(recording_limits::max_device_limit_bytes)));
    const auto as_bytes = [](std::optional<std::int64_t> v) {
      return v ? std::optional<std::uint64_t>(static_cast<std::uint64_t>(*v)) : std::nullopt;
    };
    work.limits.malloc_heap_bytes = as_bytes(l.get("malloc_heap_bytes", limit));
    work.limits.stack_bytes = as_bytes(l.get("stack_bytes", limit));
    work.limits.printf_fifo_bytes = as_bytes(l.get("printf_fifo_bytes", limit));
  }
  work.uncarried = r.get("uncarried", array_of([](const json& e, const where& ew) {
    const object_reader u(e, ew);
    uncarried_state state{u.get("what", read_string), u.get("bytes", read_unsigned)};
    if (state.what.empty() || state.what.size() > 256) fail(ew.at("what"), "must name the state in 1 to 256 characters");
    return state;
  }));
  if (work.uncarried.size() > recording_limits::max_uncarried)
    fail(w.at("uncarried"), "more than " + std::to_string(recording_limits::max_uncarried) + " entries");
  if (work.allocations.size() > recording_limits::max_allocations)
    fail(w.at("allocations"), "more than " + std::to_string(recording_limits::max_allocations) + " allocations");
  if (work.steps.size() + work.preamble.size() > recording_limits::max_steps)
    fail(w.at("steps"), "more than " + std::to_string(recording_limits::max_steps) + " steps");
  std::uint64_t host_bytes = 0;
  for (const auto* list : {&work.preamble, &work.steps})
    for (const recorded_step& s : *list)
      if (const auto* c = std::get_if<recorded_copy>(&s)) host_bytes += c->host_bytes.size();
  if (host_bytes > recording_limits::max_host_bytes)
    fail(w.at("steps"), "copies more than " + std::to_string(recording_limits::max_host_bytes) + " bytes from the host");
  // Every reference to an allocation must name one that exists; buffers are checked against the case.
  const auto check_address = [&](const device_address& a, const where& aw) {
    if (a.kind == region_kind::allocation && static_cast<std::size_t>(a.index) >= work.allocations.size())
      fail(aw.at("index"), "names allocation " + std::to_string(a.index) + " of " +
                               std::to_string(work.allocations.size()));
  };
  const auto check_steps = [&](const std::vector<recorded_step>& list, const char* key) {
  for (std::size_t i = 0; i < list.size(); ++i) {
    const where sw = w.at(key).at(i);
    std::visit(
        [&](const auto& s) {
          using T = std::decay_t<decltype(s)>;
          if constexpr (std::is_same_v<T, recorded_launch>) {
            for (std::size_t k = 0; k < s.relocations.size(); ++k)
              check_address(s.relocations[k].target, sw.at("relocations").at(k).at("target"));
          } else if constexpr (std::is_same_v<T, recorded_memset> || std::is_same_v<T, recorded_memset_2d>) {
            check_address(s.target, sw.at("target"));
          } else if constexpr (std::is_same_v<T, recorded_copy>) {
            if (s.target) check_address(*s.target, sw.at("target"));
            if (s.source) check_address(*s.source, sw.at("source"));
            for (std::size_t k = 0; k < s.relocations.size(); ++k)
              check_address(s.relocations[k].target, sw.at("relocations").at(k).at("target"));
          }
        },
        list[i]);
  }
  };
  check_steps(work.preamble, "preamble");
  check_steps(work.steps, "steps");
  return work;
}

inline json device_address_json(const device_address& a) {
  return {{"kind", to_string(a.kind)}, {"index", a.index}, {"global", a.global}, {"offset", a.offset}};
}

inline json relocations_json(const std::vector<relocation>& list) {
  json out = json::array();
  for (const relocation& r : list) out.push_back({{"at", r.at}, {"target", device_address_json(r.target)}});
  return out;
}

inline json recorded_step_json(const recorded_step& step) {
  return std::visit(
      [](const auto& s) -> json {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, recorded_launch>) {
          json attributes = json::array();
          for (const launch_attribute& a : s.attributes)
            attributes.push_back({{"id", a.id}, {"value", judge_hex::encode(a.value)}});
          return {{"step", "launch"},
                  {"kernel", s.kernel},
                  {"grid", {s.grid[0], s.grid[1], s.grid[2]}},
                  {"block", {s.block[0], s.block[1], s.block[2]}},
                  {"shared_bytes", s.shared_bytes},
                  {"attributes", std::move(attributes)},
                  {"parameters", judge_hex::encode(s.parameters)},
                  {"relocations", relocations_json(s.relocations)}};
        } else if constexpr (std::is_same_v<T, recorded_memset>) {
          return {{"step", "memset"}, {"target", device_address_json(s.target)}, {"value", s.value}, {"bytes", s.bytes}};
        } else if constexpr (std::is_same_v<T, recorded_copy>) {
          return {{"step", "copy"},
                  {"direction", to_string(s.direction)},
                  {"target", s.target ? device_address_json(*s.target) : json(nullptr)},
                  {"source", s.source ? device_address_json(*s.source) : json(nullptr)},
                  {"bytes", s.bytes},
                  {"host_bytes", judge_hex::encode(s.host_bytes)},
                  {"relocations", relocations_json(s.relocations)}};
        } else if constexpr (std::is_same_v<T, recorded_memset_2d>) {
          return {{"step", "memset_2d"}, {"target", device_address_json(s.target)}, {"value", s.value},
                  {"pitch", s.pitch},    {"width", s.width},                        {"height", s.height}};
        } else {
          return {{"step", "function_attribute"}, {"kernel", s.kernel}, {"attribute", s.attribute}, {"value", s.value}};
        }
      },
      step);
}

inline json recorded_work_json(const recorded_work& work) {
  json allocations = json::array();
  for (const recorded_allocation& a : work.allocations) allocations.push_back({{"bytes", a.bytes}});
  json preamble = json::array();
  for (const recorded_step& s : work.preamble) preamble.push_back(recorded_step_json(s));
  json steps = json::array();
  for (const recorded_step& s : work.steps) steps.push_back(recorded_step_json(s));
  const auto limit = [](const std::optional<std::uint64_t>& v) { return v ? json(*v) : json(nullptr); };
  json uncarried = json::array();
  for (const uncarried_state& u : work.uncarried) uncarried.push_back({{"what", u.what}, {"bytes", u.bytes}});
  return {{"allocations", std::move(allocations)},
          {"preamble", std::move(preamble)},
          {"steps", std::move(steps)},
          {"reads_back_before_more_work", work.reads_back_before_more_work},
          {"limits",
           {{"malloc_heap_bytes", limit(work.limits.malloc_heap_bytes)},
            {"stack_bytes", limit(work.limits.stack_bytes)},
            {"printf_fifo_bytes", limit(work.limits.printf_fifo_bytes)}}},
          {"uncarried", std::move(uncarried)}};
}

} // namespace detail
} // namespace judge_wire
