// The NPU's registers: offsets, control and status bits, error codes (docs/npu.md). The
// device model (models/npu/npu.cpp) implements them and the firmware backend
// (firmware/delegates/npu/) drives them. Freestanding: <stdint.h> only. The layer
// descriptor a command list holds is generated from the operator schema
// (firmware/abi/generated/npu_descriptor.h).
#pragma once

#include <stdint.h>

namespace socsim::npu {

// ---- registers (32-bit, offsets from the region base) -------------------------------------
constexpr uint32_t kRegId = 0x00;         ///< RO: kIdValue
constexpr uint32_t kRegCtrl = 0x04;       ///< W: bit 0 starts the command list
constexpr uint32_t kRegStatus = 0x08;     ///< RO: kStatus* bits, error code, failing layer
constexpr uint32_t kRegIrqEnable = 0x0C;  ///< RW: bit 0 raises the interrupt line when done
constexpr uint32_t kRegIrqClear = 0x10;   ///< W: bit 0 clears done/error and the line
constexpr uint32_t kRegCmdAddr = 0x14;    ///< RW: address of the first descriptor
constexpr uint32_t kRegCmdCount = 0x18;   ///< RW: number of descriptors
constexpr uint32_t kRegCyclesLo = 0x1C;   ///< RO: NPU cycles of the last command list
constexpr uint32_t kRegCyclesHi = 0x20;
constexpr uint32_t kRegLayersDone = 0x24;  ///< RO: layers completed in the last list
constexpr uint32_t kRegTotalLo = 0x28;     ///< RO: NPU cycles busy since reset
constexpr uint32_t kRegTotalHi = 0x2C;
constexpr uint32_t kRegSpan = 0x30;

constexpr uint32_t kIdValue = 0x3155504E;  ///< "NPU1"
constexpr uint32_t kCtrlStart = 1u << 0;

constexpr uint32_t kStatusBusy = 1u << 0;
constexpr uint32_t kStatusDone = 1u << 1;
constexpr uint32_t kStatusError = 1u << 2;
constexpr uint32_t kStatusErrorShift = 8;   ///< bits 15:8: NpuError
constexpr uint32_t kStatusLayerShift = 16;  ///< bits 31:16: layer that failed

/// Error codes of the status register.
enum NpuError : uint32_t {
  kNpuOk = 0,
  kNpuBadOpcode = 1,  ///< unknown operator in a descriptor
  kNpuBadDtype = 2,   ///< data type the NPU does not run
  kNpuBadShape = 3,   ///< inconsistent shapes or geometry
  kNpuBadArgs = 4,    ///< bad quantisation arguments or bounds
  kNpuBusError = 5,   ///< a DMA access failed (unmapped address)
  kNpuBusy = 6,       ///< start while a list was running
  kNpuEmptyList = 7,  ///< start with a count of 0
};

inline const char* npu_error_name(uint32_t code) {
  switch (code) {
    case kNpuOk:
      return "ok";
    case kNpuBadOpcode:
      return "bad opcode";
    case kNpuBadDtype:
      return "bad dtype";
    case kNpuBadShape:
      return "bad shape";
    case kNpuBadArgs:
      return "bad arguments";
    case kNpuBusError:
      return "bus error";
    case kNpuBusy:
      return "busy";
    case kNpuEmptyList:
      return "empty command list";
  }
  return "unknown";
}

}  // namespace socsim::npu
