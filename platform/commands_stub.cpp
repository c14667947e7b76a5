// Placeholders for sub-commands that are still being built.
#include <iostream>

#include "platform/commands.h"

namespace socsim {
int cmd_ddr_trace(const std::vector<std::string>&) {
  std::cerr << "socsim ddr-trace: not built yet\n";
  return kExitUsage;
}
}  // namespace socsim
