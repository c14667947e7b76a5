#include "models/peripherals/exit_device.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "models/common/hex.h"

namespace socsim {

namespace {
constexpr uint32_t kPassMagic = 123456789;
}

ExitDevice::ExitDevice(sc_core::sc_module_name name, const ClockDomain& clock,
                       SimControl& control, std::ostream& out, MemoryReader reader)
    : RegisterDevice(name, clock), control_(control), out_(out), reader_(std::move(reader)) {}

ExitDevice::~ExitDevice() {
  if (signature_file_ != nullptr) std::fclose(signature_file_);
}

std::string ExitDevice::set_signature_file(const std::string& path) {
  if (signature_file_ != nullptr) std::fclose(signature_file_);
  signature_path_ = path;
  signature_file_ = std::fopen(path.c_str(), "w");
  return signature_file_ == nullptr ? std::strerror(errno) : "";
}

bool ExitDevice::write_signature_file(const std::string& text, std::string* error) {
  // A second dump rewrites the file, as the first one did.
  if (signature_file_ == nullptr) signature_file_ = std::fopen(signature_path_.c_str(), "w");
  if (signature_file_ == nullptr) {
    *error = std::strerror(errno);
    return false;
  }
  errno = 0;
  const bool written = std::fwrite(text.data(), 1, text.size(), signature_file_) == text.size();
  const bool flushed = std::fflush(signature_file_) == 0;
  const int write_errno = errno;
  const bool closed = std::fclose(signature_file_) == 0;
  signature_file_ = nullptr;
  if (written && flushed && closed) return true;
  const int reason = write_errno != 0 ? write_errno : errno;
  *error = reason != 0 ? std::strerror(reason) : "short write";
  return false;
}

bool ExitDevice::read_reg(uint64_t, unsigned, uint64_t, uint32_t* value) {
  *value = 0;
  return true;
}

bool ExitDevice::write_reg(uint64_t offset, unsigned, uint32_t value, uint64_t cycle) {
  switch (offset) {
    case 0x0:
      if (value == kPassMagic) {
        out_ << "ALL TESTS PASSED\n";
        control_.request_exit(0, cycle);
      } else if (value == 1) {
        out_ << "TEST(S) FAILED!\n";
        control_.request_exit(1, cycle);
      }
      return true;
    case 0x4:
      control_.request_exit(static_cast<int>(value), cycle);
      return true;
    case 0x8:
      signature_begin_ = value;
      return true;
    case 0xC:
      signature_end_ = value;
      return true;
    case 0x10:
      dump_signature(cycle);
      return true;
    default:
      return true;  // other offsets of the block are ignored, as in the testbench
  }
}

void ExitDevice::dump_signature(uint64_t cycle) {
  std::string text;
  // 64-bit addresses: an area ending at 0xFFFFFFFF ends (32 bits wrapped and never did).
  const uint64_t end = signature_end_;
  for (uint64_t addr = signature_begin_; addr + 4 <= end; addr += 4) {
    uint8_t bytes[4] = {0, 0, 0, 0};
    if (!reader_(static_cast<uint32_t>(addr), bytes, 4)) {
      // Past the memory the area should lie in: the rest would be as many lines of nothing.
      control_.report_fault(cycle, "signature area [" + hex(signature_begin_) + ", " +
                                       hex(signature_end_) + "): no memory at " + hex(addr));
      return;
    }
    char line[16];
    std::snprintf(line, sizeof line, "%02x%02x%02x%02x\n", bytes[3], bytes[2], bytes[1],
                  bytes[0]);
    out_ << line;
    text += line;
  }
  std::string error;
  if (!signature_path_.empty() && !write_signature_file(text, &error)) {
    control_.report_output_error("--signature " + signature_path_ + ": cannot write the " +
                                 std::to_string(text.size()) + "-byte signature: " + error);
  }
  control_.request_exit(0, cycle);
}

}  // namespace socsim
