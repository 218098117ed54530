// The frame every page shares, the sign-in page and the error page.
#include "judge/service/web/web_pages.hpp"

#include "judge/base/xml_escape.hpp"

#include <fmt/format.h>

namespace judge::service {

std::string html(const std::string& text) { return xml_escape(text); }

std::string form_token_field(const account& who) {
  return fmt::format("<input type=\"hidden\" name=\"form_token\" value=\"{}\">", html(who.form_token));
}

std::string page(const std::string& title, const std::optional<account>& who, const std::string& body,
                 const std::vector<std::string>& scripts, const std::vector<std::string>& stylesheets) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += fmt::format("<title>{} · gpu-judge</title>\n", html(title));
  // A page's own stylesheets first: the site's rules (page margins, heading sizes) win where both speak.
  for (const std::string& s : stylesheets)
    out += fmt::format("<link rel=\"stylesheet\" href=\"/assets/{}\">\n", html(s));
  out += "<link rel=\"icon\" href=\"/assets/favicon.svg\" type=\"image/svg+xml\">\n";
  out += "<link rel=\"stylesheet\" href=\"/assets/web.css\">\n";
  for (const std::string& s : scripts) out += fmt::format("<script src=\"/assets/{}\" defer></script>\n", html(s));
  out += "</head>\n<body>\n<a class=\"skip\" href=\"#main\">Skip to the content</a>\n";
  out += "<header class=\"site\">\n<a class=\"brand\" href=\"/problems\">gpu-judge</a>\n";
  if (who) {
    out += "<nav aria-label=\"Site\"><ul><li><a href=\"/problems\">Problems</a></li>"
           "<li><a href=\"/assignments\">Assignments</a></li><li><a href=\"/history\">History</a></li>";
    // Only instructors have a dashboard (queue/access_policy.hpp); students are not shown a link to a refusal.
    if (who->who == role::instructor) out += "<li><a href=\"/dashboard\">Dashboard</a></li>";
    out += "</ul></nav>\n";
    out += fmt::format("<span class=\"who\">Signed in as <strong>{}</strong> ({})</span>\n", html(who->name),
                       role_name(who->who));
    out += fmt::format("<form method=\"post\" action=\"/signout\">{}<button type=\"submit\" class=\"plain\">Sign "
                       "out</button></form>\n",
                       form_token_field(*who));
  }
  out += "</header>\n<main id=\"main\">\n";
  out += fmt::format("<h1>{}</h1>\n", html(title));
  out += body;
  return out + "</main>\n</body>\n</html>\n";
}

std::string signin_page(const std::string& error) {
  std::string body;
  if (!error.empty()) body += fmt::format("<p class=\"error\" role=\"alert\">{}</p>\n", html(error));
  body +=
      "<form method=\"post\" action=\"/signin\">\n"
      "<label for=\"token\">Your token</label>\n"
      "<p class=\"hint\" id=\"token-hint\">The token your instructor gave you; it starts with <code>jt_</code>.</p>\n"
      "<input type=\"password\" id=\"token\" name=\"token\" required autocomplete=\"current-password\" "
      "aria-describedby=\"token-hint\" autofocus>\n"
      "<p><button type=\"submit\">Sign in</button></p>\n</form>\n";
  return page("Sign in", std::nullopt, body);
}

std::string error_page(const std::optional<account>& who, const std::string& title, const std::string& message) {
  return page(title, who,
              fmt::format("<p class=\"error\" role=\"alert\">{}</p>\n<p><a href=\"/problems\">Problems</a></p>\n",
                          html(message)));
}

} // namespace judge::service
