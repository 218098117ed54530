#include "harness/runner/solution_loader.hpp"

#include <stdexcept>

#include <dlfcn.h>

namespace judge_harness {

judge_solve_fn load_solution(const std::string& path) {
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = ::dlerror();
    throw std::runtime_error("cannot load the solution " + path + ": " + (why ? why : "dlopen failed"));
  }
  ::dlerror(); // a null solve is an error only when dlerror() says so
  void* solve = ::dlsym(handle, "solve");
  const char* why = ::dlerror();
  if (why || !solve)
    throw std::runtime_error("the solution " + path + " defines no solve(): " + (why ? why : "solve is null"));
  // POSIX guarantees that dlsym's object pointer converts to a function pointer.
  return reinterpret_cast<judge_solve_fn>(solve);
}

} // namespace judge_harness
