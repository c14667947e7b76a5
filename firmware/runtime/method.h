// A method ready to run: tensors bound to memory, kernels resolved, delegates initialised.
//
// Method::load builds everything in the caller's MemoryManager: tensor descriptors, the
// resolved instruction list and delegate handles come from the method allocator; activations
// live in the planned buffers at the offsets the compiler chose; kernels get the temp
// allocator, which is reset after every instruction. A Method owns its delegate handles and
// releases them (backend destroy()) when it is destroyed; it can be moved, not copied. Pool
// memory is never freed: the caller drops the pools after the Method.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "firmware/runtime/backend_registry.h"
#include "firmware/runtime/error.h"
#include "firmware/runtime/kernel_registry.h"
#include "firmware/runtime/memory.h"
#include "firmware/runtime/program.h"
#include "firmware/runtime/tensor.h"

namespace socsim::runtime {

/// Details of a failed load or execute, for messages that name the culprit.
struct MethodDiagnostics {
  uint32_t instruction = 0xFFFFFFFFu;       ///< Failing instruction, if any.
  const char* name = nullptr;               ///< Operator name or backend id (NUL-terminated).
  ScalarType dtype = ScalarType::kFloat32;  ///< Dtype looked up for a missing operator.
};

class Method {
 public:
  Method() = default;
  Method(Method&& other);
  Method& operator=(Method&& other);
  Method(const Method&) = delete;
  Method& operator=(const Method&) = delete;
  /// Releases the delegate handles (delegates_ does).
  ~Method() = default;

  /// Binds `program` to `memory` and runs init: delegate init through the backend registry,
  /// then kernel resolution by name and dtype. Fails with kOperatorMissing (after checking
  /// every instruction) if a kernel is absent; `diagnostics`, if given, names the first one.
  static Result<Method> load(const Program& program, const MemoryManager& memory,
                             MethodDiagnostics* diagnostics = nullptr);

  uint32_t inputs_size() const { return input_count_; }
  uint32_t outputs_size() const { return output_count_; }
  Tensor* input(uint32_t index) const { return inputs_[index]; }
  Tensor* output(uint32_t index) const { return outputs_[index]; }
  /// Copies `nbytes` (must equal the input's size) into input `index`.
  Error set_input(uint32_t index, const void* data, size_t nbytes);
  /// Input `index` reads `data` in place instead of its planned memory (no copy: a frame a
  /// DMA wrote, data the loader placed). `nbytes` must equal the input's size and `data` be
  /// aligned to kInputAlignment; the caller keeps the bytes valid while the method runs
  /// (kernels and delegates only read inputs).
  Error bind_input(uint32_t index, void* data, size_t nbytes);
  static constexpr uintptr_t kInputAlignment = 16;

  /// Runs every instruction in order. On failure, `diagnostics` names the instruction.
  Error execute(MethodDiagnostics* diagnostics = nullptr);

  uint32_t instruction_count() const { return instruction_count_; }
  /// The memory manager given to load (for allocator high-water marks).
  const MemoryManager& memory() const { return memory_; }

 private:
  struct Instruction {
    uint8_t kind = 0;
    uint32_t input_count = 0;
    uint32_t output_count = 0;
    Tensor** tensors = nullptr;  ///< Inputs, then outputs.
    const int32_t* args = nullptr;
    uint32_t arg_count = 0;
    const char* name = nullptr;
    KernelFn fn = nullptr;
    uint32_t delegate = 0;
  };
  Error bind_tensors(const Program& program);
  Error init_delegates(const Program& program, MethodDiagnostics* diagnostics);
  Error resolve_instructions(const Program& program, MethodDiagnostics* diagnostics);

  MemoryManager memory_;
  Tensor* tensors_ = nullptr;
  uint32_t tensor_count_ = 0;
  Tensor** inputs_ = nullptr;
  Tensor** outputs_ = nullptr;
  uint32_t input_count_ = 0;
  uint32_t output_count_ = 0;
  Instruction* instructions_ = nullptr;
  uint32_t instruction_count_ = 0;
  DelegateHandles delegates_;  ///< Owned: released with the method.
  uint32_t executions_ = 0;
  bool ready_ = false;
};

}  // namespace socsim::runtime
