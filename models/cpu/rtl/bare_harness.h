// BareHarness: the Verilated core in the bare harness's world (BareSystem: 4 MiB RAM, the
// core-v-verif memory map and peripherals, zero-wait or random wait states), no SystemC. Used
// by rv_harness (timing and functional firmware tests) and the speed benchmark.
#pragma once

#include "models/cpu/bare/bare_system.h"
#include "models/cpu/rtl/obi_response_queue.h"
#include "models/cpu/rtl/rtl_core.h"

namespace socsim {

class BareHarness : public BareHarnessBase {
 public:
  static constexpr uint32_t kRamSize = BareSystem::kRamSize;
  static constexpr uint32_t kBootAddr = BareSystem::kBootAddr;

  explicit BareHarness(const BareHarnessOptions& options);

  /// Resets the core and runs until the firmware exits or max_cycles pass.
  RunResult run();

  RtlCore& core() { return core_; }
  void set_retire_observer(RetireObserver* observer) { core_.set_retire_observer(observer); }

 private:
  RtlCore core_;
  ObiResponseQueue instr_q_;
  ObiResponseQueue data_q_;
};

}  // namespace socsim
