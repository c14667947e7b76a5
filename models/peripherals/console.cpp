#include "models/peripherals/console.h"

namespace socsim {

Console::Console(sc_core::sc_module_name name, const ClockDomain& clock, std::ostream& out)
    : RegisterDevice(name, clock), out_(out) {}

Console::~Console() { flush(); }

void Console::flush() {
  if (!line_.empty()) {
    out_ << line_;
    out_.flush();
    line_.clear();
  }
}

bool Console::read_reg(uint64_t, unsigned, uint64_t, uint32_t* value) {
  *value = 0;
  return true;
}

bool Console::write_reg(uint64_t offset, unsigned, uint32_t value, uint64_t) {
  if (offset >= 4) return true;  // the rest of the page is reserved and ignored
  const char c = static_cast<char>(value & 0xFF);
  ++bytes_;
  last_ = c;
  line_.push_back(c);
  if (c == '\n' || line_.size() >= 4096) flush();
  return true;
}

}  // namespace socsim
