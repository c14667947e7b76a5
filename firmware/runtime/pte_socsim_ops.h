// socsim's own operators in a .pte program: the `socsim::` namespace the compiler writes
// (scripts/socsim_aot/pte_format.py, docs/program-format.md "socsim programs as .pte").
//
// Operator `socsim::NS__NAME` with overload OVERLOAD is the kernel registry's schema operator
// `NS::NAME.OVERLOAD` (`socsim::NAME.OVERLOAD` when the name has no `__`), called exactly as a
// socsim program (.prog) calls it: its arguments are the input tensors, one IntList of the
// kernel's int32 argument words, the output tensors, then the return value (the output, or a
// TensorList of the outputs). The kernel is the one registered for the first input's element
// type (the first output's without inputs); its generated wrapper checks operand and argument
// counts and element types at each call, as for a socsim program.
#pragma once

#include <stdint.h>

#include "firmware/runtime/error.h"
#include "firmware/runtime/pte_ops.h"

namespace socsim::runtime {

/// True when `name` is in the `socsim::` namespace.
bool pte_is_socsim_operator(const char* name, uint32_t name_length);

/// Prepares `call` for the socsim operator `name`.`overload` with argument value indices
/// `args` (each < ctx.value_count). kOperatorMissing when the registry has no kernel of that
/// schema name for the element type; kBadOperatorArgs (argument named in ctx.diag) when the
/// argument list is not of the form above, an argument word does not fit int32 or an output
/// is a constant; kNotSupported for a tensor of an element type socsim's kernels do not have.
Error pte_prepare_socsim_operator(const PteOpContext& ctx, const char* name, uint32_t name_length,
                                  const char* overload, uint32_t overload_length,
                                  const uint32_t* args, uint32_t arg_count, PteOpCall* call);

/// The tensors' quantisation from socsim's record (the segment named `socsim.quantization`
/// in Program.named_data, docs/program-format.md): scale, zero point and per-channel arrays
/// into Tensor::quant of value `index` (the arrays used where they lie in the file). No record:
/// nothing to do. A record that does not fit the file or names a value that is not a tensor
/// (or a per-channel axis or count that does not match it): kProgramBadTensor, with the field
/// named in `diag`.
Error pte_apply_socsim_quantization(const PteProgram& program, const PteValue* values,
                                    uint32_t value_count, PteDiagnostics* diag);

}  // namespace socsim::runtime
