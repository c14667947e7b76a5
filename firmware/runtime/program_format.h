// Layout constants of the program file (docs/program-format.md describes every byte).
//
// All integers are little-endian; every offset is a 32-bit byte offset from the start of
// the file, so the format is the same for 32- and 64-bit readers.
#pragma once

#include <stdint.h>

namespace socsim::runtime::format {

constexpr uint8_t kMagic[4] = {'S', 'P', 'R', 'G'};
constexpr uint16_t kVersionMajor = 1;
constexpr uint16_t kVersionMinor = 0;

constexpr uint32_t kHeaderSize = 64;
constexpr uint32_t kTensorRecordSize = 64;
constexpr uint32_t kInstructionRecordSize = 32;
constexpr uint32_t kDelegateRecordSize = 16;
constexpr uint32_t kBufferRecordSize = 4;
/// Alignment of the constant segment, of each constant, of delegate blobs and of planned
/// tensor offsets; also the alignment the loader requires of the file's address in memory.
constexpr uint32_t kDataAlignment = 16;
/// Alignment of tables and of 32-bit arrays (tensor ids, arguments, per-channel params).
constexpr uint32_t kTableAlignment = 4;
constexpr uint32_t kMaxNameLength = 63;
constexpr uint32_t kNoBuffer = 0xFFFFFFFFu;

// Header field offsets.
constexpr uint32_t kHdrMagic = 0x00;
constexpr uint32_t kHdrVersionMajor = 0x04;
constexpr uint32_t kHdrVersionMinor = 0x06;
constexpr uint32_t kHdrFileSize = 0x08;
constexpr uint32_t kHdrFlags = 0x0C;
constexpr uint32_t kHdrTensorsOffset = 0x10;
constexpr uint32_t kHdrTensorCount = 0x14;
constexpr uint32_t kHdrInstructionsOffset = 0x18;
constexpr uint32_t kHdrInstructionCount = 0x1C;
constexpr uint32_t kHdrBuffersOffset = 0x20;
constexpr uint32_t kHdrBufferCount = 0x24;
constexpr uint32_t kHdrDelegatesOffset = 0x28;
constexpr uint32_t kHdrDelegateCount = 0x2C;
constexpr uint32_t kHdrIoOffset = 0x30;
constexpr uint32_t kHdrInputCount = 0x34;
constexpr uint32_t kHdrOutputCount = 0x36;
constexpr uint32_t kHdrDataOffset = 0x38;
constexpr uint32_t kHdrDataSize = 0x3C;

// Tensor record field offsets.
constexpr uint32_t kTenDtype = 0x00;
constexpr uint32_t kTenRank = 0x01;
constexpr uint32_t kTenStorage = 0x02;
constexpr uint32_t kTenQuantKind = 0x03;
constexpr uint32_t kTenDims = 0x04;  // u32[6]
constexpr uint32_t kTenNbytes = 0x1C;
constexpr uint32_t kTenBuffer = 0x20;
constexpr uint32_t kTenOffset = 0x24;
constexpr uint32_t kTenScale = 0x28;
constexpr uint32_t kTenZeroPoint = 0x2C;
constexpr uint32_t kTenQuantAxis = 0x30;
constexpr uint32_t kTenChannels = 0x34;
constexpr uint32_t kTenScalesOffset = 0x38;
constexpr uint32_t kTenZeroPointsOffset = 0x3C;

constexpr uint8_t kStoragePlanned = 0;
constexpr uint8_t kStorageConstant = 1;

// Instruction record field offsets.
constexpr uint32_t kInsKind = 0x00;
constexpr uint32_t kInsInputCount = 0x01;
constexpr uint32_t kInsOutputCount = 0x02;
constexpr uint32_t kInsNameOffset = 0x04;
constexpr uint32_t kInsNameLength = 0x08;
constexpr uint32_t kInsTensorsOffset = 0x0C;
constexpr uint32_t kInsArgsOffset = 0x10;
constexpr uint32_t kInsArgCount = 0x14;
constexpr uint32_t kInsDelegateIndex = 0x18;

constexpr uint8_t kInstructionKernel = 1;
constexpr uint8_t kInstructionDelegate = 2;

// Delegate record field offsets.
constexpr uint32_t kDelIdOffset = 0x00;
constexpr uint32_t kDelIdLength = 0x04;
constexpr uint32_t kDelBlobOffset = 0x08;
constexpr uint32_t kDelBlobSize = 0x0C;

}  // namespace socsim::runtime::format
