// The installed judge has no build tree to fall back on: it finds its files under its prefix or says
// where it looked (install_layout.hpp).
#include "judge/base/install_layout.hpp"

namespace judge {

std::optional<install_layout> build_tree_layout() { return std::nullopt; }

} // namespace judge
