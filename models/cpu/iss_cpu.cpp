#include "models/cpu/iss_cpu.h"

#include "models/common/host_stop.h"

namespace socsim {

IssCpu::IssCpu(sc_core::sc_module_name name, const ClockDomain& clock, const IssConfig& config,
               IrqLines& irq, SimControl& control, uint64_t quantum_cycles)
    : CpuModel(name, clock),
      clock_(clock),
      irq_(irq),
      control_(control),
      quantum_(quantum_cycles ? quantum_cycles : 1),
      sleep_(clock, irq, quantum_),
      env_(bridge, irq, sleep_),
      iss_(config, env_),
      description_(iss_description(config)) {
  SC_THREAD(run_thread);
}

IssConfig iss_config_of(const CpuConfig& cpu) {
  IssConfig config;
  config.boot_addr = cpu.boot_addr;
  config.mtvec_addr = cpu.mtvec_addr;
  config.hart_id = cpu.hart_id;
  config.num_mhpmcounters = cpu.num_mhpmcounters;
  // "on" or "zfinx"; a CpuConfig made in code without options takes the default, off.
  const unsigned fpu = cpu.options.count("fpu") != 0 ? cpu.option("fpu").choice : 0;
  config.fpu = fpu != 0;
  config.zfinx = fpu == 2;
  if (config.fpu && cpu.options.count("fpu_addmul_lat") != 0) {
    config.fpu_addmul_lat = static_cast<unsigned>(cpu.option("fpu_addmul_lat").u);
  }
  if (config.fpu && cpu.options.count("fpu_others_lat") != 0) {
    config.fpu_others_lat = static_cast<unsigned>(cpu.option("fpu_others_lat").u);
  }
  return config;
}

std::string iss_description(const IssConfig& config) {
  if (!config.fpu) return "ISS";
  return "ISS (CV32E40P with FPU=1, FPU_ADDMUL_LAT=" + std::to_string(config.fpu_addmul_lat) +
         ", FPU_OTHERS_LAT=" + std::to_string(config.fpu_others_lat) +
         ", ZFINX=" + (config.zfinx ? "1" : "0") + ")";
}

std::string IssCpu::estimate_reason() const {
  if (cycle_exact()) return "";
  return std::string("the ISS has the timing of socsim's rv_core, not checked against this "
                     "build's ") + RtlCore::description();
}

void IssCpu::sync() {
  const sc_core::sc_time local = clock_.time_of(iss_.cycle());
  if (local > sc_core::sc_time_stamp()) wait(local - sc_core::sc_time_stamp());
}

bool IssCpu::sleep_until_interrupt() {
  return sleep_.wait_for_interrupt(
      max_cycles_, [this] { return iss_.cycle(); },
      [this](uint64_t n) { iss_.skip_sleep_cycles(n); }, [this] { sync(); });
}

void IssCpu::run_thread() {
  iss_.reset();
  uint64_t next_sync = quantum_;
  const bool* stop = control_.stop_flag();
  for (;;) {
    if (max_cycles_ && iss_.cycle() >= max_cycles_) {
      control_.report_max_cycles(iss_.cycle());
      break;
    }
    const uint64_t until = max_cycles_ && max_cycles_ < next_sync ? max_cycles_ : next_sync;
    const Rv32Iss::Status status = iss_.run(until, stop);
    if (status == Rv32Iss::Status::kStopped) {
      if (!control_.stopped()) control_.report_fault(iss_.cycle(), iss_.fault());
      break;
    }
    if (status == Rv32Iss::Status::kSleep) {
      if (!sleep_until_interrupt()) {
        // A device that a stop request cut short (an NPU layer) leaves the core asleep: the
        // platform reports the stop, not a lock-up (platform/simulation.cpp).
        if (!HostStop::requested()) {
          control_.report_fault(iss_.cycle(), sleep_.lockup_message(iss_.pc()));
        }
        break;
      }
      next_sync = iss_.cycle() + quantum_;
      if (progress_) progress_(iss_.cycle());
      continue;
    }
    if (iss_.cycle() >= next_sync) {
      sync();
      next_sync = iss_.cycle() + quantum_;
      if (progress_) progress_(iss_.cycle());
    }
  }
  iss_.flush_retire();
  sync();
  sc_core::sc_stop();
}

}  // namespace socsim
