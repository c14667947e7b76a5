// Builds the SystemC model of a SoC from its configuration: CPU, router, memories and
// devices, bound as the memory map says.
#pragma once

#include <memory>
#include <ostream>
#include <vector>

#include "models/bus/router.h"
#include "models/common/clock.h"
#include "models/common/irq.h"
#include "models/common/sim_control.h"
#include "models/cpu/cpu_model.h"
#include "models/cpu/iss/rv32_iss.h"
#include "models/peripherals/console.h"
#include "platform/soc_config.h"

namespace socsim {

class ExitDevice;
class Ddr;
class Npu;
class ProbeDevice;

class Soc {
 public:
  /// `cpu_model` overrides the YAML's cpu.model when not empty. Throws ConfigError.
  Soc(const SocConfig& config, const std::string& cpu_model, std::ostream& console_out);
  ~Soc();

  const SocConfig& config() const { return config_; }
  const ClockDomain& cpu_clock() const { return cpu_clock_; }
  CpuModel& cpu() { return *cpu_; }
  /// The ISS configuration the `cpu` section amounts to (the ISS CPU model's, and the
  /// lockstep checker's for the RTL core).
  const IssConfig& iss_config() const { return iss_config_; }
  Router& router() { return *router_; }
  SimControl& control() { return control_; }
  IrqLines& irq() { return irq_; }
  Console* console() { return console_; }
  ExitDevice* exit_device() { return exit_device_; }
  /// The DDR models of the map, in map order (statistics at the end of a run).
  const std::vector<Ddr*>& ddrs() const { return ddrs_; }
  /// The NPUs of the map (per-layer statistics at the end of a run).
  const std::vector<Npu*>& npus() const { return npus_; }
  /// The first probe register block of the map, or null.
  ProbeDevice* probe_device() { return probe_device_; }

  /// Loader access to memory regions (also before elaboration), without timing. False if
  /// the range is not inside one memory region.
  bool write_memory(uint64_t addr, const uint8_t* data, uint64_t size);
  bool read_memory(uint64_t addr, uint8_t* data, uint64_t size);

 private:
  SocConfig config_;
  IssConfig iss_config_;
  ClockDomain cpu_clock_;
  SimControl control_;
  IrqLines irq_;
  std::unique_ptr<Router> router_;
  std::unique_ptr<CpuModel> cpu_;
  std::vector<std::unique_ptr<sc_core::sc_module>> devices_;
  /// Backing bytes of each memory region (aliases included), for the loader.
  struct MemoryWindow {
    uint64_t base, size;
    uint8_t* data;
  };
  std::vector<MemoryWindow> memories_;
  uint8_t* memory_at(uint64_t addr, uint64_t size);
  Console* console_ = nullptr;
  ExitDevice* exit_device_ = nullptr;
  ProbeDevice* probe_device_ = nullptr;
  std::vector<Ddr*> ddrs_;
  std::vector<Npu*> npus_;
};

}  // namespace socsim
