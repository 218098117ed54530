#include "catch.hpp"
#include "judge/base/file_input.hpp"
#include "judge/report/report_junit.hpp"
#include "results_fixtures.hpp"
#include "text_match.hpp"

#include <cctype>
#include <fstream>
#include <set>
#include <vector>

using judge_test::contains;

using namespace judge;
using judge::testing::accepted_result;
using judge::testing::wrong_result;
using judge_test::temp_folder;

namespace {

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++n;
  return n;
}

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == ':';
}

/// Checks the XML subset a JUnit report uses (a declaration, one root element, attributes in double quotes,
/// text and attribute values with entity references). Returns "" when well-formed, else what is wrong.
std::string xml_problem(const std::string& xml) {
  std::size_t i = 0;
  auto fail = [&](const std::string& why) { return why + " at offset " + std::to_string(i); };
  auto check_char_data = [&](char c) -> std::string {
    if (c == '<') return fail("raw '<' in text or attribute");
    if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') return fail("control character");
    if (c != '&') return "";
    const std::size_t end = xml.find(';', i);
    if (end == std::string::npos) return fail("unterminated entity");
    const std::string entity = xml.substr(i + 1, end - i - 1);
    static const std::set<std::string> named = {"amp", "lt", "gt", "quot", "apos"};
    bool numeric = entity.size() > 1 && entity[0] == '#';
    for (std::size_t k = 1; numeric && k < entity.size(); ++k)
      numeric = std::isxdigit(static_cast<unsigned char>(entity[k])) || (k == 1 && entity[k] == 'x');
    if (!named.count(entity) && !numeric) return fail("unknown entity &" + entity + ";");
    return "";
  };
  if (xml.rfind("<?xml ", 0) == 0) i = xml.find("?>") + 2;
  std::vector<std::string> open;
  int roots = 0;
  while (i < xml.size()) {
    if (xml[i] != '<') {
      if (open.empty() && !std::isspace(static_cast<unsigned char>(xml[i]))) return fail("text outside the root");
      if (std::string why = check_char_data(xml[i]); !why.empty()) return why;
      ++i;
      continue;
    }
    ++i;
    const bool closing = i < xml.size() && xml[i] == '/';
    if (closing) ++i;
    std::string name;
    while (i < xml.size() && name_char(xml[i])) name += xml[i++];
    if (name.empty()) return fail("tag without a name");
    if (closing) {
      if (open.empty() || open.back() != name) return fail("</" + name + "> closes nothing open");
      open.pop_back();
      if (i >= xml.size() || xml[i] != '>') return fail("junk in a closing tag");
      ++i;
      continue;
    }
    if (open.empty() && ++roots > 1) return fail("a second root element");
    std::set<std::string> attributes;
    for (;;) {
      while (i < xml.size() && std::isspace(static_cast<unsigned char>(xml[i]))) ++i;
      if (xml.compare(i, 2, "/>") == 0) {
        i += 2;
        break;
      }
      if (i < xml.size() && xml[i] == '>') {
        ++i;
        open.push_back(name);
        break;
      }
      std::string attribute;
      while (i < xml.size() && name_char(xml[i])) attribute += xml[i++];
      if (attribute.empty() || !attributes.insert(attribute).second) return fail("bad or repeated attribute");
      if (xml.compare(i, 2, "=\"") != 0) return fail("attribute " + attribute + " without a quoted value");
      i += 2;
      for (; i < xml.size() && xml[i] != '"'; ++i)
        if (std::string why = check_char_data(xml[i]); !why.empty()) return why;
      if (i >= xml.size()) return fail("unterminated attribute value");
      ++i;
    }
  }
  if (!open.empty()) return fail("<" + open.back() + "> never closed");
  return roots == 1 ? "" : fail("no root element");
}

std::vector<solution_result> sample_run() {
  solution_result ce;
  ce.problem = "matmul";
  ce.path = "solutions/matmul/carol.cu";
  ce.author = "carol";
  ce.v = verdict::compile_error;
  ce.message = "compilation failed";
  ce.compile_output = "carol.cu(3): error: identifier \"x\" is undefined";
  return {accepted_result("alice", 100), wrong_result("bob"), ce};
}

} // namespace

TEST_CASE("the XML checker used here rejects what it should", "[junit]") {
  CHECK(xml_problem("<?xml version=\"1.0\"?>\n<a x=\"1\"><b/>t &amp; u</a>\n") == "");
  CHECK(xml_problem("<a><b></a>") != "");
  CHECK(xml_problem("<a x=\"<\"/>") != "");
  CHECK(xml_problem("<a>&bogus;</a>") != "");
  CHECK(xml_problem("<a/><b/>") != "");
}

TEST_CASE("the JUnit report is well-formed, one suite per solution and one testcase per case", "[junit]") {
  const std::string xml = junit_xml(sample_run());
  CAPTURE(xml);
  CHECK(xml_problem(xml) == "");
  CHECK(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>", 0) == 0);
  CHECK(occurrences(xml, "<testsuite ") == 3);
  CHECK(occurrences(xml, "<testcase ") == 3 + 3 + 1);
  CHECK(contains(xml, "<testsuites name=\"gpu-judge\" tests=\"7\" failures=\"1\" errors=\"1\""));
  CHECK(contains(xml, "<testcase classname=\"matmul.alice\" name=\"square_1024\" time=\"0."));
  CHECK(contains(xml, "<testcase classname=\"matmul.alice\" name=\"sample_2x3x2\"/>")); // untimed: no time
}

TEST_CASE("failing cases carry a failure, compile and judge errors an error", "[junit]") {
  const std::string xml = junit_xml(sample_run());
  CAPTURE(xml);
  CHECK(occurrences(xml, "<failure ") == 1);
  CHECK(contains(xml, "<testcase classname=\"matmul.bob\" name=\"square_1024\">\n      <failure message=\"WA: 7 of "));
  CHECK(contains(xml, "type=\"WA\""));
  CHECK(occurrences(xml, "<error ") == 1);
  CHECK(contains(xml, "<testcase classname=\"matmul.carol\" name=\"compile\">"));
  CHECK(contains(xml, "identifier &quot;x&quot; is undefined"));

  SECTION("an internal error on a case is an error, not a failure") {
    auto run = sample_run();
    run[0].cases[1].v = verdict::internal_error;
    run[0].cases[1].message = "the CPU and baseline references disagree";
    const std::string with_ie = junit_xml(run);
    CHECK(occurrences(with_ie, "<error ") == 2);
    CHECK(contains(with_ie, "type=\"IE\""));
  }
}

TEST_CASE("cases an earlier failure left unrun are skipped testcases", "[junit]") {
  auto run = sample_run();
  run[1].cases_not_run = {"big_4096", "beyond_8193"};
  run[1].cases_not_run_reason = "case square_1024 decided the verdict (WA)";
  const std::string xml = junit_xml(run);
  CAPTURE(xml);
  CHECK(xml_problem(xml) == "");
  CHECK(contains(xml, "<testcase classname=\"matmul.bob\" name=\"big_4096\">\n      <skipped message=\"not run: "
                      "case square_1024 decided the verdict (WA)\"/>"));
  CHECK(contains(xml, "<testsuites name=\"gpu-judge\" tests=\"9\" failures=\"1\" errors=\"1\" skipped=\"2\""));
}

TEST_CASE("names, messages and learner output are XML-escaped", "[junit]") {
  solution_result r = wrong_result("<b>&amp;</b>");
  r.cases[1].name = "a<b>\"c\"";
  r.cases[1].message = "expected < 1 & got > 2\nsecond line";
  r.learner_output = std::string("bell\x07 and nul\x01 done <tag>");
  const std::string xml = junit_xml({r});
  CAPTURE(xml);
  CHECK(xml_problem(xml) == "");
  CHECK(contains(xml, "name=\"a&lt;b&gt;&quot;c&quot;\""));
  CHECK(contains(xml, "message=\"WA: expected &lt; 1 &amp; got &gt; 2\""));
  CHECK(contains(xml, "value=\"&lt;b&gt;&amp;amp;&lt;/b&gt;\""));
  CHECK(contains(xml, "<system-out>bell\xEF\xBF\xBD and nul\xEF\xBF\xBD done &lt;tag&gt;</system-out>"));
}

TEST_CASE("write_junit writes the report, creating its folder, and names the path when it cannot", "[junit]") {
  temp_folder dir;
  const auto path = dir / "reports/run.xml";
  write_junit(path, sample_run());
  CHECK(judge::read_file(path) == junit_xml(sample_run()));
  CHECK_FALSE(std::filesystem::exists(dir / "reports/run.xml.tmp"));

  std::ofstream(dir / "a_file") << "not a folder";
  try {
    write_junit(dir / "a_file/run.xml", sample_run());
    FAIL("writing under a file should throw");
  } catch (const std::runtime_error& e) {
    CAPTURE(e.what());
    CHECK(contains(e.what(), "a_file"));
  }
}
