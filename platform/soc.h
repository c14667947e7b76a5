// Builds the SystemC model of a SoC from its configuration: the CPU, the router, and one
// model per memory-map region, made by the region type's entry in the device registry
// (models/common/device_registry.h) and bound as the memory map says.
#pragma once

#include <memory>
#include <ostream>
#include <vector>

#include "models/bus/router.h"
#include "models/common/clock.h"
#include "models/common/irq.h"
#include "models/common/sim_control.h"
#include "models/cpu/cpu_model.h"
#include "models/cpu/cpu_registry.h"
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
  /// The registered CPU model that `cpu()` is: its name and capabilities.
  const CpuModelType& cpu_type() const { return *cpu_type_; }
  /// The ISS configuration the `cpu` section amounts to (the ISS CPU model's, and the
  /// lockstep checker's for the RTL core).
  const IssConfig& iss_config() const { return iss_config_; }
  Router& router() { return *router_; }
  SimControl& control() { return control_; }
  IrqLines& irq() { return irq_; }

  /// The models of the map's regions of class T, in map order.
  template <typename T>
  std::vector<T*> devices_of() const {
    std::vector<T*> out;
    for (const auto& d : devices_) {
      if (T* t = dynamic_cast<T*>(d.get())) out.push_back(t);
    }
    return out;
  }
  /// The first console of the map, or null (end-of-run output).
  Console* console() const;
  /// The first exit block of the map, or null.
  ExitDevice* exit_device() const;
  /// The DDR models of the map, in map order (statistics at the end of a run).
  std::vector<Ddr*> ddrs() const;
  /// The NPUs of the map (per-layer statistics at the end of a run).
  std::vector<Npu*> npus() const;
  /// The first probe register block of the map, or null.
  ProbeDevice* probe_device() const;

  /// Loader access to memory regions (also before elaboration), without timing. False if
  /// the range is not inside one memory region.
  bool write_memory(uint64_t addr, const uint8_t* data, uint64_t size);
  bool read_memory(uint64_t addr, uint8_t* data, uint64_t size);

 private:
  class Builder;
  void build_cpu(const std::string& model);
  void build_regions(std::ostream& console_out);
  /// Where the router's protocol checkers report: a stop of the run (status 3) at the
  /// cycle of the offending transaction.
  ProtocolChecker::Handler protocol_violation_handler();
  /// Binds an initiator to the router's target socket; checked if `check`, as `link`.
  void bind_initiator(tlm::tlm_initiator_socket<>& socket, bool check, const std::string& link);

  SocConfig config_;
  IssConfig iss_config_;
  ClockDomain cpu_clock_;
  SimControl control_;
  IrqLines irq_;
  std::unique_ptr<Router> router_;
  const CpuModelType* cpu_type_ = nullptr;
  std::unique_ptr<CpuModel> cpu_;
  std::vector<std::unique_ptr<sc_core::sc_module>> devices_;
  unsigned initiator_bindings_ = 0;  ///< sockets bound to the router's target socket so far
  /// Backing bytes of each memory region (aliases included), for the loader.
  struct MemoryWindow {
    uint64_t base, size;
    uint8_t* data;
  };
  std::vector<MemoryWindow> memories_;
  uint8_t* memory_at(uint64_t addr, uint64_t size);
};

}  // namespace socsim
