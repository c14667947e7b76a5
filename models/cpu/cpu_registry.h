// The CPU-model registry: every CPU model the platform can run (`cpu.model` in the SoC file,
// `--cpu` on the command line) is one CpuModelType, registered by its own file in
// models/cpu/ (`*_registration.cpp`), as region types register in the device registry
// (models/common/device_registry.h).
//
// A CpuModelType says everything the platform needs to know about a model: its name and
// what it is (help, documentation), its own keys of the SoC file's `cpu` section (options,
// e.g. a configuration of the core), what it can do for the tools of a run (probes, lockstep,
// GDB, waveforms), the checks of the `cpu` section it needs, and how to build it. The SoC
// loader, the SoC builder, the command line and the run's tools ask the registry; none of
// them names a CPU model.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/common/config.h"

namespace socsim {

class ClockDomain;
class CpuModel;
class IrqLines;
class SimControl;

/// The SoC file's `cpu` section, resolved (platform/soc_config.cpp reads it).
struct CpuConfig {
  std::string model = "iss";  ///< a registered CpuModelType's name
  double clock_mhz = 400;
  uint32_t boot_addr = 0x80;
  uint32_t mtvec_addr = 0x0;
  uint32_t hart_id = 0;
  uint64_t quantum_cycles = 10000;
  unsigned num_mhpmcounters = 1;
  /// Instruction fetch addresses are taken modulo this many bytes (a power of two; 0: not),
  /// as in a test bench that decodes only the low address bits of its memory.
  uint64_t fetch_wrap = 0;
  /// TLM-2.0 base-protocol checking of the core's instruction and data links to the bus.
  bool protocol_check = false;
  /// Every registered model's option keys (CpuModelType::keys), defaults applied.
  std::map<std::string, ConfigValue> options;
  /// The SoC file, for messages.
  std::string file;

  /// An option's value; a name no registered model declares is a programming error
  /// (std::logic_error).
  const ConfigValue& option(const std::string& key) const;
};

/// What a CPU model can do for the tools of a run.
struct CpuCapabilities {
  /// Its cycles are the RTL core's (cycle-exact); otherwise reports label them estimates.
  bool cycle_exact = false;
  /// It reports retired instructions: probes from symbol ranges, --profile, --trace-instr.
  bool retire_trace = false;
  /// --lockstep: it can be checked against the ISS, instruction by instruction.
  bool lockstep = false;
  /// --gdb: a debugger can stop it between instructions.
  bool gdb = false;
  /// --trace-fst/--trace-vcd: it has signals to write.
  bool waveforms = false;
  /// It writes waveforms only in socsim-trace, the build with the traced core.
  bool waveforms_need_traced_build = false;
};

/// What a model's factory builds it with.
struct CpuBuildContext {
  const ClockDomain& clock;
  IrqLines& irq;
  SimControl& control;
};

struct CpuModelType {
  std::string name;     ///< `cpu.model` / `--cpu`
  std::string summary;  ///< what it is, a few words (documentation: the same in every build)
  /// What it is in this build, a few words (`socsim run --help`).
  std::string help;
  /// What the model is in this build, for reports ("socsim rv_core", "ISS").
  std::string description;
  CpuCapabilities capabilities;
  /// Keys of the `cpu` section that only this model reads (its options). Every registered
  /// model's keys are read (with their defaults) whichever model runs; a key may be
  /// declared by several models alike.
  std::vector<ConfigKey> keys;
  /// Checks the `cpu` section against what the model can be (optional); throws ConfigError.
  std::function<void(const CpuConfig& cpu)> check;
  /// Creates the model (an sc_module named "cpu"); throws ConfigError.
  std::function<std::unique_ptr<CpuModel>(const CpuConfig& cpu, const CpuBuildContext& context)>
      build;
};

/// Adds a model; returns true so that registration can initialise a namespace-scope constant.
/// A second model of the same name, a model without a factory, or a key declared twice
/// differently is a programming error (std::logic_error).
bool register_cpu_model(CpuModelType type);
/// The registered model called `name`, or null.
const CpuModelType* find_cpu_model(const std::string& name);
/// The registered model called `name`; otherwise a ConfigError "unknown CPU model 'x'
/// (iss, rtl)" that lists the registered ones (and a near name).
const CpuModelType& cpu_model(const std::string& name);
/// Every registered model, sorted by name.
std::vector<const CpuModelType*> cpu_models();
/// The names of the registered models, sorted.
std::vector<std::string> cpu_model_names();
/// The names of the registered models that `has` accepts (all without it), joined for a
/// message: "'iss' or 'rtl'" quoted, "iss or rtl" not ("" when none does).
std::string cpu_model_list(bool quoted,
                           const std::function<bool(const CpuModelType&)>& has = nullptr);
/// The option keys of all registered models, each once, sorted by name.
std::vector<ConfigKey> cpu_option_keys();

/// `cpu.fpu`, `cpu.fpu_addmul_lat`, `cpu.fpu_others_lat`: the CV32E40P's FPU (docs/fpu.md),
/// declared alike by the models that have it (the ISS, socsim's rv_core).
std::vector<ConfigKey> cpu_fpu_keys();

}  // namespace socsim
