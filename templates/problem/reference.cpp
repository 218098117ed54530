// CPU reference of @NAME@: every output in double from the inputs. The judge compiles this file on its
// own (with the host C++ compiler, cached by content) and reports it if it does not compile.
#include "cpu_reference.h"

JUDGE_CPU_REFERENCE(@NAME@, args) {
  const auto input = args.input("input");
  const auto output = args.output("output");
  for (std::size_t i = 0; i < input.size(); ++i) output[i] = static_cast<double>(input[i]);
}
