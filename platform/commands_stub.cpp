// Placeholders for sub-commands that are still being built.
#include <iostream>

#include "platform/commands.h"

namespace socsim {
int cmd_run(const std::vector<std::string>&) {
  std::cerr << "socsim run: not built yet\n";
  return kExitUsage;
}
int cmd_memmap(const std::vector<std::string>&) {
  std::cerr << "socsim memmap: not built yet\n";
  return kExitUsage;
}
}  // namespace socsim
