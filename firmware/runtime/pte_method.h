// An ExecuTorch program's method (its first execution plan), ready to run on the firmware
// runtime: values decoded, tensors bound to planned memory or constants, delegates
// initialised through the backend registry, operators resolved onto the kernel registry.
//
// PteMethod::load reads the plan's values (Null, Int, Double, Bool, String, Tensor, IntList,
// DoubleList, BoolList, TensorList, OptionalTensorList) and instructions (KernelCall,
// DelegateCall, JumpFalseCall, MoveCall, FreeCall), checking every index, count, size and
// offset; all memory comes from the caller's MemoryManager (planned buffer i holds memory id
// i + 1). Operators are looked up by their ExecuTorch name and overload in pte_ops.h, which
// maps each onto the kernels of the kernel registry. The interface mirrors Method's so that
// applications drive either format the same way.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "firmware/runtime/backend_registry.h"
#include "firmware/runtime/error.h"
#include "firmware/runtime/memory.h"
#include "firmware/runtime/pte_ops.h"
#include "firmware/runtime/pte_program.h"
#include "firmware/runtime/tensor.h"

namespace socsim::runtime {

class PteMethod {
 public:
  PteMethod() = default;
  PteMethod(PteMethod&& other);
  PteMethod& operator=(PteMethod&& other);
  PteMethod(const PteMethod&) = delete;
  PteMethod& operator=(const PteMethod&) = delete;
  ~PteMethod() = default;  ///< Releases the delegate handles (delegates_ does).

  /// Loads the program's first execution plan into `memory`. Errors name the field in `diag`
  /// (an unknown operator: kOperatorMissing with its name, after every instruction was
  /// looked at; an unknown backend id: kDelegateMissing).
  static Result<PteMethod> load(const PteProgram& program, const MemoryManager& memory,
                                PteDiagnostics* diag = nullptr);

  uint32_t inputs_size() const { return input_count_; }
  uint32_t outputs_size() const { return output_count_; }
  Tensor* input(uint32_t index) const { return inputs_[index]; }
  Tensor* output(uint32_t index) const { return outputs_[index]; }
  /// ExecuTorch element type of input/output `index` (pte_type_name() names it).
  int8_t input_type(uint32_t index) const { return input_types_[index]; }
  int8_t output_type(uint32_t index) const { return output_types_[index]; }
  Error set_input(uint32_t index, const void* data, size_t nbytes);
  Error bind_input(uint32_t index, void* data, size_t nbytes);
  static constexpr uintptr_t kInputAlignment = 16;

  /// Runs the plan's chains in order; `diag->index` names a failing instruction.
  Error execute(PteDiagnostics* diag = nullptr);
  uint32_t execution_count() const { return executions_; }
  uint32_t instruction_count() const { return instruction_count_; }
  uint32_t value_count() const { return value_count_; }
  uint32_t delegate_count() const { return delegates_.size(); }
  const MemoryManager& memory() const { return memory_; }

  /// Instructions one execution may run at most (a JumpFalseCall loop that never ends is an
  /// error, kInvalidState, not a hang).
  static constexpr uint32_t kMaxStepsPerInstruction = 1024;

 private:
  struct Instruction {
    PteInstructionKind kind = PteInstructionKind::kKernelCall;
    uint32_t a = 0;              ///< move_from, cond value, value to free, delegate index
    uint32_t b = 0;              ///< move_to, absolute destination
    PteOpCall* call = nullptr;   ///< kernel calls
    Tensor** tensors = nullptr;  ///< delegate calls: inputs, then outputs
    uint32_t input_count = 0;
    uint32_t output_count = 0;
    const char* name = nullptr;
  };
  struct Chain {
    uint32_t begin = 0;
    uint32_t end = 0;
  };

  Error load_values(const PteProgram& program, PteDiagnostics* diag);
  Error load_tensor(const PteProgram& program, const pte::FbTable& table, uint32_t index,
                    PteValue* value, PteDiagnostics* diag);
  Error load_io(const PteProgram& program, PteDiagnostics* diag);
  Error init_delegates(const PteProgram& program, PteDiagnostics* diag);
  Error load_instructions(const PteProgram& program, PteDiagnostics* diag);
  // The steps of load_instructions.
  struct Operands;
  Error allocate_instructions(const PteProgram& program, PteDiagnostics* diag);
  Error read_operands(const PteProgram& program, const pte::FbVector& list, uint32_t k,
                      uint32_t at, Operands* operands, PteDiagnostics* diag);
  Error link_kernel_call(const PteProgram& program, const PteOpContext& ctx,
                         const Operands& operands, uint32_t at, bool* missing,
                         PteDiagnostics* diag);
  Error link_delegate_call(const Operands& operands, uint32_t at, PteDiagnostics* diag);
  Error link_control(const Operands& operands, uint32_t chain, uint32_t chain_length,
                     uint32_t at, PteDiagnostics* diag);

  MemoryManager memory_;
  PteValue* values_ = nullptr;
  uint32_t value_count_ = 0;
  Tensor** inputs_ = nullptr;
  Tensor** outputs_ = nullptr;
  int8_t* input_types_ = nullptr;
  int8_t* output_types_ = nullptr;
  uint32_t input_count_ = 0;
  uint32_t output_count_ = 0;
  Instruction* instructions_ = nullptr;
  uint32_t instruction_count_ = 0;
  Chain* chains_ = nullptr;
  uint32_t chain_count_ = 0;
  DelegateHandles delegates_;  ///< Owned: released with the method.
  uint32_t* delegate_outputs_ = nullptr;
  uint32_t executions_ = 0;
  bool ready_ = false;
};

}  // namespace socsim::runtime
