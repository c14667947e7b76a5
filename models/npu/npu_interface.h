// The NPU's programming interface: register offsets, status and error codes, and the layer
// descriptor layout of a command list. Shared by the simulator's device model and the
// firmware backend (freestanding: <stdint.h> only); scripts/socsim_aot/npu_partition.py
// writes the same descriptors. docs/npu.md describes them.
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
  kNpuBadOpcode = 1,      ///< unknown operator in a descriptor
  kNpuBadDtype = 2,       ///< data type the NPU does not run
  kNpuBadShape = 3,       ///< inconsistent shapes or geometry
  kNpuBadArgs = 4,        ///< bad quantisation arguments or bounds
  kNpuBusError = 5,       ///< a DMA access failed (unmapped address)
  kNpuBusy = 6,           ///< start while a list was running
  kNpuEmptyList = 7,      ///< start with a count of 0
};

inline const char* npu_error_name(uint32_t code) {
  switch (code) {
    case kNpuOk: return "ok";
    case kNpuBadOpcode: return "bad opcode";
    case kNpuBadDtype: return "bad dtype";
    case kNpuBadShape: return "bad shape";
    case kNpuBadArgs: return "bad arguments";
    case kNpuBusError: return "bus error";
    case kNpuBusy: return "busy";
    case kNpuEmptyList: return "empty command list";
  }
  return "unknown";
}

// ---- layer descriptors -------------------------------------------------------------------
/// Operators of a descriptor. Arguments are the CPU kernel's argument list (docs/runtime.md).
enum NpuOpcode : uint8_t {
  kOpConv2d = 1,           ///< args: 9 geometry, zp_in, zp_out, act_min, act_max
  kOpLinear = 2,           ///< args: zp_in, zp_out, act_min, act_max
  kOpAdd = 3,              ///< args: zp_a, m_a, zp_b, m_b, n, zp_out, act_min, act_max
  kOpMul = 4,              ///< args: zp_a, zp_b, m, n, zp_out, act_min, act_max
  kOpMaxPool2d = 5,        ///< args: 9 geometry
  kOpAvgPool2d = 6,        ///< args: 9 geometry, count_include_pad, zp_in, zp_out, m, n
  kOpGlobalAvgPool2d = 7,  ///< args: zp_in, zp_out, m, n
};
constexpr uint8_t kDtypeInt8 = 2;  ///< the program file's code

constexpr uint32_t kDescriptorSize = 176;
constexpr uint32_t kMaxArgs = 16;
constexpr uint32_t kNameSize = 32;
constexpr uint32_t kAddrCount = 5;

/// One layer, 176 bytes, little-endian. Shapes are 4-D (NCHW; linear: rows, features, 1, 1;
/// weights OIHW; linear weights out, in, 1, 1). Unused addresses and shapes are 0.
struct LayerDescriptor {
  uint8_t op;          ///< NpuOpcode
  uint8_t dtype;       ///< kDtypeInt8
  uint8_t arg_count;   ///< entries of args used
  uint8_t flags;       ///< 0
  uint32_t reserved0;
  uint32_t addr[kAddrCount];  ///< input, weights or second input, bias, requant, output
  uint32_t reserved1;
  uint32_t in_shape[4];
  uint32_t in1_shape[4];
  uint32_t out_shape[4];
  int32_t args[kMaxArgs];
  char name[kNameSize];  ///< NUL-padded layer name, for reports
};
static_assert(sizeof(LayerDescriptor) == kDescriptorSize, "descriptor layout");

enum AddrSlot : uint32_t { kAddrInput = 0, kAddrWeights = 1, kAddrBias = 2, kAddrRequant = 3,
                           kAddrOutput = 4 };

}  // namespace socsim::npu
