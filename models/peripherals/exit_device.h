// The end-of-test device (core-v-verif "virtual peripherals" at 0x2000_0000):
//   +0x00 write: 123456789 = all tests passed (exit 0), 1 = test(s) failed (exit 1)
//   +0x04 write: exit value; ends the run
//   +0x08 / +0x0C write: start / end (exclusive) of a signature area
//   +0x10 write: dump the signature area (one 8-hex-digit word per line), exit 0; a word
//                outside memory stops the run as a fault instead
#pragma once

#include <cstdio>
#include <functional>
#include <ostream>
#include <string>

#include "models/common/sim_control.h"
#include "models/peripherals/register_device.h"

namespace socsim {

class ExitDevice : public RegisterDevice {
 public:
  using MemoryReader = std::function<bool(uint32_t addr, uint8_t* data, uint32_t size)>;

  ExitDevice(sc_core::sc_module_name name, const ClockDomain& clock, SimControl& control,
             std::ostream& out, MemoryReader reader);

  ~ExitDevice() override;

  /// Also write the signature to `path` when it is dumped. The file is made (emptied) now,
  /// so that a path that cannot be written is found before the run starts: "" on success,
  /// otherwise the reason. A dump that cannot be written whole is reported to the
  /// SimControl as an output error naming the file.
  std::string set_signature_file(const std::string& path);

 protected:
  bool read_reg(uint64_t offset, unsigned size, uint64_t cycle, uint32_t* value) override;
  bool write_reg(uint64_t offset, unsigned size, uint32_t value, uint64_t cycle) override;

 private:
  void dump_signature(uint64_t cycle);
  /// Writes `text` to the signature file; false (and the reason in `*error`) when it could
  /// not be written whole.
  bool write_signature_file(const std::string& text, std::string* error);

  SimControl& control_;
  std::ostream& out_;
  MemoryReader reader_;
  std::string signature_path_;
  std::FILE* signature_file_ = nullptr;  ///< open from set_signature_file() to the dump
  uint32_t signature_begin_ = 0;
  uint32_t signature_end_ = 0;
};

}  // namespace socsim
