// ExecuTorch operators on the firmware runtime: each operator, by its ExecuTorch name,
// overload and argument list, is checked once at method load and mapped onto the kernels of
// the kernel registry (firmware/kernels), whose argument words it prepares. docs/executorch.md
// has the table of the operators and of what each accepts.
#pragma once

#include <stdint.h>

#include "firmware/runtime/error.h"
#include "firmware/runtime/kernel_registry.h"
#include "firmware/runtime/memory.h"
#include "firmware/runtime/pte_program.h"
#include "firmware/runtime/tensor.h"

namespace socsim::runtime {

/// A list of an EValue: `count` items of the file (read with memcpy: no alignment assumed).
struct PteList {
  const uint8_t* data = nullptr;
  uint32_t count = 0;
  int64_t int_at(uint32_t i) const;    ///< IntList: its Int values (resolved at load)
  double double_at(uint32_t i) const;  ///< DoubleList
  bool bool_at(uint32_t i) const;      ///< BoolList
  int32_t index_at(uint32_t i) const;  ///< TensorList / OptionalTensorList (value indices)
};

/// One decoded EValue.
struct PteValue {
  PteValueKind kind = PteValueKind::kNone;
  int8_t dtype = -1;  ///< tensors: ExecuTorch element type
  bool constant = false;  ///< tensors: data in the program's constants (fixed at load)
  int64_t i = 0;      ///< Int; Bool as 0/1
  double d = 0.0;     ///< Double
  Tensor* tensor = nullptr;
  PteList list;  ///< the lists; String: data/count are its bytes
};

/// One prepared operator call: kernel calls of the registry (`calls` of them, in order, e.g.
/// one per output of a split) plus, for a few operators, the operator's own step (max
/// pooling's int64 indices, layer norm's statistics, ExecuTorch's quantize), all with
/// arguments fixed at load.
struct PteOpCall {
  const char* name = nullptr;  ///< "aten::add.out" (static, NUL-terminated)
  Error (*run)(const PteOpCall& call) = nullptr;
  KernelFn* fn = nullptr;      ///< `calls` kernels (from the method allocator)
  KernelArgs* args = nullptr;  ///< and their operands and argument words
  uint32_t calls = 0;          ///< kernel calls bound (run in order)
  uint32_t capacity = 0;       ///< room in fn/args
  Tensor* extra[4] = {nullptr, nullptr, nullptr, nullptr};
  int32_t params[8] = {};
  uint32_t elements = 0;  ///< numel of the first output (for profiling)
  Tensor** list = nullptr;  ///< an operator's TensorList (e.g. split's outputs)
  uint32_t list_count = 0;
};

/// What an operator's init sees: the method's values and its allocator.
struct PteOpContext {
  const PteValue* values = nullptr;
  uint32_t value_count = 0;
  MemoryAllocator* allocator = nullptr;
  MemoryAllocator* temp = nullptr;
  PteDiagnostics* diag = nullptr;
};

/// Prepares `call` for the operator `name`.`overload` with argument value indices `args`
/// (already checked to be < value_count). kOperatorMissing when no operator of that name
/// exists (or no kernel for its element type); kBadOperatorArgs, kDtypeMismatch,
/// kShapeMismatch or kNotSupported, with the argument named in ctx.diag, when the arguments
/// do not fit.
Error pte_prepare_operator(const PteOpContext& ctx, const char* name, uint32_t name_length,
                           const char* overload, uint32_t overload_length, const uint32_t* args,
                           uint32_t arg_count, PteOpCall* call);

/// Whether the runtime's kernels read elements of this scalar type (float32, int8, int32,
/// uint8: the element types of socsim programs).
bool runtime_readable(int8_t type);

/// Number of operators pte_prepare_operator knows, and their names (for docs and tests).
uint32_t pte_operator_count();
const char* pte_operator_name(uint32_t index);

}  // namespace socsim::runtime
