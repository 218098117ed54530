// CPU reference of @NAME@, compiled into the judge (rebuild after editing: bin/judge does it).
#include "reference_registry.hpp"

JUDGE_CPU_REFERENCE(@NAME@, args) {
  const auto& input = args.input("input");
  auto& output = args.output("output");
  for (std::size_t i = 0; i < input.size(); ++i) output[i] = static_cast<double>(input[i]);
}
