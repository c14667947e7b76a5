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
  t.keys = cpu_fpu_keys();
  t.build = [](const CpuConfig& cpu, const CpuBuildContext& c) -> std::unique_ptr<CpuModel> {
    return std::make_unique<IssCpu>("cpu", c.clock, iss_config_of(cpu), c.irq, c.control,
                                    cpu.quantum_cycles);
  };
  return t;
}

const bool kIss = register_cpu_model(iss_type());

}  // namespace

}  // namespace socsim
