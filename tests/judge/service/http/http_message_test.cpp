// The request's decoding that every route relies on: query and form fields, multipart parts as
// browsers send them, header names without case.
#include "catch.hpp"
#include "judge/service/http/http_message.hpp"
#include "judge/service/queue/submission_request.hpp"

using namespace judge::service;

TEST_CASE("query and form fields are split and percent-decoded with + as a space", "[http]") {
  std::multimap<std::string, std::string> out;
  parse_query("token=jt_a%2Bb&limit=5&flag&empty=&name=two+words&name=again", out);
  CHECK(out.find("token")->second == "jt_a+b");
  CHECK(out.find("limit")->second == "5");
  CHECK(out.find("flag")->second.empty());
  CHECK(out.find("empty")->second.empty());
  CHECK(out.count("name") == 2);
  CHECK(out.find("name")->second == "two words");
  CHECK(percent_decode("/problems/mat%6Dul+x", false) == "/problems/matmul+x");
  CHECK(percent_decode("100%", true) == "100%");
  CHECK(percent_decode("%zz%4", true) == "%zz%4");
}

TEST_CASE("a multipart form as Chromium sends it yields its fields and files", "[http]") {
  const std::string type = "multipart/form-data; boundary=----WebKitFormBoundaryAbC123";
  const std::string body = "------WebKitFormBoundaryAbC123\r\n"
                           "Content-Disposition: form-data; name=\"form_token\"\r\n\r\n"
                           "0123abcd\r\n"
                           "------WebKitFormBoundaryAbC123\r\n"
                           "Content-Disposition: form-data; name=\"files\"; filename=\"kernel.cu\"\r\n"
                           "Content-Type: application/octet-stream\r\n\r\n"
                           "line one\r\n\r\nline three\r\n"
                           "------WebKitFormBoundaryAbC123\r\n"
                           "Content-Disposition: form-data; name=\"files\"; filename=\"tile.cuh\"\r\n\r\n"
                           "\r\n"
                           "------WebKitFormBoundaryAbC123--\r\n";
  http_request req;
  parse_multipart(type, body, req.files);
  REQUIRE(req.files.size() == 3);
  CHECK(req.get_file_value("form_token").content == "0123abcd");
  CHECK(req.get_file_value("form_token").filename.empty());
  const auto files = req.files.equal_range("files");
  auto it = files.first;
  CHECK(it->second.filename == "kernel.cu");
  CHECK(it->second.content == "line one\r\n\r\nline three");
  CHECK(it->second.content_type == "application/octet-stream");
  ++it;
  CHECK(it->second.filename == "tile.cuh");
  CHECK(it->second.content.empty());
}

TEST_CASE("a malformed multipart form is a bad request saying what is wrong", "[http]") {
  std::multimap<std::string, form_file> out;
  CHECK_THROWS_AS(parse_multipart("multipart/form-data", "x", out), bad_request);
  try {
    parse_multipart("multipart/form-data; boundary=b",
                    "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno end", out);
    FAIL("a part without its closing boundary was accepted");
  } catch (const bad_request& e) {
    CHECK(std::string(e.what()).find("(\"a\") is not closed") != std::string::npos);
  }
}

TEST_CASE("header names match without case and set_header replaces", "[http]") {
  http_request req;
  req.headers.emplace("content-TYPE", "application/json");
  CHECK(req.has_header("Content-Type"));
  CHECK(req.get_header_value("CONTENT-type") == "application/json");
  http_response res;
  res.set_header("Location", "/a");
  res.set_header("location", "/b");
  CHECK(res.headers.size() == 1);
  CHECK(res.get_header_value("Location") == "/b");
}
