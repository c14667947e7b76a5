// The version socsim reports (`socsim --version`, summary.json's `tool`).
#pragma once

namespace socsim {

/// The project's version (CMakeLists.txt), e.g. "0.1.0".
const char* socsim_version();
/// `git describe --always --dirty --tags` of the tree it was built from, at build time
/// ("unknown" outside a git checkout).
const char* socsim_git_describe();

}  // namespace socsim
