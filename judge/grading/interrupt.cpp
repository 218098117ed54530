#include "judge/grading/interrupt.hpp"

namespace judge {

std::atomic<bool> g_interrupted{false};

} // namespace judge
