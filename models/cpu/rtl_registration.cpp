// CPU model `rtl`: the Verilated core (models/cpu/rtl_cpu.h), socsim's rv_core or, in a build
// configured with SOCSIM_CV32E40P_RTL, the OpenHW CV32E40P, which has no retire trace.
#include "models/cpu/cpu_registry.h"
#include "models/cpu/iss_cpu.h"
#include "models/cpu/rtl_cpu.h"
#include "models/cpu/rtl/rtl_core.h"

namespace socsim {

namespace {

CpuModelType rtl_type() {
  CpuModelType t;
  t.name = "rtl";
  t.summary = "the Verilated core";
  t.help = std::string("the Verilated core; in this build: ") + RtlCore::description();
  t.description = RtlCore::description();
  t.capabilities.cycle_exact = true;
  t.capabilities.retire_trace = RtlCore::has_retire_trace();
  t.capabilities.lockstep = RtlCore::has_retire_trace();
  t.capabilities.gdb = RtlCore::has_retire_trace();
  t.capabilities.waveforms = true;
  t.capabilities.waveforms_need_traced_build = !RtlCore::has_waveforms();
  // socsim's rv_core has the CV32E40P's FPU as a run-time choice (docs/fpu.md)
  if (RtlCore::has_runtime_fpu()) t.keys = cpu_fpu_keys();
  t.check = [](const CpuConfig& cpu) {
    if (cpu.num_mhpmcounters != RtlCore::kNumMhpmcounters) {
      // A Verilog parameter of the core, fixed when it is Verilated.
      throw ConfigError(cpu.file + ": cpu.num_mhpmcounters is " +
                        std::to_string(cpu.num_mhpmcounters) + ", but the rtl CPU model of "
                        "this build implements " + std::to_string(RtlCore::kNumMhpmcounters) +
                        " (its NUM_MHPMCOUNTERS parameter, set when it is built): set it to " +
                        std::to_string(RtlCore::kNumMhpmcounters) + " or use --cpu iss");
    }
    const auto fpu = cpu.options.find("fpu");
    if (RtlCore::has_runtime_fpu()) {
      // socsim's rv_core: the FPU with F registers or ZFINX, at any latency
      return;
    }
    if (fpu != cpu.options.end() && fpu->second.choice != 0) {
      // The genuine core's FPU is a Verilog parameter, fixed when it is Verilated.
      throw ConfigError(cpu.file + ": cpu.fpu is " +
                        (fpu->second.choice == 2 ? "zfinx" : "on") +
                        ", but the rtl CPU model of this build is " + RtlCore::description() +
                        ", whose FPU is fixed when it is built: use --cpu iss (docs/fpu.md)");
    }
    for (const char* key : {"fpu_addmul_lat", "fpu_others_lat"}) {
      const auto lat = cpu.options.find(key);
      if (lat != cpu.options.end() && lat->second.u != 0) {
        throw ConfigError(cpu.file + ": cpu." + key + " is " + std::to_string(lat->second.u) +
                          ", but the rtl CPU model of this build is " + RtlCore::description() +
                          ", whose FPU is fixed when it is built: use --cpu iss (docs/fpu.md)");
      }
    }
  };
  t.build = [](const CpuConfig& cpu, const CpuBuildContext& c) -> std::unique_ptr<CpuModel> {
    RtlCoreConfig rtl;
    rtl.boot_addr = cpu.boot_addr;
    rtl.mtvec_addr = cpu.mtvec_addr;
    rtl.hart_id = cpu.hart_id;
    if (RtlCore::has_runtime_fpu()) {
      // the same reading of the keys as the ISS's (its lockstep partner)
      const IssConfig iss = iss_config_of(cpu);
      rtl.fpu = iss.fpu;
      rtl.fpu_addmul_lat = iss.fpu_addmul_lat;
      rtl.fpu_others_lat = iss.fpu_others_lat;
      rtl.zfinx = iss.zfinx;
    }
    return std::make_unique<RtlCpu>("cpu", c.clock, rtl, c.irq, c.control, cpu.quantum_cycles);
  };
  return t;
}

const bool kRtl = register_cpu_model(rtl_type());

}  // namespace

}  // namespace socsim
