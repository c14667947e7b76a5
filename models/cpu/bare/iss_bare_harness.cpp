#include "models/cpu/bare/iss_bare_harness.h"

namespace socsim {

namespace {

IssConfig bare_config(const BareHarnessOptions& options) {
  IssConfig c;
  c.boot_addr = BareSystem::kBootAddr;
  c.fpu = options.fpu;
  c.fpu_addmul_lat = options.fpu_addmul_lat;
  c.fpu_others_lat = options.fpu_others_lat;
  c.zfinx = options.zfinx;
  return c;
}

}  // namespace

IssBareHarness::IssBareHarness(const BareHarnessOptions& options)
    : BareHarnessBase(options), iss_(bare_config(options), *this) {
  if (options.random_waits || options.bus_trace != nullptr) {
    iss_.timing().set_request_observer(this);
  }
}

void IssBareHarness::on_requests(uint64_t cycle, const ObiRequest& instr, bool instr_gnt,
                                 const ObiRequest& data, bool data_gnt) {
  if (!system_.observe(cycle, instr, instr_gnt, data, data_gnt, &protocol_error_)) {
    system_.request_stop();
  }
}

RunResult IssBareHarness::run() {
  system_.reset();
  iss_.reset();
  protocol_error_.clear();
  const uint64_t max_cycles = system_.options().max_cycles;
  // The run stops after the cycle of the exit store, or of a protocol breach.
  const bool* stop = system_.stop_flag();
  while (iss_.cycle() < max_cycles && !*stop) {
    const Rv32Iss::Status status = iss_.run(max_cycles, stop);
    if (status == Rv32Iss::Status::kSleep && !system_.options().random_waits) {
      // Nothing changes until the lines rise (or never: then the run ends at max_cycles).
      // (With random wait states every cycle draws its grants: then it is simulated.)
      uint64_t stable_until;
      system_.irq_lines(iss_.cycle(), &stable_until);
      const uint64_t wake = stable_until < max_cycles ? stable_until + 1 : max_cycles;
      iss_.skip_sleep_cycles(wake - iss_.cycle());
      continue;
    }
    if (status == Rv32Iss::Status::kStopped) break;
  }
  iss_.flush_retire();
  RunResult result = system_.result(iss_.cycle());
  result.protocol_error = protocol_error_;
  result.fault = iss_.fault();
  return result;
}

}  // namespace socsim
