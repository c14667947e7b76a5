// Verification and decoding of program files.
//
// Every check compares 64-bit sums against the file size, so no offset/count combination
// can wrap around; loops run over counts that were first bounded by the file size.
#include "firmware/runtime/program.h"

#include <string.h>

#include "firmware/runtime/profiling.h"
#include "firmware/runtime/program_format.h"

namespace socsim::runtime {
namespace {

namespace fmt = format;

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
  } else if (reinterpret_cast<uintptr_t>(bytes) % fmt::kDataAlignment != 0) {
    error = Error::kProgramMisaligned;
  } else if (size < fmt::kHeaderSize) {
    error = Error::kProgramTruncated;
  } else if (memcmp(bytes + fmt::kHdrMagic, fmt::kMagic, sizeof(fmt::kMagic)) != 0) {
    error = Error::kProgramBadMagic;
  } else if (rd_u16(bytes + fmt::kHdrVersionMajor) != fmt::kVersionMajor ||
             rd_u32(bytes + fmt::kHdrFlags) != 0) {
    error = Error::kProgramBadVersion;
  } else {
    const uint32_t file_size = rd_u32(bytes + fmt::kHdrFileSize);
    if (file_size > size) {
      error = Error::kProgramTruncated;
    } else if (file_size < fmt::kHeaderSize) {
      error = Error::kProgramOutOfBounds;
    } else {
      program.data_ = bytes;
      program.file_size_ = file_size;
      program.tensors_offset_ = rd_u32(bytes + fmt::kHdrTensorsOffset);
      program.tensor_count_ = rd_u32(bytes + fmt::kHdrTensorCount);
      program.instructions_offset_ = rd_u32(bytes + fmt::kHdrInstructionsOffset);
      program.instruction_count_ = rd_u32(bytes + fmt::kHdrInstructionCount);
      program.buffers_offset_ = rd_u32(bytes + fmt::kHdrBuffersOffset);
      program.buffer_count_ = rd_u32(bytes + fmt::kHdrBufferCount);
      program.delegates_offset_ = rd_u32(bytes + fmt::kHdrDelegatesOffset);
      program.delegate_count_ = rd_u32(bytes + fmt::kHdrDelegateCount);
      program.io_offset_ = rd_u32(bytes + fmt::kHdrIoOffset);
      program.input_count_ = rd_u16(bytes + fmt::kHdrInputCount);
      program.output_count_ = rd_u16(bytes + fmt::kHdrOutputCount);
      program.constants_offset_ = rd_u32(bytes + fmt::kHdrDataOffset);
      program.constants_size_ = rd_u32(bytes + fmt::kHdrDataSize);
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
      {tensors_offset_, tensor_count_, fmt::kTensorRecordSize},
      {instructions_offset_, instruction_count_, fmt::kInstructionRecordSize},
      {buffers_offset_, buffer_count_, fmt::kBufferRecordSize},
      {delegates_offset_, delegate_count_, fmt::kDelegateRecordSize},
      {io_offset_, input_count_ + output_count_, 4},
  };
  for (const Table& t : tables) {
    SOCSIM_RT_CHECK(table_fits(file_size_, t.offset, t.count, t.record),
                    Error::kProgramOutOfBounds);
    SOCSIM_RT_CHECK(t.offset % fmt::kTableAlignment == 0, Error::kProgramMisaligned);
  }
  SOCSIM_RT_CHECK(table_fits(file_size_, constants_offset_, constants_size_, 1),
                  Error::kProgramOutOfBounds);
  SOCSIM_RT_CHECK(constants_offset_ % fmt::kDataAlignment == 0, Error::kProgramMisaligned);

  for (uint32_t i = 0; i < tensor_count_; ++i) SOCSIM_RT_TRY(verify_tensor(i));
  for (uint32_t i = 0; i < input_count_ + output_count_; ++i) {
    const uint32_t id = rd_u32(data_ + io_offset_ + 4 * i);
    SOCSIM_RT_CHECK(id < tensor_count_, Error::kProgramBadTensor);
    // Inputs are written by the application and outputs by kernels: never the file.
    SOCSIM_RT_CHECK(tensor(id).storage == fmt::kStoragePlanned, Error::kProgramBadTensor);
  }
  for (uint32_t i = 0; i < delegate_count_; ++i) SOCSIM_RT_TRY(verify_delegate(i));
  for (uint32_t i = 0; i < instruction_count_; ++i) SOCSIM_RT_TRY(verify_instruction(i));
  return Error::kOk;
}

Error Program::verify_string(uint32_t offset, uint32_t length) const {
  SOCSIM_RT_CHECK(length >= 1 && length <= fmt::kMaxNameLength, Error::kProgramOutOfBounds);
  SOCSIM_RT_CHECK(table_fits(file_size_, offset, length + 1, 1), Error::kProgramOutOfBounds);
  SOCSIM_RT_CHECK(data_[offset + length] == 0, Error::kProgramOutOfBounds);
  SOCSIM_RT_CHECK(memchr(data_ + offset, 0, length) == nullptr, Error::kProgramOutOfBounds);
  return Error::kOk;
}

Error Program::verify_tensor(uint32_t index) const {
  const uint8_t* rec = data_ + tensors_offset_ + index * fmt::kTensorRecordSize;
  SOCSIM_RT_CHECK(valid_dtype(rec[fmt::kTenDtype]), Error::kProgramBadTensor);
  const TensorRecord t = tensor(index);
  SOCSIM_RT_CHECK(rec[fmt::kTenRank] <= kMaxRank, Error::kProgramBadTensor);
  SOCSIM_RT_CHECK(rec[fmt::kTenQuantKind] <= static_cast<uint8_t>(QuantKind::kPerChannel),
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
  if (t.storage == fmt::kStoragePlanned) {
    SOCSIM_RT_CHECK(t.buffer < buffer_count_, Error::kProgramBadMemoryPlan);
    SOCSIM_RT_CHECK(uint64_t{t.offset} + t.nbytes <= buffer_size(t.buffer),
                    Error::kProgramBadMemoryPlan);
    SOCSIM_RT_CHECK(t.offset % fmt::kDataAlignment == 0, Error::kProgramMisaligned);
  } else if (t.storage == fmt::kStorageConstant) {
    SOCSIM_RT_CHECK(t.buffer == fmt::kNoBuffer, Error::kProgramBadTensor);
    SOCSIM_RT_CHECK(uint64_t{t.offset} + t.nbytes <= constants_size_, Error::kProgramOutOfBounds);
    SOCSIM_RT_CHECK(t.offset % fmt::kDataAlignment == 0, Error::kProgramMisaligned);
  } else {
    return Error::kProgramBadTensor;
  }
  if (t.quant_kind == QuantKind::kPerTensor) {
    SOCSIM_RT_CHECK(t.scale > 0.0f && t.scale < 3.0e38f, Error::kProgramBadTensor);
  } else if (t.quant_kind == QuantKind::kPerChannel) {
    SOCSIM_RT_CHECK(t.quant_axis < t.rank, Error::kProgramBadTensor);
    SOCSIM_RT_CHECK(t.channels == t.dims[t.quant_axis], Error::kProgramBadTensor);
    SOCSIM_RT_CHECK(table_fits(file_size_, t.scales_offset, t.channels, 4) &&
                        table_fits(file_size_, t.zero_points_offset, t.channels, 4),
                    Error::kProgramOutOfBounds);
    SOCSIM_RT_CHECK(t.scales_offset % 4 == 0 && t.zero_points_offset % 4 == 0,
                    Error::kProgramMisaligned);
    for (uint32_t c = 0; c < t.channels; ++c) {
      const float s = rd_f32(data_ + t.scales_offset + 4 * c);
      SOCSIM_RT_CHECK(s > 0.0f && s < 3.0e38f, Error::kProgramBadTensor);
    }
  }
  return Error::kOk;
}

Error Program::verify_instruction(uint32_t index) const {
  const uint8_t* rec = data_ + instructions_offset_ + index * fmt::kInstructionRecordSize;
  const uint8_t kind = rec[fmt::kInsKind];
  const uint32_t n_in = rec[fmt::kInsInputCount];
  const uint32_t n_out = rec[fmt::kInsOutputCount];
  const uint32_t ids_offset = rd_u32(rec + fmt::kInsTensorsOffset);
  const uint32_t args_offset = rd_u32(rec + fmt::kInsArgsOffset);
  const uint32_t arg_count = rd_u32(rec + fmt::kInsArgCount);
  SOCSIM_RT_CHECK(kind == fmt::kInstructionKernel || kind == fmt::kInstructionDelegate,
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
      SOCSIM_RT_CHECK(tensor(id).storage == fmt::kStoragePlanned, Error::kProgramBadInstruction);
    }
  }
  if (kind == fmt::kInstructionKernel) {
    SOCSIM_RT_TRY(
        verify_string(rd_u32(rec + fmt::kInsNameOffset), rd_u32(rec + fmt::kInsNameLength)));
  } else {
    SOCSIM_RT_CHECK(rd_u32(rec + fmt::kInsDelegateIndex) < delegate_count_,
                    Error::kProgramBadInstruction);
  }
  return Error::kOk;
}

Error Program::verify_delegate(uint32_t index) const {
  const DelegateRecord d = delegate(index);
  const uint8_t* rec = data_ + delegates_offset_ + index * fmt::kDelegateRecordSize;
  const uint32_t blob_offset = rd_u32(rec + fmt::kDelBlobOffset);
  SOCSIM_RT_TRY(verify_string(rd_u32(rec + fmt::kDelIdOffset), d.backend_id_length));
  SOCSIM_RT_CHECK(table_fits(file_size_, blob_offset, d.blob_size, 1), Error::kProgramOutOfBounds);
  SOCSIM_RT_CHECK(blob_offset % fmt::kDataAlignment == 0, Error::kProgramMisaligned);
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
  return rd_u32(data_ + buffers_offset_ + fmt::kBufferRecordSize * index);
}

TensorRecord Program::tensor(uint32_t index) const {
  const uint8_t* rec = data_ + tensors_offset_ + index * fmt::kTensorRecordSize;
  TensorRecord t;
  t.dtype = static_cast<ScalarType>(rec[fmt::kTenDtype]);
  t.rank = rec[fmt::kTenRank] <= kMaxRank ? rec[fmt::kTenRank] : kMaxRank;
  t.storage = rec[fmt::kTenStorage];
  t.quant_kind = static_cast<QuantKind>(rec[fmt::kTenQuantKind]);
  for (uint32_t d = 0; d < kMaxRank; ++d) t.dims[d] = rd_u32(rec + fmt::kTenDims + 4 * d);
  t.nbytes = rd_u32(rec + fmt::kTenNbytes);
  t.buffer = rd_u32(rec + fmt::kTenBuffer);
  t.offset = rd_u32(rec + fmt::kTenOffset);
  t.scale = rd_f32(rec + fmt::kTenScale);
  t.zero_point = static_cast<int32_t>(rd_u32(rec + fmt::kTenZeroPoint));
  t.quant_axis = rd_u32(rec + fmt::kTenQuantAxis);
  t.channels = rd_u32(rec + fmt::kTenChannels);
  t.scales_offset = rd_u32(rec + fmt::kTenScalesOffset);
  t.zero_points_offset = rd_u32(rec + fmt::kTenZeroPointsOffset);
  return t;
}

InstructionRecord Program::instruction(uint32_t index) const {
  const uint8_t* rec = data_ + instructions_offset_ + index * fmt::kInstructionRecordSize;
  InstructionRecord ins;
  ins.kind = rec[fmt::kInsKind];
  ins.input_count = rec[fmt::kInsInputCount];
  ins.output_count = rec[fmt::kInsOutputCount];
  if (ins.kind == fmt::kInstructionKernel) {
    ins.name = reinterpret_cast<const char*>(data_ + rd_u32(rec + fmt::kInsNameOffset));
    ins.name_length = rd_u32(rec + fmt::kInsNameLength);
  }
  ins.tensor_ids = reinterpret_cast<const uint32_t*>(data_ + rd_u32(rec + fmt::kInsTensorsOffset));
  ins.args = reinterpret_cast<const int32_t*>(data_ + rd_u32(rec + fmt::kInsArgsOffset));
  ins.arg_count = rd_u32(rec + fmt::kInsArgCount);
  ins.delegate_index = rd_u32(rec + fmt::kInsDelegateIndex);
  return ins;
}

DelegateRecord Program::delegate(uint32_t index) const {
  const uint8_t* rec = data_ + delegates_offset_ + index * fmt::kDelegateRecordSize;
  DelegateRecord d;
  d.backend_id = reinterpret_cast<const char*>(data_ + rd_u32(rec + fmt::kDelIdOffset));
  d.backend_id_length = rd_u32(rec + fmt::kDelIdLength);
  d.blob = data_ + rd_u32(rec + fmt::kDelBlobOffset);
  d.blob_size = rd_u32(rec + fmt::kDelBlobSize);
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
