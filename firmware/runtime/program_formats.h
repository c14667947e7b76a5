// The two program formats the runtime reads, alike: an ExecuTorch program (PteProgram,
// PteMethod) and socsim's legacy format (Program, Method).
// - `planned_memory_of(program)` has num_memory_planned_buffers() and
//   memory_planned_buffer_size(i) for either (the legacy one through its MethodMeta);
// - `ProgramFormat<ProgramT>` names the method and diagnostics types of a format and loads a
//   program of it from bytes.
// The executor_runner's loops and the kernel tests place planned memory and load methods
// through them.
#pragma once

#include <stddef.h>

#include "firmware/runtime/method.h"
#include "firmware/runtime/program.h"
#include "firmware/runtime/pte_method.h"
#include "firmware/runtime/pte_program.h"

namespace socsim::runtime {

inline MethodMeta planned_memory_of(const Program& program) {
  return program.method_meta();
}

inline const PteProgram& planned_memory_of(const PteProgram& program) {
  return program;
}

template <typename ProgramT>
struct ProgramFormat;

template <>
struct ProgramFormat<Program> {
  using MethodT = Method;
  using DiagT = MethodDiagnostics;
  static Result<Program> load(const void* data, size_t size, DiagT* = nullptr) {
    return Program::load(data, size);
  }
};

template <>
struct ProgramFormat<PteProgram> {
  using MethodT = PteMethod;
  using DiagT = PteDiagnostics;
  static Result<PteProgram> load(const void* data, size_t size, DiagT* diag = nullptr) {
    return PteProgram::load(data, size, diag);
  }
};

}  // namespace socsim::runtime
