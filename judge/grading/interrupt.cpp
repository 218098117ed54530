#include "interrupt.hpp"

namespace judge {

std::atomic<bool> g_interrupted{false};

} // namespace judge
