#include <cstddef>
#include <cuda_runtime.h>
namespace {
int sms() {
  int d = 0, s = 0;
  cudaGetDevice(&d);
  cudaDeviceGetAttribute(&s, cudaDevAttrMultiProcessorCount, d);
  return s;
}
// One float4 per thread, no grid stride, streaming (evict-first) loads and stores.
template <bool Stream>
__global__ void va_flat(const float4* __restrict__ a, const float4* __restrict__ b, float4* __restrict__ c,
                        std::size_t groups, const float* A, const float* B, float* C, std::size_t n) {
  const std::size_t g = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (g < groups) {
    float4 x, y;
    if (Stream) {
      x = __ldcs(a + g);
      y = __ldcs(b + g);
    } else {
      x = a[g];
      y = b[g];
    }
    const float4 z = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    if (Stream)
      __stcs(c + g, z);
    else
      c[g] = z;
  }
  if (g < n - groups * 4) C[groups * 4 + g] = A[groups * 4 + g] + B[groups * 4 + g];
}
// One float4 per thread, loads with an L2 prefetch hint of 256 bytes or through the read-only path.
template <int Kind>
__global__ void va_hint(const float4* __restrict__ a, const float4* __restrict__ b, float4* __restrict__ c,
                        std::size_t groups, const float* A, const float* B, float* C, std::size_t n) {
  const std::size_t g = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (g < groups) {
    float4 x, y;
    if (Kind == 0) {
      asm volatile("ld.global.L2::256B.v4.f32 {%0,%1,%2,%3}, [%4];"
                   : "=f"(x.x), "=f"(x.y), "=f"(x.z), "=f"(x.w)
                   : "l"(a + g));
      asm volatile("ld.global.L2::256B.v4.f32 {%0,%1,%2,%3}, [%4];"
                   : "=f"(y.x), "=f"(y.y), "=f"(y.z), "=f"(y.w)
                   : "l"(b + g));
    } else if (Kind == 1) {
      x = __ldg(a + g);
      y = __ldg(b + g);
    } else {
      asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%0,%1,%2,%3}, [%4];"
                   : "=f"(x.x), "=f"(x.y), "=f"(x.z), "=f"(x.w)
                   : "l"(a + g));
      asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%0,%1,%2,%3}, [%4];"
                   : "=f"(y.x), "=f"(y.y), "=f"(y.z), "=f"(y.w)
                   : "l"(b + g));
    }
    c[g] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
  if (g < n - groups * 4) C[groups * 4 + g] = A[groups * 4 + g] + B[groups * 4 + g];
}
// Each thread: U float4s, all loads issued before any add (more bytes in flight per thread).
template <int U, bool Stream>
__global__ void va_unroll(const float4* __restrict__ a, const float4* __restrict__ b, float4* __restrict__ c,
                          std::size_t groups, const float* A, const float* B, float* C, std::size_t n) {
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * blockDim.x * U + threadIdx.x;
  float4 x[U], y[U];
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const std::size_t g = base + static_cast<std::size_t>(u) * blockDim.x;
    if (g < groups) {
      x[u] = Stream ? __ldcs(a + g) : a[g];
      y[u] = Stream ? __ldcs(b + g) : b[g];
    }
  }
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const std::size_t g = base + static_cast<std::size_t>(u) * blockDim.x;
    if (g < groups) {
      const float4 z = make_float4(x[u].x + y[u].x, x[u].y + y[u].y, x[u].z + y[u].z, x[u].w + y[u].w);
      if (Stream)
        __stcs(c + g, z);
      else
        c[g] = z;
    }
  }
  const std::size_t tid = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (tid < n - groups * 4) C[groups * 4 + tid] = A[groups * 4 + tid] + B[groups * 4 + tid];
}
// Grid stride with many blocks per SM and streaming hints.
__global__ void va_stride_cs(const float4* __restrict__ a, const float4* __restrict__ b, float4* __restrict__ c,
                             std::size_t groups, const float* A, const float* B, float* C, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (std::size_t g = first; g < groups; g += stride) {
    const float4 x = __ldcs(a + g), y = __ldcs(b + g);
    __stcs(c + g, make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w));
  }
  for (std::size_t i = groups * 4 + first; i < n; i += stride) C[i] = A[i] + B[i];
}
template <typename F> void go(F kernel, int per_thread, int threads, const float* A, const float* B, float* C, int N) {
  const std::size_t n = N, groups = n / 4;
  const std::size_t per_block = static_cast<std::size_t>(threads) * per_thread;
  const unsigned blocks = static_cast<unsigned>((groups + per_block - 1) / per_block + 1);
  kernel<<<blocks, threads>>>(reinterpret_cast<const float4*>(A), reinterpret_cast<const float4*>(B),
                              reinterpret_cast<float4*>(C), groups, A, B, C, n);
}
} // namespace
extern "C" void va_flat_plain(const float* A, const float* B, float* C, int N) {
  go(va_flat<false>, 1, 256, A, B, C, N);
}
extern "C" void va_flat_cs(const float* A, const float* B, float* C, int N) { go(va_flat<true>, 1, 256, A, B, C, N); }
extern "C" void va_flat_cs_1024(const float* A, const float* B, float* C, int N) {
  go(va_flat<true>, 1, 1024, A, B, C, N);
}
extern "C" void va_u2_plain(const float* A, const float* B, float* C, int N) {
  go(va_unroll<2, false>, 2, 256, A, B, C, N);
}
extern "C" void va_u2_cs(const float* A, const float* B, float* C, int N) {
  go(va_unroll<2, true>, 2, 256, A, B, C, N);
}
extern "C" void va_u4_cs(const float* A, const float* B, float* C, int N) {
  go(va_unroll<4, true>, 4, 256, A, B, C, N);
}
extern "C" void va_u4_plain(const float* A, const float* B, float* C, int N) {
  go(va_unroll<4, false>, 4, 256, A, B, C, N);
}
extern "C" void va_stride_cs_x8(const float* A, const float* B, float* C, int N) {
  const std::size_t groups = static_cast<std::size_t>(N) / 4;
  va_stride_cs<<<sms() * 8, 256>>>(reinterpret_cast<const float4*>(A), reinterpret_cast<const float4*>(B),
                                   reinterpret_cast<float4*>(C), groups, A, B, C, N);
}
extern "C" void va_stride_cs_x32(const float* A, const float* B, float* C, int N) {
  const std::size_t groups = static_cast<std::size_t>(N) / 4;
  va_stride_cs<<<sms() * 32, 256>>>(reinterpret_cast<const float4*>(A), reinterpret_cast<const float4*>(B),
                                    reinterpret_cast<float4*>(C), groups, A, B, C, N);
}
extern "C" void va_flat_128(const float* A, const float* B, float* C, int N) { go(va_flat<false>, 1, 128, A, B, C, N); }
extern "C" void va_flat_512(const float* A, const float* B, float* C, int N) { go(va_flat<false>, 1, 512, A, B, C, N); }
extern "C" void va_flat_1024(const float* A, const float* B, float* C, int N) {
  go(va_flat<false>, 1, 1024, A, B, C, N);
}
extern "C" void va_l2_256(const float* A, const float* B, float* C, int N) { go(va_hint<0>, 1, 256, A, B, C, N); }
extern "C" void va_ldg(const float* A, const float* B, float* C, int N) { go(va_hint<1>, 1, 256, A, B, C, N); }
extern "C" void va_nc_256(const float* A, const float* B, float* C, int N) { go(va_hint<2>, 1, 256, A, B, C, N); }
