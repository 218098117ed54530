// The CPU reference of a problem: the one header problems/<p>/reference.cpp includes.
//
// The judge compiles each problem's reference.cpp on its own, with the host C++ compiler, into a small
// shared library (cached by content), loads it with dlopen and calls the plain C entry point below.
// A reference that does not compile therefore costs only its own problem, never the judge or the
// other problems. Authors write the body only:
//
//   #include "cpu_reference.h"
//
//   JUDGE_CPU_REFERENCE(vector_add, args) {
//     const float* a = args.input("A").data();
//     double* c = args.output("C").data();
//     judge_reference::parallel_for(args.size("N"), args.threads, [=](std::int64_t begin, std::int64_t end) {
//       for (std::int64_t i = begin; i < end; ++i) c[i] = static_cast<double>(a[i]) + ...;
//     });
//   }
//
// Inputs are the values the runner generated (args.input for float buffers, args.input_int for int
// buffers; an inout buffer is an input, holding what solve() received, and an output of the same name);
// outputs are doubles (already sized to their element counts) that the reference fills with the exact
// result, whole numbers for an int output; float parameters arrive as args.scalar(name), the very float
// solve() received, widened to double. Nothing here needs the judge's internals;
// the judge includes this header too, for the C structs, so both sides agree on one definition.
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Element types of input buffers (common/datagen.h's element_type).
enum { judge_reference_float32 = 0, judge_reference_int32 = 1 };

/// One input buffer (or an inout buffer's contents before the call), by its name in problem.yaml's
/// signature.
typedef struct judge_reference_input {
  const char* name;
  const void* data; ///< float or int32_t elements, as `type` says
  int64_t count;    ///< elements
  int type;         ///< judge_reference_float32 or judge_reference_int32
} judge_reference_input;

/// One output buffer; the reference writes every element.
typedef struct judge_reference_output {
  const char* name;
  double* data;
  int64_t count; ///< elements
} judge_reference_output;

/// One size parameter (M, N, ...) of the case.
typedef struct judge_reference_size {
  const char* name;
  int64_t value;
} judge_reference_size;

/// One float parameter (eps, ...) of the case: the float solve() receives, widened to double.
typedef struct judge_reference_scalar {
  const char* name;
  double value;
} judge_reference_scalar;

/// Everything one call receives. `error` is where a failed call describes why (NUL-terminated,
/// truncated to `error_capacity`).
typedef struct judge_reference_call {
  const judge_reference_input* inputs;
  size_t input_count;
  const judge_reference_output* outputs;
  size_t output_count;
  const judge_reference_size* sizes;
  size_t size_count;
  const judge_reference_scalar* scalars;
  size_t scalar_count;
  unsigned threads; ///< worker threads the reference may use
  char* error;
  size_t error_capacity;
} judge_reference_call;

/// The entry point JUDGE_CPU_REFERENCE defines: 0 when every output was filled, nonzero (with
/// call->error set) when the reference failed. The version in the name changes with this struct.
typedef int (*judge_reference_entry)(const judge_reference_call* call);
#define JUDGE_REFERENCE_ENTRY_SYMBOL "judge_cpu_reference_v2"
/// Returns the problem name given to JUDGE_CPU_REFERENCE, so the judge can catch a reference copied
/// from another problem without renaming it.
typedef const char* (*judge_reference_problem_fn)(void);
#define JUDGE_REFERENCE_PROBLEM_SYMBOL "judge_cpu_reference_problem_v1"

#ifdef __cplusplus
} // extern "C"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace judge_reference {

/// A buffer seen through a pointer and a count: data(), size(), [i], begin() and end().
template <class T> class buffer_view {
public:
  buffer_view(T* data, std::size_t size) : m_data(data), m_size(size) {}
  T* data() const { return m_data; }
  std::size_t size() const { return m_size; }
  T& operator[](std::size_t i) const { return m_data[i]; }
  T* begin() const { return m_data; }
  T* end() const { return m_data + m_size; }

private:
  T* m_data;
  std::size_t m_size;
};

/// What a reference receives: its inputs, outputs and sizes by name, and how many threads it may use.
/// An unknown name throws std::invalid_argument; the judge reports it with the problem's name.
class reference_args {
public:
  explicit reference_args(const judge_reference_call& call) : threads(call.threads ? call.threads : 1), m_call(call) {}

  /// A float input buffer (const float*, or a float* inout buffer's contents before the call).
  buffer_view<const float> input(std::string_view name) const {
    const judge_reference_input& in = find_input(name, judge_reference_float32, "input_int");
    return {static_cast<const float*>(in.data), static_cast<std::size_t>(in.count)};
  }
  /// An int input buffer (const int*, or an int* inout buffer's contents before the call).
  buffer_view<const std::int32_t> input_int(std::string_view name) const {
    const judge_reference_input& in = find_input(name, judge_reference_int32, "input");
    return {static_cast<const std::int32_t*>(in.data), static_cast<std::size_t>(in.count)};
  }
  buffer_view<double> output(std::string_view name) const {
    for (std::size_t i = 0; i < m_call.output_count; ++i)
      if (name == m_call.outputs[i].name)
        return {m_call.outputs[i].data, static_cast<std::size_t>(m_call.outputs[i].count)};
    throw std::invalid_argument("reference.cpp asks for output '" + std::string(name) +
                                "', which is not an output buffer of problem.yaml's signature");
  }
  std::int64_t size(std::string_view name) const {
    for (std::size_t i = 0; i < m_call.size_count; ++i)
      if (name == m_call.sizes[i].name) return m_call.sizes[i].value;
    throw std::invalid_argument("reference.cpp asks for size '" + std::string(name) +
                                "', which is not a size parameter of problem.yaml's signature");
  }
  /// A float parameter: exactly the float solve() received.
  double scalar(std::string_view name) const {
    for (std::size_t i = 0; i < m_call.scalar_count; ++i)
      if (name == m_call.scalars[i].name) return m_call.scalars[i].value;
    throw std::invalid_argument("reference.cpp asks for scalar '" + std::string(name) +
                                "', which is not a float parameter of problem.yaml's signature");
  }

  unsigned threads; ///< worker threads the reference may use (at least 1)

private:
  const judge_reference_input& find_input(std::string_view name, int type, const char* other) const {
    for (std::size_t i = 0; i < m_call.input_count; ++i) {
      if (name != m_call.inputs[i].name) continue;
      if (m_call.inputs[i].type != type)
        throw std::invalid_argument("reference.cpp reads input '" + std::string(name) + "' as " +
                                    (type == judge_reference_int32 ? "int" : "float") + ", but it is " +
                                    (type == judge_reference_int32 ? "float" : "int") + ": use args." + other);
      return m_call.inputs[i];
    }
    throw std::invalid_argument("reference.cpp asks for input '" + std::string(name) +
                                "', which is not an input or inout buffer of problem.yaml's signature");
  }

  const judge_reference_call& m_call;
};

/// Runs `body(begin, end)` over [0, count) split into contiguous chunks across up to `threads` threads.
template <class Body> void parallel_for(std::int64_t count, unsigned threads, const Body& body) {
  if (count <= 0) return;
  const std::int64_t workers = std::clamp<std::int64_t>(threads, 1, count);
  if (workers == 1) {
    body(std::int64_t{0}, count);
    return;
  }
  std::vector<std::thread> pool;
  const std::int64_t chunk = (count + workers - 1) / workers;
  for (std::int64_t begin = 0; begin < count; begin += chunk)
    pool.emplace_back([&body, begin, end = std::min(count, begin + chunk)] { body(begin, end); });
  for (auto& t : pool) t.join();
}

namespace detail {
/// Calls the body; an exception becomes a nonzero return with its text, so none crosses the C boundary.
template <class Body> int call(const judge_reference_call* call, const Body& body) noexcept {
  auto fail = [call](const char* what) {
    if (call->error && call->error_capacity > 0) {
      std::strncpy(call->error, what, call->error_capacity - 1);
      call->error[call->error_capacity - 1] = '\0';
    }
    return 1;
  };
  try {
    body(reference_args(*call));
    return 0;
  } catch (const std::exception& e) {
    return fail(e.what());
  } catch (...) {
    return fail("reference.cpp threw something that is not a std::exception");
  }
}
} // namespace detail

} // namespace judge_reference

#define JUDGE_REFERENCE_EXPORT extern "C" __attribute__((visibility("default")))

/// Defines the CPU reference of `problem` (the folder's name); `args` names the reference_args the
/// body reads and writes. One per reference.cpp.
#define JUDGE_CPU_REFERENCE(problem, args)                                                                             \
  static void judge_cpu_reference_body(const ::judge_reference::reference_args& args);                                 \
  JUDGE_REFERENCE_EXPORT const char* judge_cpu_reference_problem_v1(void) { return #problem; }                         \
  JUDGE_REFERENCE_EXPORT int judge_cpu_reference_v2(const judge_reference_call* call) {                                \
    return ::judge_reference::detail::call(call, judge_cpu_reference_body);                                            \
  }                                                                                                                    \
  static void judge_cpu_reference_body(const ::judge_reference::reference_args& args)

#endif // __cplusplus
