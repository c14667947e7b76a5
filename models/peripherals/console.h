// Console: a transmit register; every store prints its low byte (core-v-verif convention:
// byte enables ignored). Output is line-buffered onto the host's stdout.
#pragma once

#include <ostream>
#include <string>

#include "models/peripherals/register_device.h"

namespace socsim {

class Console : public RegisterDevice {
 public:
  Console(sc_core::sc_module_name name, const ClockDomain& clock, std::ostream& out);
  ~Console() override;

  /// Writes out a pending partial line.
  void flush();
  uint64_t bytes_written() const { return bytes_; }
  /// True when nothing was printed yet or the last byte was a newline.
  bool at_line_start() const { return last_ == '\n'; }

 protected:
  bool read_reg(uint64_t offset, unsigned size, uint64_t cycle, uint32_t* value) override;
  bool write_reg(uint64_t offset, unsigned size, uint32_t value, uint64_t cycle) override;

 private:
  std::ostream& out_;
  std::string line_;
  uint64_t bytes_ = 0;
  char last_ = '\n';
};

}  // namespace socsim
