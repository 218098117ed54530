#include "harness/replay/replay_program.hpp"

#include "harness/cuda/cuda_check.hpp"
#include "common/demangle.hpp"
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

static_assert(sizeof(CUlaunchAttributeValue) == sizeof(checked_attribute::value),
              "a checked attribute's value is the driver's value union");

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read the solution's device code " + path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

[[noreturn]] void refuse(const std::string& why) { throw replay_refusal(call_status::not_replayable, why); }

/// [B] device memory left free beside the solution's allocations, for the problem's GPU reference that
/// checks every timed output (cuBLAS's workspace, a reduction's partial sums).
constexpr std::size_t reference_headroom_bytes = 512u << 20;

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

replay_device device_of(const device_code& code, const std::vector<judge_wire::buffer_spec>& buffers) {
  replay_device d;
  for (const judge_wire::buffer_spec& b : buffers) d.buffer_bytes.push_back(b.count * sizeof(float));
  d.kernel = [&code](const std::string& name) -> std::optional<parameter_layout> {
    const CUfunction f = code.kernel(name);
    if (f == nullptr) return std::nullopt;
    parameter_layout layout;
    for (std::size_t i = 0;; ++i) {
      std::size_t offset = 0, size = 0;
      if (driver().cuFuncGetParamInfo(f, i, &offset, &size) != CUDA_SUCCESS) break;
      layout.emplace_back(offset, size);
    }
    return layout;
  };
  d.variable = [&code](const std::string& name) -> std::optional<std::uint64_t> {
    const auto [address, bytes] = code.variable(name);
    if (address == 0) return std::nullopt;
    return bytes;
  };
  int device = 0, optin = 0;
  JUDGE_CUDA_CHECK(cudaGetDevice(&device));
  JUDGE_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  d.shared_bytes_optin = static_cast<std::uint64_t>(optin);
  std::size_t free_bytes = 0, total_bytes = 0;
  JUDGE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  d.memory_bytes = total_bytes;
  return d;
}

replay_program::replay_program(const judge_wire::recorded_work& work, const device_code& code,
                               const std::vector<judge_wire::buffer_spec>& buffers)
    : m_code(code), m_buffers(buffers), m_reads_back(work.reads_back_before_more_work) {
  check_recording(work, device_of(code, buffers)); // before any CUDA call the recording asks for
  try {
    // The device limits first: the heap must be set before a kernel that calls malloc() runs.
    const auto set_limit = [](cudaLimit limit, const std::optional<std::uint64_t>& wanted, const char* what) {
      if (!wanted) return;
      std::size_t now = 0;
      if (cudaDeviceGetLimit(&now, limit) == cudaSuccess && now >= *wanted) return;
      const cudaError_t set = cudaDeviceSetLimit(limit, *wanted);
      if (set != cudaSuccess) {
        cudaGetLastError();
        refuse(std::string("solve() sets the device's ") + what + " to " + std::to_string(*wanted) +
               " bytes (cudaDeviceSetLimit), which the replay could not set: " + cudaGetErrorName(set));
      }
    };
    set_limit(cudaLimitMallocHeapSize, work.limits.malloc_heap_bytes, "heap for in-kernel malloc()");
    set_limit(cudaLimitStackSize, work.limits.stack_bytes, "per-thread stack");
    set_limit(cudaLimitPrintfFifoSize, work.limits.printf_fifo_bytes, "printf buffer");
    std::uint64_t allocated = 0;
    for (const judge_wire::recorded_allocation& a : work.allocations) {
      void* p = nullptr;
      if (cudaMalloc(&p, a.bytes == 0 ? 1 : a.bytes) != cudaSuccess) {
        cudaGetLastError();
        refuse("solve() allocates " + std::to_string(allocated + a.bytes) +
               " bytes of device memory, which the device cannot give beside the judge's buffers for timing");
      }
      allocated += a.bytes;
      m_allocations.push_back(p);
      m_allocation_bytes.push_back(a.bytes);
    }
    std::size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess && free_bytes < reference_headroom_bytes &&
        allocated > 0)
      refuse("solve() allocates " + std::to_string(allocated) + " bytes of device memory, which leaves " +
             std::to_string(free_bytes >> 20) + " MiB beside the judge's buffers for timing; the problem's reference "
             "that checks every timed output needs " + std::to_string(reference_headroom_bytes >> 20) + " MiB");
    std::uint64_t read_back = 0;
    for (const judge_wire::recorded_step& s : work.steps)
      if (const auto* c = std::get_if<judge_wire::recorded_copy>(&s))
        if (c->direction == copy_direction::device_to_host) read_back = std::max(read_back, c->bytes);
    m_read_back.resize(read_back);
    m_launches.reserve(work.preamble.size() + work.steps.size());
    for (const judge_wire::recorded_step& s : work.preamble) {
      m_preamble.push_back(bind(s, code));
      keep_on_device(m_preamble.back());
    }
    for (const judge_wire::recorded_step& s : work.steps) m_steps.push_back(bind(s, code));
  } catch (...) {
    release();
    throw;
  }
}

void replay_program::release() noexcept {
  for (void* p : m_images) JUDGE_CUDA_CHECK_NOTHROW(cudaFree(p));
  for (void* p : m_allocations) JUDGE_CUDA_CHECK_NOTHROW(cudaFree(p));
  m_images.clear();
  m_allocations.clear();
}

replay_program::~replay_program() { release(); }

void replay_program::keep_on_device(bound_step& restoring) {
  if (restoring.what != bound_step::kind::copy) return;
  // A pointer into the judge's buffers differs between the two sets of buffers timing alternates
  // between: such bytes are patched and copied from the host before each sample.
  for (const judge_wire::relocation& r : restoring.relocations)
    if (r.target.kind == region_kind::buffer) return;
  patch(restoring.host_bytes, restoring.relocations, nullptr);
  void* image = nullptr;
  if (cudaMalloc(&image, restoring.bytes) != cudaSuccess) {
    cudaGetLastError(); // room for the state once more is a saving, not a need: copy from the host
    return;
  }
  m_images.push_back(image);
  JUDGE_CUDA_CHECK(cudaMemcpy(image, restoring.host_bytes.data(), restoring.bytes, cudaMemcpyHostToDevice));
  restoring.device_image = reinterpret_cast<CUdeviceptr>(image);
  restoring.relocations.clear();
  restoring.host_bytes = std::string();
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
  // check_recording has checked every field: here they are only turned into driver calls.
  bound_step b;
  if (const auto* l = std::get_if<judge_wire::recorded_launch>(&step)) {
    bound_launch launch;
    launch.name = judge_symbols::demangled(l->kernel);
    launch.function = code.kernel(l->kernel);
    std::vector<std::size_t> offsets;
    for (std::size_t i = 0;; ++i) {
      std::size_t offset = 0, size = 0;
      if (driver().cuFuncGetParamInfo(launch.function, i, &offset, &size) != CUDA_SUCCESS) break;
      offsets.push_back(offset);
    }
    launch.parameters = l->parameters;
    launch.relocations = l->relocations;
    for (const checked_attribute& a : checked_attributes(*l)) {
      CUlaunchAttribute attribute{};
      attribute.id = static_cast<CUlaunchAttributeID>(a.id);
      std::memcpy(&attribute.value, a.value.data(), sizeof attribute.value);
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
    b.what = bound_step::kind::memset;
    b.target = m->target;
    b.bytes = m->bytes;
    b.value = m->value;
  } else if (const auto* m2 = std::get_if<judge_wire::recorded_memset_2d>(&step)) {
    b.what = bound_step::kind::memset_2d;
    b.target = m2->target;
    b.bytes = m2->width;
    b.pitch = m2->pitch;
    b.height = m2->height;
    b.value = m2->value;
  } else if (const auto* c = std::get_if<judge_wire::recorded_copy>(&step)) {
    b.what = bound_step::kind::copy;
    b.direction = c->direction;
    b.bytes = c->bytes;
    if (c->target) b.target = *c->target;
    if (c->source) b.source = *c->source;
    b.host_bytes = c->host_bytes;
    b.relocations = c->relocations;
  } else {
    const auto& a = std::get<judge_wire::recorded_function_attribute>(step);
    b.what = bound_step::kind::attribute;
    b.function = code.kernel(a.kernel);
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
    case bound_step::kind::memset_2d: {
      const cudaError_t set =
          cudaMemset2DAsync(reinterpret_cast<void*>(address(s.target, buffers)), s.pitch, s.value, s.bytes, s.height,
                            cudaStreamLegacy);
      if (set != cudaSuccess) {
        cudaGetLastError();
        error = std::string("a cudaMemset2D failed in the replay: ") + cudaGetErrorName(set);
      }
      break;
    }
    case bound_step::kind::copy:
      if (s.device_image != 0) {
        error = failed(d.cuMemcpyDtoDAsync(address(s.target, buffers), s.device_image, s.bytes, CU_STREAM_LEGACY),
                       "restoring the state of an earlier call");
      } else if (s.direction == copy_direction::host_to_device) {
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
