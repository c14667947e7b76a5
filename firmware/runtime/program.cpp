// Verification and decoding of program files.
//
// Every check compares 64-bit sums against the file size, so no offset/count combination
// can wrap around; loops run over counts that were first bounded by the file size.
#include "firmware/runtime/program.h"

#include <string.h>

#include "firmware/abi/generated/program_layout.h"
#include "firmware/runtime/profiling.h"

namespace socsim::runtime {
namespace {

namespace abi = ::socsim::abi;
namespace hdr = abi::program_header;
namespace ten = abi::tensor_record;
namespace insn = abi::instruction_record;
namespace del = abi::delegate_record;

// The runtime's types carry the program file's codes (firmware/abi/generated/).
static_assert(static_cast<uint8_t>(ScalarType::kFloat32) == abi::kDtypeFloat32 &&
                  static_cast<uint8_t>(ScalarType::kInt8) == abi::kDtypeInt8 &&
                  static_cast<uint8_t>(ScalarType::kInt32) == abi::kDtypeInt32 &&
                  static_cast<uint8_t>(ScalarType::kUInt8) == abi::kDtypeUint8,
              "dtype codes");
static_assert(static_cast<uint8_t>(QuantKind::kNone) == abi::kQuantNone &&
                  static_cast<uint8_t>(QuantKind::kPerTensor) == abi::kQuantPerTensor &&
                  static_cast<uint8_t>(QuantKind::kPerChannel) == abi::kQuantPerChannel,
              "quantisation codes");
static_assert(kMaxRank == abi::kMaxRank, "rank");

uint32_t rd_u32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}
uint16_t rd_u16(const uint8_t* p) {
  return static_cast<uint16_t>(p[0] | (p[1] << 8));
}
float rd_f32(const uint8_t* p) {
  const uint32_t bits = rd_u32(p);
  float value;
  memcpy(&value, &bits, sizeof(value));
  return value;
}

/// The bits of a float32 scale s with 0 < s < 3.0e38 (positive, finite, with room for a
/// product), decided on the bits: positive floats order as their bit patterns, and NaNs, the
/// infinities, zeros and negative values all fall outside [1, bits(3.0e38) - 1]. Without an
/// FPU the float compares are library calls, some 60 cycles per scale of a per-channel
/// table.
bool valid_scale_bits(uint32_t bits) {
  constexpr uint32_t kLimit = 0x7F61B1E6u;  // 3.0e38f
  return bits - 1u < kLimit - 1u;
}

bool valid_dtype(uint8_t code) {
  return code >= static_cast<uint8_t>(ScalarType::kFloat32) &&
         code <= static_cast<uint8_t>(ScalarType::kUInt8);
}

}  // namespace

// ---- loading ----------------------------------------------------------------------------

Result<Program> Program::load(const void* data, size_t size) {
  profile_begin(ProfileEvent::kProgramLoad, 0, "program_load", static_cast<uint32_t>(size));
  Program program;
  Error error = Error::kOk;
  const auto* bytes = static_cast<const uint8_t*>(data);
  if (bytes == nullptr) {
    error = Error::kInvalidArgument;
  } else if (reinterpret_cast<uintptr_t>(bytes) % abi::kDataAlignment != 0) {
    error = Error::kProgramMisaligned;
  } else if (size < hdr::kSize) {
    error = Error::kProgramTruncated;
  } else if (memcmp(bytes + hdr::kMagic, abi::kProgramMagic, sizeof(abi::kProgramMagic)) != 0) {
    error = Error::kProgramBadMagic;
  } else if (rd_u16(bytes + hdr::kVersionMajor) != abi::kProgramVersionMajor ||
             rd_u32(bytes + hdr::kFlags) != 0) {
    error = Error::kProgramBadVersion;
  } else {
    const uint32_t file_size = rd_u32(bytes + hdr::kFileSize);
    if (file_size > size) {
      error = Error::kProgramTruncated;
    } else if (file_size < hdr::kSize) {
      error = Error::kProgramOutOfBounds;
    } else {
      program.data_ = bytes;
      program.file_size_ = file_size;
      program.tensors_offset_ = rd_u32(bytes + hdr::kTensorsOffset);
      program.tensor_count_ = rd_u32(bytes + hdr::kTensorCount);
      program.instructions_offset_ = rd_u32(bytes + hdr::kInstructionsOffset);
      program.instruction_count_ = rd_u32(bytes + hdr::kInstructionCount);
      program.buffers_offset_ = rd_u32(bytes + hdr::kBuffersOffset);
      program.buffer_count_ = rd_u32(bytes + hdr::kBufferCount);
      program.delegates_offset_ = rd_u32(bytes + hdr::kDelegatesOffset);
      program.delegate_count_ = rd_u32(bytes + hdr::kDelegateCount);
      program.io_offset_ = rd_u32(bytes + hdr::kIoOffset);
      program.input_count_ = rd_u16(bytes + hdr::kInputCount);
      program.output_count_ = rd_u16(bytes + hdr::kOutputCount);
      program.constants_offset_ = rd_u32(bytes + hdr::kDataOffset);
      program.constants_size_ = rd_u32(bytes + hdr::kDataSize);
      error = program.verify();
    }
  }
  profile_end(ProfileEvent::kProgramLoad, 0, "program_load", static_cast<uint32_t>(size));
  if (error != Error::kOk) return error;
  return program;
}

namespace {

/// True when [offset, offset + count * record) lies inside a file of `file_size` bytes.
bool table_fits(uint32_t file_size, uint32_t offset, uint32_t count, uint32_t record) {
  const uint64_t end = uint64_t{offset} + uint64_t{count} * record;
  return end <= file_size;
}

}  // namespace

Error Program::verify() const {
  struct Table {
    uint32_t offset, count, record;
  };
  const Table tables[] = {
      {tensors_offset_, tensor_count_, ten::kSize},
      {instructions_offset_, instruction_count_, insn::kSize},
      {buffers_offset_, buffer_count_, abi::buffer_record::kSize},
      {delegates_offset_, delegate_count_, del::kSize},
      {io_offset_, input_count_ + output_count_, sizeof(uint32_t)},  // tensor ids
  };
  for (const Table& t : tables) {
    SOCSIM_RT_CHECK(table_fits(file_size_, t.offset, t.count, t.record),
                    Error::kProgramOutOfBounds);
    SOCSIM_RT_CHECK(t.offset % abi::kTableAlignment == 0, Error::kProgramMisaligned);
  }
  SOCSIM_RT_CHECK(table_fits(file_size_, constants_offset_, constants_size_, 1),
                  Error::kProgramOutOfBounds);
  SOCSIM_RT_CHECK(constants_offset_ % abi::kDataAlignment == 0, Error::kProgramMisaligned);

  for (uint32_t i = 0; i < tensor_count_; ++i) SOCSIM_RT_TRY(verify_tensor(i));
  for (uint32_t i = 0; i < input_count_ + output_count_; ++i) {
    const uint32_t id = rd_u32(data_ + io_offset_ + 4 * i);
    SOCSIM_RT_CHECK(id < tensor_count_, Error::kProgramBadTensor);
    // Inputs are written by the application and outputs by kernels: never the file.
    SOCSIM_RT_CHECK(tensor(id).storage == abi::kStoragePlanned, Error::kProgramBadTensor);
  }
  for (uint32_t i = 0; i < delegate_count_; ++i) SOCSIM_RT_TRY(verify_delegate(i));
  for (uint32_t i = 0; i < instruction_count_; ++i) SOCSIM_RT_TRY(verify_instruction(i));
  return Error::kOk;
}

Error Program::verify_string(uint32_t offset, uint32_t length) const {
  SOCSIM_RT_CHECK(length >= 1 && length <= abi::kMaxNameLength, Error::kProgramOutOfBounds);
  SOCSIM_RT_CHECK(table_fits(file_size_, offset, length + 1, 1), Error::kProgramOutOfBounds);
  SOCSIM_RT_CHECK(data_[offset + length] == 0, Error::kProgramOutOfBounds);
  SOCSIM_RT_CHECK(memchr(data_ + offset, 0, length) == nullptr, Error::kProgramOutOfBounds);
  return Error::kOk;
}

Error Program::verify_tensor(uint32_t index) const {
  const uint8_t* rec = data_ + tensors_offset_ + index * ten::kSize;
  SOCSIM_RT_CHECK(valid_dtype(rec[ten::kDtype]), Error::kProgramBadTensor);
  const TensorRecord t = tensor(index);
  SOCSIM_RT_CHECK(rec[ten::kRank] <= kMaxRank, Error::kProgramBadTensor);
  SOCSIM_RT_CHECK(rec[ten::kQuant] <= static_cast<uint8_t>(QuantKind::kPerChannel),
                  Error::kProgramBadTensor);
  uint64_t numel = 1;
  for (uint32_t d = 0; d < kMaxRank; ++d) {
    if (d >= t.rank) {
      SOCSIM_RT_CHECK(t.dims[d] == 0, Error::kProgramBadTensor);
      continue;
    }
    SOCSIM_RT_CHECK(t.dims[d] <= 0x7FFFFFFFu, Error::kProgramBadTensor);
    numel *= t.dims[d];
    SOCSIM_RT_CHECK(numel <= 0xFFFFFFFFu, Error::kProgramBadTensor);
  }
  // Below 2 GiB, so kernels may index with int32 arithmetic.
  SOCSIM_RT_CHECK(numel * element_size(t.dtype) == t.nbytes && t.nbytes <= 0x7FFFFFFFu,
                  Error::kProgramBadTensor);
  if (t.storage == abi::kStoragePlanned) {
    SOCSIM_RT_CHECK(t.buffer < buffer_count_, Error::kProgramBadMemoryPlan);
    SOCSIM_RT_CHECK(uint64_t{t.offset} + t.nbytes <= buffer_size(t.buffer),
                    Error::kProgramBadMemoryPlan);
    SOCSIM_RT_CHECK(t.offset % abi::kDataAlignment == 0, Error::kProgramMisaligned);
  } else if (t.storage == abi::kStorageConstant) {
    SOCSIM_RT_CHECK(t.buffer == abi::kNoBuffer, Error::kProgramBadTensor);
    SOCSIM_RT_CHECK(uint64_t{t.offset} + t.nbytes <= constants_size_, Error::kProgramOutOfBounds);
    SOCSIM_RT_CHECK(t.offset % abi::kDataAlignment == 0, Error::kProgramMisaligned);
  } else {
    return Error::kProgramBadTensor;
  }
  if (t.quant_kind == QuantKind::kPerTensor) {
    uint32_t bits;
    memcpy(&bits, &t.scale, sizeof bits);
    SOCSIM_RT_CHECK(valid_scale_bits(bits), Error::kProgramBadTensor);
  } else if (t.quant_kind == QuantKind::kPerChannel) {
    SOCSIM_RT_CHECK(t.quant_axis < t.rank, Error::kProgramBadTensor);
    SOCSIM_RT_CHECK(t.channels == t.dims[t.quant_axis], Error::kProgramBadTensor);
    SOCSIM_RT_CHECK(table_fits(file_size_, t.scales_offset, t.channels, 4) &&
                        table_fits(file_size_, t.zero_points_offset, t.channels, 4),
                    Error::kProgramOutOfBounds);
    SOCSIM_RT_CHECK(t.scales_offset % 4 == 0 && t.zero_points_offset % 4 == 0,
                    Error::kProgramMisaligned);
    for (uint32_t c = 0; c < t.channels; ++c) {
      SOCSIM_RT_CHECK(valid_scale_bits(rd_u32(data_ + t.scales_offset + 4 * c)),
                      Error::kProgramBadTensor);
    }
  }
  return Error::kOk;
}

Error Program::verify_instruction(uint32_t index) const {
  const uint8_t* rec = data_ + instructions_offset_ + index * insn::kSize;
  const uint8_t kind = rec[insn::kKind];
  const uint32_t n_in = rec[insn::kInputCount];
  const uint32_t n_out = rec[insn::kOutputCount];
  const uint32_t ids_offset = rd_u32(rec + insn::kTensorsOffset);
  const uint32_t args_offset = rd_u32(rec + insn::kArgsOffset);
  const uint32_t arg_count = rd_u32(rec + insn::kArgCount);
  SOCSIM_RT_CHECK(kind == abi::kInstructionKernel || kind == abi::kInstructionDelegate,
                  Error::kProgramBadInstruction);
  SOCSIM_RT_CHECK(n_out >= 1, Error::kProgramBadInstruction);
  SOCSIM_RT_CHECK(table_fits(file_size_, ids_offset, n_in + n_out, 4) &&
                      table_fits(file_size_, args_offset, arg_count, 4),
                  Error::kProgramOutOfBounds);
  SOCSIM_RT_CHECK(ids_offset % 4 == 0 && args_offset % 4 == 0, Error::kProgramMisaligned);
  for (uint32_t i = 0; i < n_in + n_out; ++i) {
    const uint32_t id = rd_u32(data_ + ids_offset + 4 * i);
    SOCSIM_RT_CHECK(id < tensor_count_, Error::kProgramBadInstruction);
    if (i >= n_in) {
      SOCSIM_RT_CHECK(tensor(id).storage == abi::kStoragePlanned, Error::kProgramBadInstruction);
    }
  }
  if (kind == abi::kInstructionKernel) {
    SOCSIM_RT_TRY(verify_string(rd_u32(rec + insn::kNameOffset), rd_u32(rec + insn::kNameLength)));
  } else {
    SOCSIM_RT_CHECK(rd_u32(rec + insn::kDelegateIndex) < delegate_count_,
                    Error::kProgramBadInstruction);
  }
  return Error::kOk;
}

Error Program::verify_delegate(uint32_t index) const {
  const DelegateRecord d = delegate(index);
  const uint8_t* rec = data_ + delegates_offset_ + index * del::kSize;
  const uint32_t blob_offset = rd_u32(rec + del::kBlobOffset);
  SOCSIM_RT_TRY(verify_string(rd_u32(rec + del::kBackendIdOffset), d.backend_id_length));
  SOCSIM_RT_CHECK(table_fits(file_size_, blob_offset, d.blob_size, 1), Error::kProgramOutOfBounds);
  SOCSIM_RT_CHECK(blob_offset % abi::kDataAlignment == 0, Error::kProgramMisaligned);
  return Error::kOk;
}

// ---- decoding (only after verify) -------------------------------------------------------

uint32_t Program::input_tensor_id(uint32_t index) const {
  return rd_u32(data_ + io_offset_ + 4 * index);
}

uint32_t Program::output_tensor_id(uint32_t index) const {
  return rd_u32(data_ + io_offset_ + 4 * (input_count_ + index));
}

uint32_t Program::buffer_size(uint32_t index) const {
  return rd_u32(data_ + buffers_offset_ + abi::buffer_record::kSize * index);
}

TensorRecord Program::tensor(uint32_t index) const {
  const uint8_t* rec = data_ + tensors_offset_ + index * ten::kSize;
  TensorRecord t;
  t.dtype = static_cast<ScalarType>(rec[ten::kDtype]);
  t.rank = rec[ten::kRank] <= kMaxRank ? rec[ten::kRank] : kMaxRank;
  t.storage = rec[ten::kStorage];
  t.quant_kind = static_cast<QuantKind>(rec[ten::kQuant]);
  for (uint32_t d = 0; d < kMaxRank; ++d) t.dims[d] = rd_u32(rec + ten::kDims + 4 * d);
  t.nbytes = rd_u32(rec + ten::kNbytes);
  t.buffer = rd_u32(rec + ten::kBuffer);
  t.offset = rd_u32(rec + ten::kOffset);
  t.scale = rd_f32(rec + ten::kScale);
  t.zero_point = static_cast<int32_t>(rd_u32(rec + ten::kZeroPoint));
  t.quant_axis = rd_u32(rec + ten::kQuantAxis);
  t.channels = rd_u32(rec + ten::kChannels);
  t.scales_offset = rd_u32(rec + ten::kScalesOffset);
  t.zero_points_offset = rd_u32(rec + ten::kZeroPointsOffset);
  return t;
}

InstructionRecord Program::instruction(uint32_t index) const {
  const uint8_t* rec = data_ + instructions_offset_ + index * insn::kSize;
  InstructionRecord ins;
  ins.kind = rec[insn::kKind];
  ins.input_count = rec[insn::kInputCount];
  ins.output_count = rec[insn::kOutputCount];
  if (ins.kind == abi::kInstructionKernel) {
    ins.name = reinterpret_cast<const char*>(data_ + rd_u32(rec + insn::kNameOffset));
    ins.name_length = rd_u32(rec + insn::kNameLength);
  }
  ins.tensor_ids = reinterpret_cast<const uint32_t*>(data_ + rd_u32(rec + insn::kTensorsOffset));
  ins.args = reinterpret_cast<const int32_t*>(data_ + rd_u32(rec + insn::kArgsOffset));
  ins.arg_count = rd_u32(rec + insn::kArgCount);
  ins.delegate_index = rd_u32(rec + insn::kDelegateIndex);
  return ins;
}

DelegateRecord Program::delegate(uint32_t index) const {
  const uint8_t* rec = data_ + delegates_offset_ + index * del::kSize;
  DelegateRecord d;
  d.backend_id = reinterpret_cast<const char*>(data_ + rd_u32(rec + del::kBackendIdOffset));
  d.backend_id_length = rd_u32(rec + del::kBackendIdLength);
  d.blob = data_ + rd_u32(rec + del::kBlobOffset);
  d.blob_size = rd_u32(rec + del::kBlobSize);
  return d;
}

MethodMeta Program::method_meta() const {
  MethodMeta meta;
  meta.program_ = this;
  return meta;
}

// ---- MethodMeta -------------------------------------------------------------------------

uint32_t MethodMeta::num_inputs() const {
  return program_->input_count();
}
uint32_t MethodMeta::num_outputs() const {
  return program_->output_count();
}
TensorRecord MethodMeta::input_tensor_meta(uint32_t index) const {
  return program_->tensor(program_->input_tensor_id(index));
}
TensorRecord MethodMeta::output_tensor_meta(uint32_t index) const {
  return program_->tensor(program_->output_tensor_id(index));
}
uint32_t MethodMeta::num_memory_planned_buffers() const {
  return program_->buffer_count();
}
uint32_t MethodMeta::memory_planned_buffer_size(uint32_t index) const {
  return program_->buffer_size(index);
}
uint32_t MethodMeta::num_instructions() const {
  return program_->instruction_count();
}
uint32_t MethodMeta::num_delegates() const {
  return program_->delegate_count();
}

}  // namespace socsim::runtime
