#include "harness/replay/replay_program.hpp"

#include "harness/cuda/cuda_check.hpp"
#include "harness/cuda/demangle.hpp"
#include "harness/cuda/driver_api.hpp"

#include <cuda_runtime_api.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

namespace judge_harness {
namespace {

using judge_wire::call_status;
using judge_wire::copy_direction;
using judge_wire::device_address;
using judge_wire::region_kind;

static_assert(sizeof(CUlaunchAttributeValue) == sizeof(cudaLaunchAttributeValue),
              "the runtime's and the driver's launch attribute values share one layout");

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read the solution's device code " + path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

[[noreturn]] void refuse(const std::string& why) { throw replay_refusal(call_status::not_replayable, why); }

std::string where(const device_address& a) {
  switch (a.kind) {
  case region_kind::buffer:
    return "buffer " + std::to_string(a.index);
  case region_kind::allocation:
    return "allocation " + std::to_string(a.index);
  case region_kind::global:
    return "device variable " + a.global;
  }
  return "memory";
}

} // namespace

device_code::device_code(const std::vector<std::string>& fatbin_files) {
  const driver_api& d = driver();
  for (const std::string& file : fatbin_files) {
    const std::string image = read_file(file);
    CUmodule module = nullptr;
    const CUresult loaded = d.cuModuleLoadData(&module, image.data());
    if (loaded != CUDA_SUCCESS)
      throw std::runtime_error("the driver cannot load the solution's device code " + file + ": " + d.name_of(loaded));
    m_modules.push_back(module);
  }
}

device_code::~device_code() {
  for (CUmodule m : m_modules) driver().cuModuleUnload(m);
}

CUfunction device_code::kernel(const std::string& name) const {
  // A template kernel of a shared header is in every unit that instantiates it, the same code each time:
  // the first unit's is taken.
  for (CUmodule m : m_modules) {
    CUfunction f = nullptr;
    if (driver().cuModuleGetFunction(&f, m, name.c_str()) == CUDA_SUCCESS && f != nullptr) return f;
  }
  return nullptr;
}

std::pair<CUdeviceptr, std::size_t> device_code::variable(const std::string& name) const {
  for (CUmodule m : m_modules) {
    CUdeviceptr address = 0;
    std::size_t bytes = 0;
    if (driver().cuModuleGetGlobal(&address, &bytes, m, name.c_str()) == CUDA_SUCCESS) return {address, bytes};
  }
  return {0, 0};
}

replay_program::replay_program(const judge_wire::recorded_work& work, const device_code& code,
                               const std::vector<judge_wire::buffer_spec>& buffers)
    : m_code(code), m_buffers(buffers), m_reads_back(work.reads_back_before_more_work) {
  try {
    for (const judge_wire::recorded_allocation& a : work.allocations) {
      void* p = nullptr;
      if (cudaMalloc(&p, a.bytes == 0 ? 1 : a.bytes) != cudaSuccess) {
        cudaGetLastError();
        refuse("solve() allocates " + std::to_string(a.bytes) +
               " bytes, which the device cannot give beside the judge's buffers");
      }
      m_allocations.push_back(p);
      m_allocation_bytes.push_back(a.bytes);
    }
    std::uint64_t read_back = 0;
    for (const judge_wire::recorded_step& s : work.steps)
      if (const auto* c = std::get_if<judge_wire::recorded_copy>(&s))
        if (c->direction == copy_direction::device_to_host) read_back = std::max(read_back, c->bytes);
    m_read_back.resize(read_back);
    m_launches.reserve(work.preamble.size() + work.steps.size());
    for (const judge_wire::recorded_step& s : work.preamble) m_preamble.push_back(bind(s, code));
    for (const judge_wire::recorded_step& s : work.steps) m_steps.push_back(bind(s, code));
  } catch (...) {
    for (void* p : m_allocations) cudaFree(p);
    throw;
  }
}

replay_program::~replay_program() {
  for (void* p : m_allocations) JUDGE_CUDA_CHECK_NOTHROW(cudaFree(p));
}

std::int64_t replay_program::room(const device_address& a) const {
  std::int64_t size = 0;
  switch (a.kind) {
  case region_kind::buffer:
    if (static_cast<std::size_t>(a.index) >= m_buffers.size()) refuse("the recording names " + where(a));
    size = static_cast<std::int64_t>(m_buffers[static_cast<std::size_t>(a.index)].count * sizeof(float));
    break;
  case region_kind::allocation:
    if (static_cast<std::size_t>(a.index) >= m_allocations.size()) refuse("the recording names " + where(a));
    size = static_cast<std::int64_t>(m_allocation_bytes[static_cast<std::size_t>(a.index)]);
    break;
  case region_kind::global: {
    const auto [address, bytes] = m_code.variable(a.global);
    if (address == 0) refuse("solve() uses " + where(a) + ", which the solution's device code does not define");
    size = static_cast<std::int64_t>(bytes);
    break;
  }
  }
  return size - a.offset;
}

CUdeviceptr replay_program::address(const device_address& a, void* const* buffers) const {
  switch (a.kind) {
  case region_kind::buffer:
    return reinterpret_cast<CUdeviceptr>(buffers[a.index]) + static_cast<CUdeviceptr>(a.offset);
  case region_kind::allocation:
    return reinterpret_cast<CUdeviceptr>(m_allocations[static_cast<std::size_t>(a.index)]) +
           static_cast<CUdeviceptr>(a.offset);
  case region_kind::global:
    return m_code.variable(a.global).first + static_cast<CUdeviceptr>(a.offset);
  }
  return 0;
}

replay_program::bound_step replay_program::bind(const judge_wire::recorded_step& step, const device_code& code) {
  bound_step b;
  // Copies and memsets stay inside the memory they name: a recording cannot aim the judge's own copy
  // engine at memory of the replaying runner's.
  const auto inside = [this](const device_address& a, std::uint64_t bytes, const char* what) {
    if (a.offset < 0 || room(a) < static_cast<std::int64_t>(bytes))
      refuse(std::string(what) + " of " + std::to_string(bytes) + " bytes at offset " + std::to_string(a.offset) +
             " reaches outside " + where(a));
  };
  if (const auto* l = std::get_if<judge_wire::recorded_launch>(&step)) {
    bound_launch launch;
    launch.name = demangled(l->kernel);
    launch.function = code.kernel(l->kernel);
    if (launch.function == nullptr)
      throw replay_refusal(call_status::foreign_kernel,
                           "solve() launched " + launch.name +
                               ", which is not in the device code compiled from your sources (a library's kernel?); "
                               "the judge times only kernels of your own");
    std::size_t total = 0;
    std::vector<std::size_t> offsets;
    for (std::size_t i = 0;; ++i) {
      std::size_t offset = 0, size = 0;
      if (driver().cuFuncGetParamInfo(launch.function, i, &offset, &size) != CUDA_SUCCESS) break;
      offsets.push_back(offset);
      total = std::max(total, offset + size);
    }
    if (total != l->parameters.size())
      refuse("the recorded launch of " + launch.name + " passes " + std::to_string(l->parameters.size()) +
             " bytes of parameters where the kernel takes " + std::to_string(total));
    for (const judge_wire::relocation& r : l->relocations) room(r.target); // the memory must exist
    launch.parameters = l->parameters;
    launch.relocations = l->relocations;
    for (const judge_wire::launch_attribute& a : l->attributes) {
      CUlaunchAttribute attribute{};
      attribute.id = static_cast<CUlaunchAttributeID>(a.id);
      std::memcpy(&attribute.value, a.value.data(), std::min(a.value.size(), sizeof attribute.value));
      launch.attributes.push_back(attribute);
    }
    CUlaunchConfig& c = launch.config;
    c.gridDimX = l->grid[0];
    c.gridDimY = l->grid[1];
    c.gridDimZ = l->grid[2];
    c.blockDimX = l->block[0];
    c.blockDimY = l->block[1];
    c.blockDimZ = l->block[2];
    c.sharedMemBytes = static_cast<unsigned>(l->shared_bytes);
    c.hStream = CU_STREAM_LEGACY;
    b.what = bound_step::kind::launch;
    b.launch = m_launches.size();
    m_launches.push_back(std::move(launch));
    // The parameter pointers point into the kept launch's own string, so they are made once it is kept.
    bound_launch& kept = m_launches.back();
    for (const std::size_t offset : offsets) kept.parameter_pointers.push_back(kept.parameters.data() + offset);
    kept.config.attrs = kept.attributes.empty() ? nullptr : kept.attributes.data();
    kept.config.numAttrs = static_cast<unsigned>(kept.attributes.size());
  } else if (const auto* m = std::get_if<judge_wire::recorded_memset>(&step)) {
    inside(m->target, m->bytes, "a cudaMemset");
    b.what = bound_step::kind::memset;
    b.target = m->target;
    b.bytes = m->bytes;
    b.value = m->value;
  } else if (const auto* c = std::get_if<judge_wire::recorded_copy>(&step)) {
    b.what = bound_step::kind::copy;
    b.direction = c->direction;
    b.bytes = c->bytes;
    if (c->target) {
      inside(*c->target, c->bytes, "a cudaMemcpy");
      b.target = *c->target;
    }
    if (c->source) {
      inside(*c->source, c->bytes, "a cudaMemcpy");
      b.source = *c->source;
    }
    b.host_bytes = c->host_bytes;
    b.relocations = c->relocations;
    for (const judge_wire::relocation& r : c->relocations) room(r.target);
  } else {
    const auto& a = std::get<judge_wire::recorded_function_attribute>(step);
    b.what = bound_step::kind::attribute;
    b.function = code.kernel(a.kernel);
    if (b.function == nullptr)
      throw replay_refusal(call_status::foreign_kernel, "solve() sets an attribute of " + demangled(a.kernel) +
                                                            ", which is not in the device code compiled from your "
                                                            "sources");
    b.attribute = a.attribute;
    b.value = a.value;
  }
  return b;
}

void replay_program::patch(std::string& bytes, const std::vector<judge_wire::relocation>& relocations,
                           void* const* buffers) const {
  for (const judge_wire::relocation& r : relocations) {
    const std::uint64_t value = address(r.target, buffers);
    std::memcpy(bytes.data() + r.at, &value, sizeof value);
  }
}

std::string replay_program::run(std::vector<bound_step>& steps, void* const* buffers) {
  const driver_api& d = driver();
  const auto failed = [&d](CUresult code, const std::string& what) {
    return code == CUDA_SUCCESS ? std::string() : what + " failed in the replay: " + d.name_of(code);
  };
  for (bound_step& s : steps) {
    std::string error;
    switch (s.what) {
    case bound_step::kind::launch: {
      bound_launch& l = m_launches[s.launch];
      patch(l.parameters, l.relocations, buffers);
      error = failed(d.cuLaunchKernelEx(&l.config, l.function, l.parameter_pointers.data(), nullptr),
                     "the launch of " + l.name);
      break;
    }
    case bound_step::kind::memset:
      error = failed(d.cuMemsetD8Async(address(s.target, buffers), static_cast<unsigned char>(s.value), s.bytes,
                                       CU_STREAM_LEGACY),
                     "a cudaMemset");
      break;
    case bound_step::kind::copy:
      if (s.direction == copy_direction::host_to_device) {
        patch(s.host_bytes, s.relocations, buffers);
        error = failed(d.cuMemcpyHtoDAsync(address(s.target, buffers), s.host_bytes.data(), s.bytes, CU_STREAM_LEGACY),
                       "a cudaMemcpy to the device");
      } else if (s.direction == copy_direction::device_to_device) {
        error = failed(d.cuMemcpyDtoDAsync(address(s.target, buffers), address(s.source, buffers), s.bytes,
                                           CU_STREAM_LEGACY),
                       "a cudaMemcpy on the device");
      } else {
        error = failed(d.cuMemcpyDtoHAsync(m_read_back.data(), address(s.source, buffers), s.bytes, CU_STREAM_LEGACY),
                       "a cudaMemcpy to the host");
      }
      break;
    case bound_step::kind::attribute:
      error = s.attribute < 0
                  ? failed(d.cuFuncSetCacheConfig(s.function, static_cast<CUfunc_cache>(s.value)),
                           "cudaFuncSetCacheConfig")
                  : failed(d.cuFuncSetAttribute(s.function, static_cast<CUfunction_attribute>(s.attribute), s.value),
                           "cudaFuncSetAttribute");
      break;
    }
    if (!error.empty()) return error;
  }
  return "";
}

std::string replay_program::prepare(void* const* buffers) { return run(m_preamble, buffers); }

std::string replay_program::issue(void* const* buffers) { return run(m_steps, buffers); }

} // namespace judge_harness
