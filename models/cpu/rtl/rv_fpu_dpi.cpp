// The arithmetic of socsim's Verilated core's FPU (rtl/rv_fpu.sv): the core imports
// rv_fpu_execute through DPI-C and calls it once per F operation, as the operation enters EX.
// Results and fflags come from the ISS's RV32F arithmetic (execute_float_op(),
// models/cpu/iss/rv32_hart.h), so the project has one implementation of F semantics; the
// core itself implements the FPU's pipeline: decode, F registers, fcsr, the APU dispatcher and
// its timing.
#include "models/cpu/iss/rv32_decode.h"
#include "models/cpu/iss/rv32_hart.h"

// instr: the (expanded) 32-bit instruction; frm: fcsr.frm; a, b, c: the F registers named by
// rs1, rs2, rs3; xa: the x register named by rs1. result, flags: the result's bits and the
// fflags raised; cycles, nack: fdiv.s / fsqrt.s cost alone, and the ungranted cycles of a
// subnormal divisor (0 for every other operation).
extern "C" void rv_fpu_execute(int instr, int frm, int a, int b, int c, int xa, int* result,
                               int* flags, int* cycles, int* nack) {
  const socsim::DecodedInsn d = socsim::decode(
      static_cast<uint32_t>(instr), socsim::FpDecodeState{true, true, static_cast<uint8_t>(frm)});
  const socsim::FloatResult r = socsim::execute_float_op(
      d, static_cast<uint32_t>(frm), static_cast<uint32_t>(a), static_cast<uint32_t>(b),
      static_cast<uint32_t>(c), static_cast<uint32_t>(xa));
  *result = static_cast<int>(r.value);
  *flags = static_cast<int>(r.flags);
  *cycles = static_cast<int>(r.cycles);
  *nack = static_cast<int>(r.nack);
}
