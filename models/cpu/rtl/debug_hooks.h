// The debugger's halt hooks of rtl/rv_core.sv (defined in rtl_core.cpp), called from the
// Verilated core's code through Verilator's $c(). Not DPI-C: a DPI import call in the function
// that evaluates a cycle makes Verilator keep all of that function's temporaries in the model
// object instead of in locals (the core then executes about 4 % more host instructions with
// no debugger attached). The Verilated code is compiled with this header forced in
// (rtl/CMakeLists.txt).
#pragma once

/// Whether to halt before the instruction in ID (asked only with debug_req_i high).
bool socsim_debug_halt(unsigned pc, unsigned instr, unsigned rs1, unsigned issued);
/// In DBG_HALT with the pipeline empty: whether the core resumes this cycle, and at which pc.
bool socsim_debug_resume();
unsigned socsim_debug_resume_pc();
