// ExecuTorch program files (.pte): the file-level reader.
//
// A .pte file is a FlatBuffer with the identifier "ET12" at offset 4, optionally followed by
// segments (constant data, delegate blobs) that an extended header "eh00" at offset 8
// locates. PteProgram::load checks the header, the extended header, the root table, the
// segment table, the constant segment's offsets table and the first execution plan's tables;
// PteMethod (pte_method.h) reads the values and instructions, again checking every index.
// Nothing is copied: the program refers to the file bytes, which the caller keeps alive.
// docs/executorch.md describes the format as this reader sees it and what it accepts.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "firmware/runtime/error.h"
#include "firmware/runtime/pte_flatbuffer.h"

namespace socsim::runtime {

/// Which field of a .pte file a load error is about (for one-line messages).
struct PteDiagnostics {
  const char* field = nullptr;   ///< e.g. "Tensor.sizes", "KernelCall.args"
  uint32_t index = 0xFFFFFFFFu;  ///< the value, instruction, segment... index, if any
  const char* name = nullptr;    ///< an operator name or backend id (NUL-terminated)
  uint32_t name_length = 0;
};

/// Records `field` (and `index`) in `diag` when `error` is not kOk; returns `error`.
inline Error pte_fail(PteDiagnostics* diag, Error error, const char* field,
                      uint32_t index = 0xFFFFFFFFu) {
  if (error != Error::kOk && diag != nullptr && diag->field == nullptr) {
    diag->field = field;
    diag->index = index;
  }
  return error;
}

class PteProgram {
 public:
  PteProgram() = default;

  /// True when `size` bytes at `data` carry the .pte identifier (any version "ETxx").
  static bool has_identifier(const void* data, size_t size);
  /// Checks the file (see the header comment). Errors: kProgramBadMagic (no "ET" identifier),
  /// kProgramBadVersion (another identifier version or Program.version), kProgramTruncated,
  /// kProgramOutOfBounds, kProgramMisaligned, kNotSupported; `diag` names the field.
  static Result<PteProgram> load(const void* data, size_t size, PteDiagnostics* diag = nullptr);

  /// Planned buffers: memory id 1..N (id 0 is reserved by the format).
  uint32_t num_memory_planned_buffers() const {
    return buffer_sizes_.size() > 0 ? buffer_sizes_.size() - 1 : 0;
  }
  /// Size of planned buffer `index` (memory id index + 1).
  uint32_t memory_planned_buffer_size(uint32_t index) const;

  const pte::FbTable& plan() const { return plan_; }
  const pte::FbVector& values() const { return values_; }
  const pte::FbVector& inputs() const { return inputs_; }
  const pte::FbVector& outputs() const { return outputs_; }
  const pte::FbVector& chains() const { return chains_; }
  const pte::FbVector& operators() const { return operators_; }
  const pte::FbVector& delegates() const { return delegates_; }
  const pte::FbBuffer& file() const { return file_; }

  /// The bytes of constant buffer `index` (Tensor.data_buffer_idx): from the constant
  /// segment's offsets table, or the inline constant_buffer table of older files. `nbytes`
  /// must fit between the entry's offset and the next one (or the segment's end).
  Error constant_data(uint32_t index, uint32_t nbytes, const uint8_t** data) const;
  /// Segment `index`: its bytes inside the file.
  Error segment(uint32_t index, const uint8_t** data, uint32_t* size) const;
  /// Inline delegate data `index` (Program.backend_delegate_data).
  Error inline_delegate_data(uint32_t index, const uint8_t** data, uint32_t* size) const;
  /// The segment that Program.named_data names `key` (NUL-terminated); *data = nullptr and
  /// kOk when no entry has that key.
  Error named_segment(const char* key, const uint8_t** data, uint32_t* size) const;

 private:
  Error verify_rest(PteDiagnostics* diag) const;
  // The steps of load.
  Error read_extended_header(PteDiagnostics* diag);
  Error read_segments(PteDiagnostics* diag);
  Error read_constant_segment(PteDiagnostics* diag);
  Error read_plan(PteDiagnostics* diag);

  pte::FbBuffer file_;  ///< the whole file
  pte::FbBuffer flat_;  ///< the FlatBuffer part
  uint64_t segment_base_ = 0;
  uint64_t segment_data_size_ = 0;
  pte::FbTable root_;
  pte::FbTable plan_;
  pte::FbVector segments_;
  pte::FbVector constant_buffer_;
  pte::FbVector delegate_data_;
  uint32_t constant_segment_ = 0xFFFFFFFFu;  ///< segment index of the constants, if any
  pte::FbVector constant_offsets_;
  pte::FbVector values_, inputs_, outputs_, chains_, operators_, delegates_;
  pte::FbVector buffer_sizes_;
};

/// Field slots of the .pte tables (their order in the format's schema; docs/executorch.md).
namespace pte_slot {
// Program
constexpr uint32_t kProgramVersion = 0, kProgramPlans = 1, kProgramConstantBuffer = 2,
                   kProgramDelegateData = 3, kProgramSegments = 4, kProgramConstantSegment = 5;
// ExecutionPlan
constexpr uint32_t kPlanName = 0, kPlanValues = 2, kPlanInputs = 3, kPlanOutputs = 4,
                   kPlanChains = 5, kPlanOperators = 6, kPlanDelegates = 7, kPlanBufferSizes = 8;
// Chain
constexpr uint32_t kChainInstructions = 2;
// Instruction: a union (type, then value)
constexpr uint32_t kInstructionType = 0, kInstructionValue = 1;
// KernelCall, DelegateCall, MoveCall, JumpFalseCall, FreeCall: two (or one) fields each
constexpr uint32_t kCallFirst = 0, kCallSecond = 1;
// Operator
constexpr uint32_t kOperatorName = 0, kOperatorOverload = 1;
// EValue: a union
constexpr uint32_t kValueType = 0, kValueValue = 1;
// Tensor
constexpr uint32_t kTensorScalarType = 0, kTensorStorageOffset = 1, kTensorSizes = 2,
                   kTensorDimOrder = 3, kTensorDataBuffer = 5, kTensorAllocation = 6,
                   kTensorShapeDynamism = 8, kTensorExtraInfo = 9;
// ExtraTensorInfo
constexpr uint32_t kExtraMutableSegment = 0, kExtraName = 1, kExtraLocation = 2;
// AllocationDetails
constexpr uint32_t kAllocMemoryId = 0, kAllocOffsetLow = 1, kAllocOffsetHigh = 2;
// BackendDelegate, BackendDelegateDataReference, CompileSpec
constexpr uint32_t kDelegateId = 0, kDelegateProcessed = 1, kDelegateCompileSpecs = 2;
constexpr uint32_t kReferenceLocation = 0, kReferenceIndex = 1;
constexpr uint32_t kSpecKey = 0, kSpecValue = 1;
// Buffer, BackendDelegateInlineData (one vector), DataSegment, SubsegmentOffsets
constexpr uint32_t kBytesData = 0;
constexpr uint32_t kSegmentOffset = 0, kSegmentSize = 1;
constexpr uint32_t kSubsegmentIndex = 0, kSubsegmentOffsets = 1;
}  // namespace pte_slot

/// The union tags of an EValue.
enum class PteValueKind : uint8_t {
  kNone = 0,  ///< absent (invalid in a file)
  kNull = 1,
  kInt = 2,
  kBool = 3,
  kDouble = 4,
  kTensor = 5,
  kString = 6,
  kIntList = 7,
  kDoubleList = 8,
  kBoolList = 9,
  kTensorList = 10,
  kOptionalTensorList = 11,
};

/// The union tags of an instruction.
enum class PteInstructionKind : uint8_t {
  kKernelCall = 1,
  kDelegateCall = 2,
  kMoveCall = 3,
  kJumpFalseCall = 4,
  kFreeCall = 5,
};

/// ExecuTorch's element type codes (the format's ScalarType).
enum class PteScalarType : int8_t {
  kByte = 0,  ///< uint8
  kChar = 1,  ///< int8
  kShort = 2,
  kInt = 3,
  kLong = 4,
  kHalf = 5,
  kFloat = 6,
  kDouble = 7,
  kBool = 11,
};

/// Bytes per element of an ExecuTorch element type; 0 for a type this runtime does not read.
uint32_t pte_element_size(int8_t type);
/// "float32", "int64"... for messages.
const char* pte_type_name(int8_t type);

}  // namespace socsim::runtime
