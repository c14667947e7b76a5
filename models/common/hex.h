// Addresses and register values in messages and reports: "0x" and at least 8 hex digits.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace socsim {

inline std::string hex(uint64_t value) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%08llx", static_cast<unsigned long long>(value));
  return buf;
}

}  // namespace socsim
