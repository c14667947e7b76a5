#include "models/cpu/rtl/bare_harness.h"

namespace socsim {

BareHarness::BareHarness(const BareHarnessOptions& options)
    : BareHarnessBase(options),
      core_(RtlCoreConfig{BareSystem::kBootAddr, 0, 0, BareSystem::kDebugBase, 0, options.fpu,
                          options.fpu_addmul_lat, options.fpu_others_lat, options.zfinx}) {}

RunResult BareHarness::run() {
  core_.reset();
  system_.reset();
  instr_q_ = ObiResponseQueue{};
  data_q_ = ObiResponseQueue{};
  std::string protocol_error;
  const uint64_t max_cycles = system_.options().max_cycles;
  uint64_t now = 0;
  while (now < max_cycles) {
    uint64_t stable_until;
    core_.set_irq(system_.irq_lines(now, &stable_until));
    ObiInputs iin;
    ObiInputs din;
    system_.grants(&iin.gnt, &din.gnt);
    iin.rvalid = instr_q_.pop_due(now, &iin.rdata);
    din.rvalid = data_q_.pop_due(now, &din.rdata);
    core_.begin_cycle(iin, din);

    const ObiRequest ir = core_.instr_request();
    const ObiRequest dr = core_.data_request();
    if (!system_.observe(now, ir, iin.gnt, dr, din.gnt, &protocol_error)) break;
    uint32_t wait;
    if (ir.req && iin.gnt) {
      const uint32_t word = system_.fetch(ir.addr, now, &wait);
      instr_q_.push(now + 1 + wait, word);
    }
    if (dr.req && din.gnt) {
      const uint32_t rdata = system_.data(dr, now, &wait);
      data_q_.push(now + 1 + wait, rdata);
    }
    core_.end_cycle();
    ++now;
    if (system_.exited()) {
      break;
    }
  }
  core_.flush_retire();
  RunResult result = system_.result(now);
  result.protocol_error = protocol_error;
  return result;
}

}  // namespace socsim
