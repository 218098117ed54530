// timing_offset: is the difference between CUPTI's kernel records (what the judge ranks) and Nsight
// Compute's gpu__time_duration a constant, or does it grow with the kernel? Times one streaming kernel
// at sizes from a few microseconds to milliseconds, three ways at once, after a clean L2 flush:
//   cupti    the kernel's activity record (end - start), as the judge's runner reads it;
//   bracket  %globaltimer read inside the kernel: the first block's start to the last block's end, the
//            span the SMs themselves saw (no launch, no drain after the last store is issued);
//   events   cudaEventElapsedTime around the launch (includes launch gaps).
// Run it under `ncu --metrics gpu__time_duration.sum -k regex:stream_kernel` too: CUPTI is then ncu's,
// the cupti column is empty and ncu prints its own figure per launch (timing-offset.py beside it joins them).
// Prints one CSV line per size: size_mib, cupti_us, bracket_us, events_us (medians over the repeats).
// `timing_offset N rest`: vector_add's one-float-per-thread kernel and a float4 one, exactly as learners
// write them (no bracket), timed by CUPTI after the flush with the GPU given 0, 0.1 or 2 ms of rest
// before each launch: does a kernel read differently when the GPU was idle before it, as under ncu?
// Also timed by CUDA events, and with `timing_offset N rest nocupti` without CUPTI's kernel tracing: does
// tracing itself change the kernel? `... rest serial` traces CUPTI_ACTIVITY_KIND_KERNEL (serialised
// kernels) instead of CONCURRENT_KERNEL. One CSV line per (kernel, n, rest_us).
#include <cuda_runtime.h>
#include <cupti.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <utility>
#include <vector>

namespace {

#define CHECK(call)                                                                                    \
  do {                                                                                                 \
    const cudaError_t e = (call);                                                                      \
    if (e != cudaSuccess) {                                                                            \
      std::fprintf(stderr, "timing_offset: %s: %s\n", #call, cudaGetErrorString(e));                  \
      std::exit(1);                                                                                    \
    }                                                                                                  \
  } while (0)

__device__ std::uint64_t global_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/// y = 2x + 1, one float4 per thread, with the span of the kernel's blocks kept in span[0] (earliest
/// start) and span[1] (latest end).
__global__ void stream_kernel(const float4* x, float4* y, std::size_t n4, unsigned long long* span) {
  if (threadIdx.x == 0) atomicMin(&span[0], static_cast<unsigned long long>(global_ns()));
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n4) {
    const float4 v = x[i];
    y[i] = make_float4(2 * v.x + 1, 2 * v.y + 1, 2 * v.z + 1, 2 * v.w + 1);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicMax(&span[1], static_cast<unsigned long long>(global_ns()));
  }
}

/// The same work one float per thread: four times the blocks, as a learner's first vector_add launches.
__global__ void stream_scalar_kernel(const float* x, float* y, std::size_t n, unsigned long long* span) {
  if (threadIdx.x == 0) atomicMin(&span[0], static_cast<unsigned long long>(global_ns()));
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = 2 * x[i] + 1;
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicMax(&span[1], static_cast<unsigned long long>(global_ns()));
  }
}

/// Reads `n` words so that L2 holds only clean lines of this buffer afterwards (as the judge's flush).
__global__ void flush_kernel(const unsigned* buffer, std::size_t n, unsigned* sink) {
  unsigned acc = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    acc ^= buffer[i];
  if (acc == 0x9e3779b9u) *sink = acc;
}

/// Reads one word of every 64 KiB of x and y: their address translations are cached again after the
/// flush, while L2 gets back only a line per 64 KiB (under 1% of the footprint). Run with "touch": if a
/// kernel is then faster, the flush had cost it translations, not data.
__global__ void touch_kernel(const float* x, const float* y, std::size_t n, unsigned* sink) {
  constexpr std::size_t stride = (64 << 10) / sizeof(float);
  float acc = 0;
  for (std::size_t i = (blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x) * stride; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x * stride)
    acc += x[i] + y[i];
  if (acc == 1234.5f) *sink = 1;
}

/// vector_add as a learner's first solution launches it: one element per thread, 256 per block.
__global__ void va_simple(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

/// The same, four elements per thread (n a multiple of 4 here).
__global__ void va_float4(const float4* a, const float4* b, float4* c, int n4) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    const float4 x = a[i], y = b[i];
    c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
}

std::vector<std::pair<std::uint64_t, double>> g_stream_records; // (start ns, duration us) of stream_kernel
bool g_cupti = false;

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *size = 8 << 20;
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, *size));
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS)
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      const auto* k = reinterpret_cast<const CUpti_ActivityKernel9*>(record);
      if (k->name && (std::strstr(k->name, "stream_") || std::strstr(k->name, "va_"))) g_stream_records.push_back({k->start, (k->end - k->start) / 1000.0});
    }
  std::free(buffer);
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

} // namespace

namespace {
int rest_experiment(int repeats, const unsigned* flush, std::size_t flush_words, unsigned* sink) {
  cudaEvent_t before, after;
  CHECK(cudaEventCreate(&before));
  CHECK(cudaEventCreate(&after));
  std::printf("kernel,n,rest_us,cupti_us,events_us\n");
  for (const int n : {1 << 24, 25000000}) {
    float *a = nullptr, *b = nullptr, *c = nullptr;
    CHECK(cudaMalloc(&a, n * sizeof(float)));
    CHECK(cudaMalloc(&b, n * sizeof(float)));
    CHECK(cudaMalloc(&c, n * sizeof(float)));
    CHECK(cudaMemset(a, 0, n * sizeof(float)));
    CHECK(cudaMemset(b, 0, n * sizeof(float)));
    for (const bool simple : {true, false})
      for (const int rest_us : {0, 2000}) {
        std::vector<double> events;
        for (int r = 0; r < repeats + 3; ++r) {
          flush_kernel<<<1024, 256>>>(flush, flush_words, sink);
          CHECK(cudaDeviceSynchronize());
          if (rest_us > 0) usleep(rest_us);
          CHECK(cudaEventRecord(before));
          if (simple)
            va_simple<<<(n + 255) / 256, 256>>>(a, b, c, n);
          else
            va_float4<<<(n / 4 + 255) / 256, 256>>>(reinterpret_cast<const float4*>(a),
                                                    reinterpret_cast<const float4*>(b), reinterpret_cast<float4*>(c),
                                                    n / 4);
          CHECK(cudaEventRecord(after));
          CHECK(cudaDeviceSynchronize());
          float ms = 0;
          CHECK(cudaEventElapsedTime(&ms, before, after));
          if (r >= 3) events.push_back(ms * 1000.0);
        }
        if (g_cupti) cuptiActivityFlushAll(1);
        std::sort(g_stream_records.begin(), g_stream_records.end());
        std::vector<double> cupti;
        for (std::size_t k = 3; k < g_stream_records.size(); ++k) cupti.push_back(g_stream_records[k].second);
        std::printf("%s,%d,%d,%.2f,%.2f\n", simple ? "simple" : "float4", n, rest_us, g_cupti ? median(cupti) : 0.0,
                    median(events));
        g_stream_records.clear();
      }
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(c));
  }
  return 0;
}
} // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 30;
  const bool touch = argc > 2 && std::strcmp(argv[2], "touch") == 0;
  CHECK(cudaFree(nullptr));
  const bool no_cupti = argc > 3 && std::strcmp(argv[3], "nocupti") == 0;
  const bool serial = argc > 3 && std::strcmp(argv[3], "serial") == 0;
  g_cupti = !no_cupti && cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) == CUPTI_SUCCESS &&
            cuptiActivityEnable(serial ? CUPTI_ACTIVITY_KIND_KERNEL : CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) ==
                CUPTI_SUCCESS;
  int l2 = 0;
  CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  const std::size_t flush_words = 2 * static_cast<std::size_t>(l2) / sizeof(unsigned);
  unsigned *flush = nullptr, *sink = nullptr;
  CHECK(cudaMalloc(&flush, flush_words * sizeof(unsigned)));
  CHECK(cudaMemset(flush, 0x3c, flush_words * sizeof(unsigned)));
  CHECK(cudaMalloc(&sink, sizeof(unsigned)));
  if (argc > 2 && std::strcmp(argv[2], "rest") == 0) return rest_experiment(repeats, flush, flush_words, sink);
  // Device memory: managed memory would fault its page over to the GPU inside every timed kernel.
  unsigned long long* span = nullptr;
  CHECK(cudaMalloc(&span, 2 * sizeof(unsigned long long)));
  cudaEvent_t before, after;
  CHECK(cudaEventCreate(&before));
  CHECK(cudaEventCreate(&after));
  std::printf("kernel,size_mib,cupti_us,bracket_us,events_us\n");
  for (std::size_t mib : {1, 4, 16, 32, 64, 128, 256, 512, 1024}) {
    const std::size_t n = mib * (1u << 20) / sizeof(float) / 2; // x and y together are `mib`
    float *x = nullptr, *y = nullptr;
    CHECK(cudaMalloc(&x, n * sizeof(float)));
    CHECK(cudaMalloc(&y, n * sizeof(float)));
    CHECK(cudaMemset(x, 0, n * sizeof(float)));
    for (const bool scalar : {false, true}) {
      std::vector<double> brackets, events;
      for (int r = 0; r < repeats + 3; ++r) {
        const unsigned long long initial[2] = {~0ull, 0};
        CHECK(cudaMemcpy(span, initial, sizeof initial, cudaMemcpyHostToDevice));
        flush_kernel<<<1024, 256>>>(flush, flush_words, sink);
        if (touch) touch_kernel<<<64, 256>>>(x, y, n, sink);
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaEventRecord(before));
        if (scalar)
          stream_scalar_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(x, y, n, span);
        else
          stream_kernel<<<static_cast<unsigned>((n / 4 + 255) / 256), 256>>>(reinterpret_cast<const float4*>(x),
                                                                             reinterpret_cast<float4*>(y), n / 4, span);
        CHECK(cudaEventRecord(after));
        CHECK(cudaDeviceSynchronize());
        if (r < 3) continue; // warm-up
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, before, after));
        unsigned long long got[2];
        CHECK(cudaMemcpy(got, span, sizeof got, cudaMemcpyDeviceToHost));
        events.push_back(ms * 1000.0);
        brackets.push_back((got[1] - got[0]) / 1000.0);
      }
      if (g_cupti) cuptiActivityFlushAll(1);
      std::sort(g_stream_records.begin(), g_stream_records.end());
      std::vector<double> cupti;
      for (std::size_t k = 3; k < g_stream_records.size(); ++k) cupti.push_back(g_stream_records[k].second);
      std::printf("%s,%zu,%.2f,%.2f,%.2f\n", scalar ? "scalar" : "float4", mib, g_cupti ? median(cupti) : 0.0,
                  median(brackets), median(events));
      g_stream_records.clear();
    }
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
  }
  return 0;
}
