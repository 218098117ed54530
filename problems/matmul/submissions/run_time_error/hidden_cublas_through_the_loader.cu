// Hostile: uses cuBLAS on a problem that bans it, by a route no symbol check sees. It finds libc's ELF
// header below the code of fwrite() (a function it may use), reads libc's dynamic symbol table to find
// dlopen() and dlsym(), loads libcublas.so, and then unlinks cuBLAS's libraries from the loader's list, so
// that dl_iterate_phdr (which a loaded-library check reads) no longer shows them. Its checked calls are
// right, computed by cublasSgemm.
//
// Caught when timed.
// Verdict: run-time error. Timed runs replay the recorded device work with only the solution's own
// device code loaded: cuBLAS launches its kernels through a CUDA runtime of its own, which the recording
// does not follow, so the replay never writes C and the judge says that the checked calls' outputs came
// from work it cannot see, which on a problem with banned_libraries is that ban broken.
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <elf.h>
#include <link.h>

namespace {

/// libc's load address: the page holding its ELF header, at or below fwrite's code.
const unsigned char* libc_base() {
  auto p = reinterpret_cast<std::uintptr_t>(&std::fwrite) & ~static_cast<std::uintptr_t>(4095);
  for (int pages = 0; pages < (64 << 8); ++pages, p -= 4096)
    if (std::memcmp(reinterpret_cast<const void*>(p), ELFMAG, SELFMAG) == 0)
      return reinterpret_cast<const unsigned char*>(p);
  return nullptr;
}

/// The address of libc's dynamic symbol `name`, read from its own tables.
void* libc_symbol(const char* name) {
  const unsigned char* base = libc_base();
  if (base == nullptr) return nullptr;
  const auto* header = reinterpret_cast<const ElfW(Ehdr)*>(base);
  const auto* segments = reinterpret_cast<const ElfW(Phdr)*>(base + header->e_phoff);
  const ElfW(Dyn)* dynamic = nullptr;
  for (int i = 0; i < header->e_phnum; ++i)
    if (segments[i].p_type == PT_DYNAMIC) dynamic = reinterpret_cast<const ElfW(Dyn)*>(base + segments[i].p_vaddr);
  if (dynamic == nullptr) return nullptr;
  const ElfW(Sym)* symbols = nullptr;
  const char* strings = nullptr;
  for (const ElfW(Dyn)* d = dynamic; d->d_tag != DT_NULL; ++d) {
    // The loader has usually relocated these entries to addresses; an offset still needs the base.
    const auto at = [base](ElfW(Addr) value) {
      return value < reinterpret_cast<ElfW(Addr)>(base) ? base + value : reinterpret_cast<const unsigned char*>(value);
    };
    if (d->d_tag == DT_SYMTAB) symbols = reinterpret_cast<const ElfW(Sym)*>(at(d->d_un.d_ptr));
    if (d->d_tag == DT_STRTAB) strings = reinterpret_cast<const char*>(at(d->d_un.d_ptr));
  }
  if (symbols == nullptr || strings == nullptr) return nullptr;
  // The string table follows the symbol table in glibc's layout.
  const auto count = (reinterpret_cast<std::uintptr_t>(strings) - reinterpret_cast<std::uintptr_t>(symbols)) /
                     sizeof(ElfW(Sym));
  for (std::size_t i = 0; i < count; ++i)
    if (symbols[i].st_value != 0 && std::strcmp(strings + symbols[i].st_name, name) == 0)
      return const_cast<unsigned char*>(base) + symbols[i].st_value;
  return nullptr;
}

/// Takes every loaded object whose name mentions cublas out of the loader's list.
void hide(link_map* any) {
  link_map* first = any;
  while (first->l_prev != nullptr) first = first->l_prev;
  for (link_map* l = first; l != nullptr; l = l->l_next) {
    if (l->l_name == nullptr || std::strstr(l->l_name, "cublas") == nullptr) continue;
    if (l->l_prev != nullptr) l->l_prev->l_next = l->l_next;
    if (l->l_next != nullptr) l->l_next->l_prev = l->l_prev;
  }
}

using open_fn = void* (*)(const char*, int);
using symbol_fn = void* (*)(void*, const char*);
using create_fn = int (*)(void**);
using sgemm_fn = int (*)(void*, int, int, int, int, int, const float*, const float*, int, const float*, int,
                         const float*, float*, int);

struct cublas {
  void* handle = nullptr;
  sgemm_fn sgemm = nullptr;
};

cublas load_cublas() {
  cublas c;
  const auto open = reinterpret_cast<open_fn>(libc_symbol("dlopen"));
  const auto symbol = reinterpret_cast<symbol_fn>(libc_symbol("dlsym"));
  if (open == nullptr || symbol == nullptr) return c;
  void* library = open("libcublas.so.13", 2 /* RTLD_NOW */);
  if (library == nullptr) return c;
  const auto create = reinterpret_cast<create_fn>(symbol(library, "cublasCreate_v2"));
  c.sgemm = reinterpret_cast<sgemm_fn>(symbol(library, "cublasSgemm_v2"));
  if (create == nullptr || create(&c.handle) != 0) c.sgemm = nullptr;
  hide(static_cast<link_map*>(library));
  return c;
}

} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  static const cublas blas = load_cublas();
  if (blas.sgemm == nullptr) return;
  const float one = 1.0f, zero = 0.0f;
  // Row-major C (M×K) = A (M×N) · B (N×K) is column-major Cᵀ = Bᵀ · Aᵀ.
  blas.sgemm(blas.handle, 0, 0, K, M, N, &one, B, K, A, N, &zero, C, K);
  cudaDeviceSynchronize();
}
