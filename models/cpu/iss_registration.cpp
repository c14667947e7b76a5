// CPU model `iss`: the C++ ISS with the CV32E40P's cycles (models/cpu/iss_cpu.h).
#include "models/cpu/cpu_registry.h"
#include "models/cpu/iss_cpu.h"
#include "models/cpu/rtl/rtl_core.h"

namespace socsim {

namespace {

CpuModelType iss_type() {
  CpuModelType t;
  t.name = "iss";
  t.summary = "fast, the same cycles (socsim's rv_core)";
  t.help = "fast; the cycles of socsim's rv_core";
  t.description = "ISS";
  // The ISS takes the cycles of socsim's rv_core: exact where that is this build's rtl model.
  t.capabilities.cycle_exact = RtlCore::has_retire_trace();
  t.capabilities.retire_trace = true;
  t.capabilities.gdb = true;
  t.keys = {ConfigKey::choice(
                "fpu", {"off", "on", "zfinx"}, "off",
                "the core's FPU: on is the CV32E40P with FPU=1 (RV32F, f0..f31, fcsr), "
                "zfinx the same with ZFINX=1 (float operands in the x registers, no F "
                "registers; docs/fpu.md)"),
            ConfigKey::unsigned_in("fpu_addmul_lat", 0, 2, "0",
                                   "with cpu.fpu on or zfinx: the CV32E40P's FPU_ADDMUL_LAT, pipeline "
                                   "registers of fadd/fsub/fmul/fmadd... (timing only)"),
            ConfigKey::unsigned_in("fpu_others_lat", 0, 2, "0",
                                   "with cpu.fpu on or zfinx: the CV32E40P's FPU_OTHERS_LAT, pipeline "
                                   "registers of comparisons, conversions, moves, sign "
                                   "injection (timing only)")};
  t.build = [](const CpuConfig& cpu, const CpuBuildContext& c) -> std::unique_ptr<CpuModel> {
    return std::make_unique<IssCpu>("cpu", c.clock, iss_config_of(cpu), c.irq, c.control,
                                    cpu.quantum_cycles);
  };
  return t;
}

const bool kIss = register_cpu_model(iss_type());

}  // namespace

}  // namespace socsim
