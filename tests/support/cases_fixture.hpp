// What the tests of cases.yaml's readers share: a scratch problems/<name> and testcases/<name> pair, with
// a small matmul as the default problem.
#pragma once

#include "judge/problem/problem.hpp"
#include "judge/problem/cases.hpp"

#include "spec_test_files.hpp"
#include "temp_folder.hpp"

#include <string>
#include <vector>

namespace spec_test {

inline const std::string matmul_yaml = R"(title: Matmul
signature:
  - {name: A, type: const float*, role: input, shape: [M, K]}
  - {name: B, type: const float*, role: input, shape: [K, N]}
  - {name: C, type: float*, role: output, shape: [M, N]}
  - {name: M, type: int, role: size}
  - {name: N, type: int, role: size}
  - {name: K, type: int, role: size}
inputs:
  distribution: {kind: uniform, low: -2.0, high: 2.0}
)";

/// A scratch problems/<name> and testcases/<name> pair.
class cases_fixture {
public:
  explicit cases_fixture(const std::string& problem_yaml = matmul_yaml, const std::string& name = "matmul")
      : m_name(name) {
    m_root.write("problems/" + name + "/statement.md", "# " + name + "\n");
    const auto dir = m_root.write("problems/" + name + "/problem.yaml", problem_yaml).parent_path();
    m_spec = judge::load_problem(dir);
  }

  const judge::problem_spec& spec() const { return m_spec; }

  std::vector<judge::test_case> load(const std::string& cases_yaml) const {
    return judge::load_cases(m_spec, m_root.write("testcases/" + m_name + "/cases.yaml", cases_yaml));
  }

  /// The spec_error that loading `cases_yaml` throws, or a note that it threw none.
  std::string error(const std::string& cases_yaml) const {
    return message_of<judge::spec_error>([&] { load(cases_yaml); });
  }

private:
  judge_test::temp_folder m_root;
  std::string m_name;
  judge::problem_spec m_spec;
};

} // namespace spec_test
