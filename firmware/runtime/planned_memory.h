// The planned buffers a program asks for, read alike for both program formats:
// `planned_memory_of(program)` has num_memory_planned_buffers() and
// memory_planned_buffer_size(i) whether the program is an ExecuTorch program (PteProgram) or
// in socsim's legacy format (Program, through its MethodMeta). The executor_runner's loops and
// the kernel tests place planned memory through it.
#pragma once

#include "firmware/runtime/program.h"
#include "firmware/runtime/pte_program.h"

namespace socsim::runtime {

inline MethodMeta planned_memory_of(const Program& program) {
  return program.method_meta();
}

inline const PteProgram& planned_memory_of(const PteProgram& program) {
  return program;
}

}  // namespace socsim::runtime
