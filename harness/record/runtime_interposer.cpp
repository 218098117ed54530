// The CUDA runtime calls that do device work, defined by the runner itself and exported from it
// (exported_symbols.list), so that the learner's shared object, whose undefined symbols the dynamic
// loader looks up in the executable before libcudart, calls these. Each calls libcudart's own function
// (found with RTLD_NEXT) and, when that succeeded, tells the work recorder what it did. The harness's
// own calls go through here too; the recorder keeps only what learner code does.
//
// The list is closed the other way round as well: every runtime call that does device work a replay
// cannot reproduce is defined here to say so (work_recorder::unsupported), so an honest solution that
// uses one gets that message rather than a wrong replay.
#include "harness/record/work_recorder.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

namespace {

using judge_harness::work_recorder;

/// libcudart's own definition of `name`; a runner without it cannot run at all.
void* real_function(const char* name) {
  void* f = dlsym(RTLD_NEXT, name);
  if (f == nullptr) {
    std::fprintf(stderr, "[judge] the CUDA runtime has no %s\n", name);
    std::abort();
  }
  return f;
}

work_recorder& recorder() { return work_recorder::instance(); }

} // namespace

/// The runtime's own `name`, typed like `type`, looked up once.
#define JUDGE_REAL(type, name) static const auto real = reinterpret_cast<type>(real_function(name))

extern "C" {

// Per-thread default stream forms, which cuda_runtime_api.h declares only under
// CUDA_API_PER_THREAD_DEFAULT_STREAM.
cudaError_t __cudaLaunchKernel(cudaKernel_t, dim3, dim3, void**, size_t, cudaStream_t);
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t, dim3, dim3, void**, size_t, cudaStream_t);
cudaError_t cudaLaunchKernel_ptsz(const void*, dim3, dim3, void**, size_t, cudaStream_t);
cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t*, const void*, void**);
cudaError_t cudaLaunchCooperativeKernel_ptsz(const void*, dim3, dim3, void**, size_t, cudaStream_t);
cudaError_t cudaMallocAsync_ptsz(void**, size_t, cudaStream_t);
cudaError_t cudaFreeAsync_ptsz(void*, cudaStream_t);
cudaError_t cudaMemcpy_ptds(void*, const void*, size_t, cudaMemcpyKind);
cudaError_t cudaMemcpyAsync_ptsz(void*, const void*, size_t, cudaMemcpyKind, cudaStream_t);
cudaError_t cudaMemcpyToSymbol_ptds(const void*, const void*, size_t, size_t, cudaMemcpyKind);
cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void*, const void*, size_t, size_t, cudaMemcpyKind, cudaStream_t);
cudaError_t cudaMemcpyFromSymbol_ptds(void*, const void*, size_t, size_t, cudaMemcpyKind);
cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void*, const void*, size_t, size_t, cudaMemcpyKind, cudaStream_t);
cudaError_t cudaMemset_ptds(void*, int, size_t);
cudaError_t cudaMemsetAsync_ptsz(void*, int, size_t, cudaStream_t);
cudaError_t cudaMemcpy2D_ptds(void*, size_t, const void*, size_t, size_t, size_t, cudaMemcpyKind);
cudaError_t cudaMemcpy2DAsync_ptsz(void*, size_t, const void*, size_t, size_t, size_t, cudaMemcpyKind, cudaStream_t);
cudaError_t cudaMemset2D_ptds(void*, size_t, int, size_t, size_t);
cudaError_t cudaMemset2DAsync_ptsz(void*, size_t, int, size_t, size_t, cudaStream_t);
cudaError_t cudaMemset3D_ptds(cudaPitchedPtr, int, cudaExtent);
cudaError_t cudaMemset3DAsync_ptsz(cudaPitchedPtr, int, cudaExtent, cudaStream_t);
cudaError_t cudaMemcpy3D_ptds(const cudaMemcpy3DParms*);
cudaError_t cudaMemcpy3DAsync_ptsz(const cudaMemcpy3DParms*, cudaStream_t);
cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t, cudaStream_t);
cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t, cudaStreamCaptureMode);
cudaError_t cudaMemPrefetchAsync_ptsz(const void*, size_t, cudaMemLocation, unsigned int, cudaStream_t);
void __cudaRegisterVar(void**, char*, char*, const char*, int, size_t, int, int);

// ----- launches ---------------------------------------------------------------------------------------

// Triple-chevron launches, as nvcc of CUDA 13 emits them.
#define JUDGE_LAUNCH_BY_KERNEL(name)                                                                                  \
  cudaError_t name(cudaKernel_t kernel, dim3 grid, dim3 block, void** args, size_t shared, cudaStream_t stream) {      \
    JUDGE_REAL(cudaError_t (*)(cudaKernel_t, dim3, dim3, void**, size_t, cudaStream_t), #name);                      \
    const cudaError_t status = real(kernel, grid, block, args, shared, stream);                                        \
    if (status == cudaSuccess)                                                                                          \
      recorder().launched(reinterpret_cast<CUkernel>(kernel), grid, block, args, shared, nullptr, 0, "a <<<>>> launch"); \
    return status;                                                                                                     \
  }
JUDGE_LAUNCH_BY_KERNEL(__cudaLaunchKernel)
JUDGE_LAUNCH_BY_KERNEL(__cudaLaunchKernel_ptsz)

#define JUDGE_LAUNCH_BY_FUNCTION(name, is_cooperative)                                                                   \
  cudaError_t name(const void* function, dim3 grid, dim3 block, void** args, size_t shared, cudaStream_t stream) {    \
    JUDGE_REAL(cudaError_t (*)(const void*, dim3, dim3, void**, size_t, cudaStream_t), #name);                       \
    const cudaError_t status = real(function, grid, block, args, shared, stream);                                      \
    if (status == cudaSuccess) {                                                                                       \
      cudaLaunchAttribute attribute{};                                                                                 \
      attribute.id = cudaLaunchAttributeCooperative;                                                                   \
      attribute.val.cooperative = 1;                                                                                   \
      recorder().launched_function(function, grid, block, args, shared, is_cooperative ? &attribute : nullptr,         \
                                   is_cooperative ? 1u : 0u, #name);                                                    \
    }                                                                                                                  \
    return status;                                                                                                     \
  }
JUDGE_LAUNCH_BY_FUNCTION(cudaLaunchKernel, false)
JUDGE_LAUNCH_BY_FUNCTION(cudaLaunchKernel_ptsz, false)
JUDGE_LAUNCH_BY_FUNCTION(cudaLaunchCooperativeKernel, true)
JUDGE_LAUNCH_BY_FUNCTION(cudaLaunchCooperativeKernel_ptsz, true)

#define JUDGE_LAUNCH_EX(name)                                                                                         \
  cudaError_t name(const cudaLaunchConfig_t* config, const void* function, void** args) {                            \
    JUDGE_REAL(cudaError_t (*)(const cudaLaunchConfig_t*, const void*, void**), #name);                              \
    const cudaError_t status = real(config, function, args);                                                          \
    if (status == cudaSuccess && config != nullptr)                                                                    \
      recorder().launched_function(function, config->gridDim, config->blockDim, args, config->dynamicSmemBytes,       \
                                   config->attrs, config->numAttrs, #name);                                           \
    return status;                                                                                                     \
  }
JUDGE_LAUNCH_EX(cudaLaunchKernelExC)
JUDGE_LAUNCH_EX(cudaLaunchKernelExC_ptsz)

// ----- memory ------------------------------------------------------------------------------------------

cudaError_t cudaMalloc(void** pointer, size_t bytes) {
  JUDGE_REAL(cudaError_t (*)(void**, size_t), "cudaMalloc");
  const cudaError_t status = real(pointer, bytes);
  if (status == cudaSuccess && pointer != nullptr) recorder().allocated(*pointer, bytes);
  return status;
}

#define JUDGE_MALLOC_ASYNC(name)                                                                                      \
  cudaError_t name(void** pointer, size_t bytes, cudaStream_t stream) {                                              \
    JUDGE_REAL(cudaError_t (*)(void**, size_t, cudaStream_t), #name);                                                \
    const cudaError_t status = real(pointer, bytes, stream);                                                          \
    if (status == cudaSuccess && pointer != nullptr) recorder().allocated(*pointer, bytes);                           \
    return status;                                                                                                     \
  }
JUDGE_MALLOC_ASYNC(cudaMallocAsync)
JUDGE_MALLOC_ASYNC(cudaMallocAsync_ptsz)

cudaError_t cudaFree(void* pointer) {
  JUDGE_REAL(cudaError_t (*)(void*), "cudaFree");
  const cudaError_t status = real(pointer);
  if (status == cudaSuccess) recorder().freed(pointer);
  return status;
}

#define JUDGE_FREE_ASYNC(name)                                                                                        \
  cudaError_t name(void* pointer, cudaStream_t stream) {                                                             \
    JUDGE_REAL(cudaError_t (*)(void*, cudaStream_t), #name);                                                         \
    const cudaError_t status = real(pointer, stream);                                                                 \
    if (status == cudaSuccess) recorder().freed(pointer);                                                             \
    return status;                                                                                                     \
  }
JUDGE_FREE_ASYNC(cudaFreeAsync)
JUDGE_FREE_ASYNC(cudaFreeAsync_ptsz)

// ----- copies and memsets -------------------------------------------------------------------------------

#define JUDGE_COPY(name)                                                                                              \
  cudaError_t name(void* target, const void* source, size_t bytes, cudaMemcpyKind kind) {                            \
    JUDGE_REAL(cudaError_t (*)(void*, const void*, size_t, cudaMemcpyKind), #name);                                  \
    const cudaError_t status = real(target, source, bytes, kind);                                                     \
    if (status == cudaSuccess) recorder().copied(target, source, bytes, kind);                                        \
    return status;                                                                                                     \
  }
JUDGE_COPY(cudaMemcpy)
JUDGE_COPY(cudaMemcpy_ptds)

#define JUDGE_COPY_ASYNC(name)                                                                                        \
  cudaError_t name(void* target, const void* source, size_t bytes, cudaMemcpyKind kind, cudaStream_t stream) {       \
    JUDGE_REAL(cudaError_t (*)(void*, const void*, size_t, cudaMemcpyKind, cudaStream_t), #name);                    \
    const cudaError_t status = real(target, source, bytes, kind, stream);                                             \
    if (status == cudaSuccess) recorder().copied(target, source, bytes, kind);                                        \
    return status;                                                                                                     \
  }
JUDGE_COPY_ASYNC(cudaMemcpyAsync)
JUDGE_COPY_ASYNC(cudaMemcpyAsync_ptsz)

#define JUDGE_TO_SYMBOL(name)                                                                                         \
  cudaError_t name(const void* symbol, const void* source, size_t bytes, size_t offset, cudaMemcpyKind kind) {       \
    JUDGE_REAL(cudaError_t (*)(const void*, const void*, size_t, size_t, cudaMemcpyKind), #name);                    \
    const cudaError_t status = real(symbol, source, bytes, offset, kind);                                             \
    if (status == cudaSuccess) recorder().copied_to_symbol(symbol, source, bytes, offset, kind);                      \
    return status;                                                                                                     \
  }
JUDGE_TO_SYMBOL(cudaMemcpyToSymbol)
JUDGE_TO_SYMBOL(cudaMemcpyToSymbol_ptds)

#define JUDGE_TO_SYMBOL_ASYNC(name)                                                                                   \
  cudaError_t name(const void* symbol, const void* source, size_t bytes, size_t offset, cudaMemcpyKind kind,         \
                   cudaStream_t stream) {                                                                            \
    JUDGE_REAL(cudaError_t (*)(const void*, const void*, size_t, size_t, cudaMemcpyKind, cudaStream_t), #name);      \
    const cudaError_t status = real(symbol, source, bytes, offset, kind, stream);                                     \
    if (status == cudaSuccess) recorder().copied_to_symbol(symbol, source, bytes, offset, kind);                      \
    return status;                                                                                                     \
  }
JUDGE_TO_SYMBOL_ASYNC(cudaMemcpyToSymbolAsync)
JUDGE_TO_SYMBOL_ASYNC(cudaMemcpyToSymbolAsync_ptsz)

#define JUDGE_FROM_SYMBOL(name)                                                                                       \
  cudaError_t name(void* target, const void* symbol, size_t bytes, size_t offset, cudaMemcpyKind kind) {             \
    JUDGE_REAL(cudaError_t (*)(void*, const void*, size_t, size_t, cudaMemcpyKind), #name);                          \
    const cudaError_t status = real(target, symbol, bytes, offset, kind);                                             \
    if (status == cudaSuccess) recorder().copied_from_symbol(target, symbol, bytes, offset, kind);                    \
    return status;                                                                                                     \
  }
JUDGE_FROM_SYMBOL(cudaMemcpyFromSymbol)
JUDGE_FROM_SYMBOL(cudaMemcpyFromSymbol_ptds)

#define JUDGE_FROM_SYMBOL_ASYNC(name)                                                                                 \
  cudaError_t name(void* target, const void* symbol, size_t bytes, size_t offset, cudaMemcpyKind kind,               \
                   cudaStream_t stream) {                                                                            \
    JUDGE_REAL(cudaError_t (*)(void*, const void*, size_t, size_t, cudaMemcpyKind, cudaStream_t), #name);            \
    const cudaError_t status = real(target, symbol, bytes, offset, kind, stream);                                     \
    if (status == cudaSuccess) recorder().copied_from_symbol(target, symbol, bytes, offset, kind);                    \
    return status;                                                                                                     \
  }
JUDGE_FROM_SYMBOL_ASYNC(cudaMemcpyFromSymbolAsync)
JUDGE_FROM_SYMBOL_ASYNC(cudaMemcpyFromSymbolAsync_ptsz)

#define JUDGE_MEMSET(name)                                                                                            \
  cudaError_t name(void* target, int value, size_t bytes) {                                                          \
    JUDGE_REAL(cudaError_t (*)(void*, int, size_t), #name);                                                          \
    const cudaError_t status = real(target, value, bytes);                                                            \
    if (status == cudaSuccess) recorder().memset(target, value, bytes);                                               \
    return status;                                                                                                     \
  }
JUDGE_MEMSET(cudaMemset)
JUDGE_MEMSET(cudaMemset_ptds)

#define JUDGE_MEMSET_ASYNC(name)                                                                                      \
  cudaError_t name(void* target, int value, size_t bytes, cudaStream_t stream) {                                     \
    JUDGE_REAL(cudaError_t (*)(void*, int, size_t, cudaStream_t), #name);                                            \
    const cudaError_t status = real(target, value, bytes, stream);                                                    \
    if (status == cudaSuccess) recorder().memset(target, value, bytes);                                               \
    return status;                                                                                                     \
  }
JUDGE_MEMSET_ASYNC(cudaMemsetAsync)
JUDGE_MEMSET_ASYNC(cudaMemsetAsync_ptsz)

#define JUDGE_MEMSET_2D(name, params, args, types)                                                                  \
  cudaError_t name params {                                                                                          \
    JUDGE_REAL(cudaError_t(*) types, #name);                                                                         \
    const cudaError_t status = real args;                                                                            \
    if (status == cudaSuccess) recorder().memset_2d(target, pitch, value, width, height);                           \
    return status;                                                                                                   \
  }
JUDGE_MEMSET_2D(cudaMemset2D, (void* target, size_t pitch, int value, size_t width, size_t height),
                (target, pitch, value, width, height), (void*, size_t, int, size_t, size_t))
JUDGE_MEMSET_2D(cudaMemset2D_ptds, (void* target, size_t pitch, int value, size_t width, size_t height),
                (target, pitch, value, width, height), (void*, size_t, int, size_t, size_t))
JUDGE_MEMSET_2D(cudaMemset2DAsync,
                (void* target, size_t pitch, int value, size_t width, size_t height, cudaStream_t stream),
                (target, pitch, value, width, height, stream), (void*, size_t, int, size_t, size_t, cudaStream_t))
JUDGE_MEMSET_2D(cudaMemset2DAsync_ptsz,
                (void* target, size_t pitch, int value, size_t width, size_t height, cudaStream_t stream),
                (target, pitch, value, width, height, stream), (void*, size_t, int, size_t, size_t, cudaStream_t))

/// cudaMemset3D as 2D memsets: one when the slices follow each other at the pitched height, else one
/// per slice.
static void record_memset_3d(const cudaPitchedPtr& p, int value, const cudaExtent& e) {
  if (e.depth <= 1 || p.ysize == e.height) {
    recorder().memset_2d(p.ptr, p.pitch, value, e.width, e.height * (e.depth == 0 ? 0 : e.depth));
    return;
  }
  for (size_t z = 0; z < e.depth; ++z)
    recorder().memset_2d(static_cast<char*>(p.ptr) + z * p.pitch * p.ysize, p.pitch, value, e.width, e.height);
}

#define JUDGE_MEMSET_3D(name, params, args, types)                                                                  \
  cudaError_t name params {                                                                                          \
    JUDGE_REAL(cudaError_t(*) types, #name);                                                                         \
    const cudaError_t status = real args;                                                                            \
    if (status == cudaSuccess) record_memset_3d(pointer, value, extent);                                             \
    return status;                                                                                                   \
  }
JUDGE_MEMSET_3D(cudaMemset3D, (cudaPitchedPtr pointer, int value, cudaExtent extent), (pointer, value, extent),
                (cudaPitchedPtr, int, cudaExtent))
JUDGE_MEMSET_3D(cudaMemset3D_ptds, (cudaPitchedPtr pointer, int value, cudaExtent extent), (pointer, value, extent),
                (cudaPitchedPtr, int, cudaExtent))
JUDGE_MEMSET_3D(cudaMemset3DAsync, (cudaPitchedPtr pointer, int value, cudaExtent extent, cudaStream_t stream),
                (pointer, value, extent, stream), (cudaPitchedPtr, int, cudaExtent, cudaStream_t))
JUDGE_MEMSET_3D(cudaMemset3DAsync_ptsz, (cudaPitchedPtr pointer, int value, cudaExtent extent, cudaStream_t stream),
                (pointer, value, extent, stream), (cudaPitchedPtr, int, cudaExtent, cudaStream_t))

// Pitched allocations are allocations of pitch x rows (x slices) bytes: the replay allocates as many, and
// the pitch, a number the solution passes on, means the same there.
cudaError_t cudaMallocPitch(void** pointer, size_t* pitch, size_t width, size_t height) {
  JUDGE_REAL(cudaError_t (*)(void**, size_t*, size_t, size_t), "cudaMallocPitch");
  const cudaError_t status = real(pointer, pitch, width, height);
  if (status == cudaSuccess && pointer != nullptr && pitch != nullptr) recorder().allocated(*pointer, *pitch * height);
  return status;
}

cudaError_t cudaMalloc3D(cudaPitchedPtr* pointer, cudaExtent extent) {
  JUDGE_REAL(cudaError_t (*)(cudaPitchedPtr*, cudaExtent), "cudaMalloc3D");
  const cudaError_t status = real(pointer, extent);
  if (status == cudaSuccess && pointer != nullptr)
    recorder().allocated(pointer->ptr, pointer->pitch * pointer->ysize * extent.depth);
  return status;
}

cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value) {
  JUDGE_REAL(cudaError_t (*)(cudaLimit, size_t), "cudaDeviceSetLimit");
  const cudaError_t status = real(limit, value);
  if (status == cudaSuccess) recorder().device_limit(limit, value);
  return status;
}

// ----- kernel settings and registration ----------------------------------------------------------------

cudaError_t cudaFuncSetAttribute(const void* function, cudaFuncAttribute attribute, int value) {
  JUDGE_REAL(cudaError_t (*)(const void*, cudaFuncAttribute, int), "cudaFuncSetAttribute");
  const cudaError_t status = real(function, attribute, value);
  if (status == cudaSuccess) recorder().function_attribute(function, static_cast<int>(attribute), value);
  return status;
}

cudaError_t cudaFuncSetCacheConfig(const void* function, cudaFuncCache config) {
  JUDGE_REAL(cudaError_t (*)(const void*, cudaFuncCache), "cudaFuncSetCacheConfig");
  const cudaError_t status = real(function, config);
  if (status == cudaSuccess) recorder().function_attribute(function, -1, static_cast<int>(config));
  return status;
}

// nvcc's registration of a __device__ or __constant__ variable, from the solution's static
// constructor: the recorder learns the variable's name in the device code and its host shadow.
void __cudaRegisterVar(void** handle, char* host_shadow, char* device_address, const char* device_name, int ext,
                       size_t bytes, int constant, int global) {
  JUDGE_REAL(void (*)(void**, char*, char*, const char*, int, size_t, int, int), "__cudaRegisterVar");
  real(handle, host_shadow, device_address, device_name, ext, bytes, constant, global);
  recorder().variable_registered(host_shadow, device_name, bytes);
}

// ----- device work a replay does not reproduce -----------------------------------------------------------

#define JUDGE_UNSUPPORTED(name, sticky, params, args, types)                                                         \
  cudaError_t name params {                                                                                          \
    JUDGE_REAL(cudaError_t(*) types, #name);                                                                         \
    recorder().unsupported(#name "()", sticky);                                                                      \
    return real args;                                                                                                \
  }

JUDGE_UNSUPPORTED(cudaMallocManaged, false, (void** p, size_t n, unsigned int f), (p, n, f), (void**, size_t, unsigned))
JUDGE_UNSUPPORTED(cudaMemcpy2D, false,
                  (void* d, size_t dp, const void* s, size_t sp, size_t w, size_t h, cudaMemcpyKind k),
                  (d, dp, s, sp, w, h, k), (void*, size_t, const void*, size_t, size_t, size_t, cudaMemcpyKind))
JUDGE_UNSUPPORTED(cudaMemcpy2D_ptds, false,
                  (void* d, size_t dp, const void* s, size_t sp, size_t w, size_t h, cudaMemcpyKind k),
                  (d, dp, s, sp, w, h, k), (void*, size_t, const void*, size_t, size_t, size_t, cudaMemcpyKind))
JUDGE_UNSUPPORTED(cudaMemcpy2DAsync, false,
                  (void* d, size_t dp, const void* s, size_t sp, size_t w, size_t h, cudaMemcpyKind k, cudaStream_t st),
                  (d, dp, s, sp, w, h, k, st),
                  (void*, size_t, const void*, size_t, size_t, size_t, cudaMemcpyKind, cudaStream_t))
JUDGE_UNSUPPORTED(cudaMemcpy2DAsync_ptsz, false,
                  (void* d, size_t dp, const void* s, size_t sp, size_t w, size_t h, cudaMemcpyKind k, cudaStream_t st),
                  (d, dp, s, sp, w, h, k, st),
                  (void*, size_t, const void*, size_t, size_t, size_t, cudaMemcpyKind, cudaStream_t))
JUDGE_UNSUPPORTED(cudaMemcpy3D, false, (const cudaMemcpy3DParms* p), (p), (const cudaMemcpy3DParms*))
JUDGE_UNSUPPORTED(cudaMemcpy3D_ptds, false, (const cudaMemcpy3DParms* p), (p), (const cudaMemcpy3DParms*))
JUDGE_UNSUPPORTED(cudaMemcpy3DAsync, false, (const cudaMemcpy3DParms* p, cudaStream_t s), (p, s),
                  (const cudaMemcpy3DParms*, cudaStream_t))
JUDGE_UNSUPPORTED(cudaMemcpy3DAsync_ptsz, false, (const cudaMemcpy3DParms* p, cudaStream_t s), (p, s),
                  (const cudaMemcpy3DParms*, cudaStream_t))
JUDGE_UNSUPPORTED(cudaMemcpyPeer, false, (void* d, int dd, const void* s, int sd, size_t n), (d, dd, s, sd, n),
                  (void*, int, const void*, int, size_t))
JUDGE_UNSUPPORTED(cudaMemcpyPeerAsync, false, (void* d, int dd, const void* s, int sd, size_t n, cudaStream_t st),
                  (d, dd, s, sd, n, st), (void*, int, const void*, int, size_t, cudaStream_t))
JUDGE_UNSUPPORTED(cudaGraphLaunch, false, (cudaGraphExec_t g, cudaStream_t s), (g, s), (cudaGraphExec_t, cudaStream_t))
JUDGE_UNSUPPORTED(cudaGraphLaunch_ptsz, false, (cudaGraphExec_t g, cudaStream_t s), (g, s),
                  (cudaGraphExec_t, cudaStream_t))
JUDGE_UNSUPPORTED(cudaStreamBeginCapture, false, (cudaStream_t s, cudaStreamCaptureMode m), (s, m),
                  (cudaStream_t, cudaStreamCaptureMode))
JUDGE_UNSUPPORTED(cudaStreamBeginCapture_ptsz, false, (cudaStream_t s, cudaStreamCaptureMode m), (s, m),
                  (cudaStream_t, cudaStreamCaptureMode))
JUDGE_UNSUPPORTED(cudaMemPrefetchAsync, false,
                  (const void* p, size_t n, cudaMemLocation l, unsigned int f, cudaStream_t s), (p, n, l, f, s),
                  (const void*, size_t, cudaMemLocation, unsigned int, cudaStream_t))
JUDGE_UNSUPPORTED(cudaMemPrefetchAsync_ptsz, false,
                  (const void* p, size_t n, cudaMemLocation l, unsigned int f, cudaStream_t s), (p, n, l, f, s),
                  (const void*, size_t, cudaMemLocation, unsigned int, cudaStream_t))
JUDGE_UNSUPPORTED(cudaMallocFromPoolAsync, false, (void** p, size_t n, cudaMemPool_t pool, cudaStream_t s),
                  (p, n, pool, s), (void**, size_t, cudaMemPool_t, cudaStream_t))
JUDGE_UNSUPPORTED(cudaMallocArray, true,
                  (cudaArray_t * a, const cudaChannelFormatDesc* d, size_t w, size_t h, unsigned int f),
                  (a, d, w, h, f), (cudaArray_t*, const cudaChannelFormatDesc*, size_t, size_t, unsigned int))
JUDGE_UNSUPPORTED(cudaCreateTextureObject, true,
                  (cudaTextureObject_t * t, const cudaResourceDesc* r, const cudaTextureDesc* d,
                   const cudaResourceViewDesc* v),
                  (t, r, d, v),
                  (cudaTextureObject_t*, const cudaResourceDesc*, const cudaTextureDesc*, const cudaResourceViewDesc*))
JUDGE_UNSUPPORTED(cudaCreateSurfaceObject, true, (cudaSurfaceObject_t * s, const cudaResourceDesc* r), (s, r),
                  (cudaSurfaceObject_t*, const cudaResourceDesc*))

} // extern "C"
