// The problem list, a problem's statement and the submit form.
#include "judge/service/web/web_pages.hpp"

#include <fmt/format.h>

namespace judge::service {

namespace {
std::string problem_url(const std::string& name) { return "/problems/" + html(name); }
} // namespace

std::string problems_page(const account& who, const std::vector<problem_entry>& problems) {
  if (problems.empty()) return page("Problems", who, "<p>No problems are installed on this server.</p>\n");
  std::string body = "<table class=\"data\">\n<thead><tr><th scope=\"col\">problem</th><th scope=\"col\">title</th>"
                     "<th scope=\"col\">ranked by</th><th scope=\"col\">timed cases</th>"
                     "<th scope=\"col\">leaderboard</th></tr></thead>\n<tbody>\n";
  for (const problem_entry& p : problems)
    body += fmt::format("<tr><td><a href=\"{0}\">{1}</a>{5}</td><td>{2}</td><td>{3}</td><td class=\"num\">{4}</td>"
                        "<td><a href=\"/board/{1}\">board<span class=\"skip\"> of {1}</span></a></td></tr>\n",
                        problem_url(p.name), html(p.name), html(p.title), html(p.unit), p.timed_cases,
                        // Only instructors are shown drafts (queue/access_policy.hpp).
                        p.draft ? " <span class=\"draft\">draft: students do not see it</span>" : "");
  return page("Problems", who, body + "</tbody>\n</table>\n");
}

std::string problem_page(const account& who, const problem_view& problem) {
  const std::string name = html(problem.entry.name);
  std::string body =
      fmt::format("<p><a href=\"{0}/submit\">Submit a solution</a> · <a href=\"/board/{1}\">Leaderboard</a>{2}"
                  "</p>\n",
                  problem_url(problem.entry.name), name,
                  who.who == role::instructor
                      ? fmt::format(" · <a href=\"/dashboard/{0}\">Dashboard</a> · <a href=\"/similarity/{0}\">"
                                    "Similarity</a>",
                                    name)
                      : "");
  if (problem.entry.draft)
    body += "<p class=\"notice\">A draft (<code>status: draft</code> in problem.yaml): students do not see it and "
            "cannot submit to it.</p>\n";
  body += fmt::format("<h2>Signature</h2>\n<pre><code>{}</code></pre>\n", html(problem.declaration));
  body += "<h2>Statement</h2>\n<div class=\"statement\">\n" + problem.statement_html + "</div>\n";
  return page(problem.entry.title.empty() ? problem.entry.name : problem.entry.name + ": " + problem.entry.title, who,
              body);
}

std::string submit_page(const account& who, const submit_form& form) {
  std::string body;
  if (!form.error.empty()) body += fmt::format("<p class=\"error\" role=\"alert\">{}</p>\n", html(form.error));
  body += fmt::format("<form method=\"post\" action=\"{}/submit\" enctype=\"multipart/form-data\">\n{}\n",
                      problem_url(form.problem), form_token_field(who));
  if (!form.declaration.empty())
    body += fmt::format("<h2>Signature</h2>\n<pre><code>{}</code></pre>\n", html(form.declaration));
  body += fmt::format("<p class=\"hint\">Paste your solution, or upload up to {} files (.cu, .cuh, .h; at most {} KiB "
                      "each). Uploaded files replace the pasted text.</p>\n",
                      form.max_files, form.max_file_bytes / 1024);
  body += fmt::format("<label for=\"file_name\">File name</label>\n"
                      "<input type=\"text\" id=\"file_name\" name=\"file_name\" value=\"{}\" required "
                      "pattern=\"[A-Za-z0-9_.\\-]+\\.(cu|cuh|h)\" aria-describedby=\"name-hint\">\n"
                      "<p class=\"hint\" id=\"name-hint\">Letters, digits, <code>_ . -</code>, ending in .cu, .cuh "
                      "or .h.</p>\n",
                      html(form.file_name));
  body +=
      fmt::format("<label for=\"source\">Source</label>\n"
                  "<textarea id=\"source\" name=\"source\" spellcheck=\"false\" autocapitalize=\"off\">{}</textarea>\n",
                  html(form.source));
  body += "<label for=\"files\">Or upload files</label>\n"
          "<input type=\"file\" id=\"files\" name=\"files\" multiple accept=\".cu,.cuh,.h\">\n"
          "<p><button type=\"submit\">Submit</button></p>\n</form>\n";
  return page("Submit: " + form.problem, who, body);
}

} // namespace judge::service
