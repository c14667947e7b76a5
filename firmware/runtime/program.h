// A verified, read-only view of a program file.
//
// Program::load checks every offset, count, size and cross-reference of the file before
// anything uses it, so later stages (MethodMeta, Method) can read records without checks.
// The program never copies or modifies the file bytes: they may live in ROM or in memory
// the simulator marked read-only. The caller keeps the bytes alive while the Program and
// any Method made from it are used.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "firmware/runtime/error.h"
#include "firmware/runtime/tensor.h"

namespace socsim::runtime {

/// One tensor record, decoded.
struct TensorRecord {
  ScalarType dtype = ScalarType::kFloat32;
  uint32_t rank = 0;
  uint8_t storage = 0;  ///< format::kStoragePlanned or kStorageConstant.
  QuantKind quant_kind = QuantKind::kNone;
  uint32_t dims[kMaxRank] = {};
  uint32_t nbytes = 0;
  uint32_t buffer = 0;  ///< Planned buffer id (planned tensors only).
  uint32_t offset = 0;  ///< In the buffer, or in the constant segment.
  float scale = 0.0f;
  int32_t zero_point = 0;
  uint32_t quant_axis = 0;
  uint32_t channels = 0;
  uint32_t scales_offset = 0;
  uint32_t zero_points_offset = 0;
};

/// One instruction record, decoded.
struct InstructionRecord {
  uint8_t kind = 0;  ///< format::kInstructionKernel or kInstructionDelegate.
  uint32_t input_count = 0;
  uint32_t output_count = 0;
  const char* name = nullptr;  ///< Operator name (kernel calls), NUL-terminated in the file.
  uint32_t name_length = 0;
  const uint32_t* tensor_ids = nullptr;  ///< input_count + output_count ids.
  const int32_t* args = nullptr;
  uint32_t arg_count = 0;
  uint32_t delegate_index = 0;
};

/// One delegate segment, decoded.
struct DelegateRecord {
  const char* backend_id = nullptr;  ///< NUL-terminated in the file.
  uint32_t backend_id_length = 0;
  const uint8_t* blob = nullptr;  ///< 16-byte aligned.
  uint32_t blob_size = 0;
};

/// What an application needs to know to prepare memory and data for a method.
class MethodMeta {
 public:
  MethodMeta() = default;
  uint32_t num_inputs() const;
  uint32_t num_outputs() const;
  TensorRecord input_tensor_meta(uint32_t index) const;
  TensorRecord output_tensor_meta(uint32_t index) const;
  uint32_t num_memory_planned_buffers() const;
  uint32_t memory_planned_buffer_size(uint32_t index) const;
  uint32_t num_instructions() const;
  uint32_t num_delegates() const;

 private:
  friend class Program;
  const class Program* program_ = nullptr;
};

class Program {
 public:
  Program() = default;

  /// Verifies `size` bytes at `data` (which must be 16-byte aligned) as a program file.
  /// Never reads outside [data, data + size) and never loops more than the file's size.
  static Result<Program> load(const void* data, size_t size);

  MethodMeta method_meta() const;

  uint32_t tensor_count() const { return tensor_count_; }
  uint32_t instruction_count() const { return instruction_count_; }
  uint32_t buffer_count() const { return buffer_count_; }
  uint32_t delegate_count() const { return delegate_count_; }
  uint32_t input_count() const { return input_count_; }
  uint32_t output_count() const { return output_count_; }
  uint32_t input_tensor_id(uint32_t index) const;
  uint32_t output_tensor_id(uint32_t index) const;
  uint32_t buffer_size(uint32_t index) const;
  TensorRecord tensor(uint32_t index) const;
  InstructionRecord instruction(uint32_t index) const;
  DelegateRecord delegate(uint32_t index) const;
  /// Address of a constant tensor's bytes or of per-channel arrays (file offset based).
  const uint8_t* bytes() const { return data_; }
  const uint8_t* constant_segment() const { return data_ + constants_offset_; }
  uint32_t file_size() const { return file_size_; }

 private:
  Error verify() const;
  Error verify_tensor(uint32_t index) const;
  Error verify_instruction(uint32_t index) const;
  Error verify_delegate(uint32_t index) const;
  Error verify_string(uint32_t offset, uint32_t length) const;

  const uint8_t* data_ = nullptr;
  uint32_t file_size_ = 0;
  uint32_t tensors_offset_ = 0;
  uint32_t tensor_count_ = 0;
  uint32_t instructions_offset_ = 0;
  uint32_t instruction_count_ = 0;
  uint32_t buffers_offset_ = 0;
  uint32_t buffer_count_ = 0;
  uint32_t delegates_offset_ = 0;
  uint32_t delegate_count_ = 0;
  uint32_t io_offset_ = 0;
  uint32_t input_count_ = 0;
  uint32_t output_count_ = 0;
  uint32_t constants_offset_ = 0;
  uint32_t constants_size_ = 0;
};

}  // namespace socsim::runtime
