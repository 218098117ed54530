#include "sandbox_text.hpp"

namespace judge {

std::string sandbox_text(const sandbox_status& sandbox) {
  switch (sandbox.mode) {
  case sandbox_mode::not_run:
    return "";
  case sandbox_mode::on:
    return "on";
  case sandbox_mode::off:
    return "off";
  case sandbox_mode::unavailable:
    return "unavailable: " + sandbox.reason;
  }
  return "";
}

} // namespace judge
