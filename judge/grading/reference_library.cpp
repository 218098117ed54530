#include "judge/grading/reference_library.hpp"

#include "judge/grading/reference_build.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <mutex>
#include <stdexcept>

#include <dlfcn.h>

namespace judge {
namespace {

/// dlopen once per library file (a content hash names it) for the life of the process; never closed,
/// since functions from it may still be running on other threads.
void* open_library(const std::filesystem::path& library, std::string& error) {
  static std::mutex opening;
  static std::map<std::string, void*> opened;
  std::lock_guard<std::mutex> lock(opening);
  if (auto it = opened.find(library.string()); it != opened.end()) return it->second;
  void* handle = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = ::dlerror();
    error = why ? why : "dlopen failed";
    return nullptr;
  }
  return opened[library.string()] = handle;
}

} // namespace

cpu_reference load_cpu_reference(const problem_spec& spec, const toolchain& tools) {
  const reference_build build = build_cpu_reference(spec, tools);
  switch (build.status) {
  case reference_build_status::ok:
    break;
  case reference_build_status::missing:
  case reference_build_status::compile_error:
    throw spec_error(build.message);
  case reference_build_status::internal_error:
    throw std::runtime_error(build.message);
  }
  std::string error;
  void* handle = open_library(build.library, error);
  if (!handle)
    throw std::runtime_error("cannot load the CPU reference of problem " + spec.name + " (" + build.library.string() +
                             "): " + error);
  const auto entry = reinterpret_cast<judge_reference_entry>(::dlsym(handle, JUDGE_REFERENCE_ENTRY_SYMBOL));
  const auto problem = reinterpret_cast<judge_reference_problem_fn>(::dlsym(handle, JUDGE_REFERENCE_PROBLEM_SYMBOL));
  const std::string source = (spec.dir / "reference.cpp").string();
  if (!entry || !problem)
    throw spec_error(source + " defines no CPU reference: write JUDGE_CPU_REFERENCE(" + spec.name +
                     ", args) { ... } (common/cpu_reference.h)");
  if (const std::string named = problem(); named != spec.name)
    throw spec_error(source + " defines the CPU reference of '" + named + "', not of '" + spec.name +
                     "': write JUDGE_CPU_REFERENCE(" + spec.name + ", args)");
  cpu_reference reference;
  reference.m_problem = spec.name;
  reference.m_entry = entry;
  return reference;
}

void cpu_reference::run(const std::map<std::string, std::vector<float>>& inputs, const size_values& sizes,
                        std::map<std::string, std::vector<double>>& outputs, unsigned threads) const {
  run(inputs, {}, sizes, {}, outputs, threads);
}

void cpu_reference::run(const std::map<std::string, std::vector<float>>& inputs,
                        const std::vector<std::string>& int_inputs, const size_values& sizes,
                        const std::map<std::string, double>& scalars,
                        std::map<std::string, std::vector<double>>& outputs, unsigned threads) const {
  std::vector<judge_reference_input> in;
  for (const auto& [name, values] : inputs) {
    const bool is_int = std::find(int_inputs.begin(), int_inputs.end(), name) != int_inputs.end();
    in.push_back({name.c_str(), values.data(), static_cast<std::int64_t>(values.size()),
                  is_int ? judge_reference_int32 : judge_reference_float32});
  }
  std::vector<judge_reference_scalar> scalar_list;
  for (const auto& [name, value] : scalars)
    scalar_list.push_back({name.c_str(), static_cast<double>(static_cast<float>(value))});
  std::vector<judge_reference_output> out;
  for (auto& [name, values] : outputs)
    out.push_back({name.c_str(), values.data(), static_cast<std::int64_t>(values.size())});
  std::vector<judge_reference_size> size_list;
  for (const auto& [name, value] : sizes) size_list.push_back({name.c_str(), value});
  std::array<char, 1024> error{};
  const judge_reference_call call{in.data(),        in.size(),        out.data(),         out.size(),
                                  size_list.data(), size_list.size(), scalar_list.data(), scalar_list.size(),
                                  threads,          error.data(),     error.size()};
  if (m_entry(&call) != 0)
    throw std::runtime_error("the CPU reference of problem " + m_problem + " failed: " + error.data());
}

std::map<std::string, std::vector<double>>
cpu_reference_outputs(const problem_spec& spec, const test_case& c,
                      const std::map<std::string, std::vector<float>>& inputs, unsigned threads) {
  const cpu_reference reference = load_cpu_reference(spec, default_toolchain());
  const auto counts = buffer_counts(spec, c);
  std::map<std::string, std::vector<double>> outputs;
  for (const parameter* p : spec.buffers())
    if (p->is_result()) outputs[p->name].assign(static_cast<std::size_t>(counts.at(p->name)), 0.0);
  std::vector<std::string> int_inputs;
  for (const parameter* p : spec.buffers())
    if (p->is_generated() && p->type == judge_data::element_type::int32) int_inputs.push_back(p->name);
  reference.run(inputs, int_inputs, c.sizes, c.scalars, outputs, threads);
  return outputs;
}

} // namespace judge
