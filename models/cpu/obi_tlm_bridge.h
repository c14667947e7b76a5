// The CPU's OBI instruction and data ports as TLM-2.0 initiators.
//
// Every access of a CPU model (ISS or RTL) becomes one TLM transaction here, issued with
// the CPU's local time offset (temporal decoupling); the latency a target annotates is
// converted back into core wait cycles, so a slow memory stalls the core as a real bus
// would. Targets that grant DMI (SRAM) are read and written directly, at zero wait.
#pragma once

#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <vector>

#include "models/common/clock.h"
#include "models/cpu/cpu_bus.h"

namespace socsim {

class ObiTlmBridge : public sc_core::sc_module, public CpuBus {
 public:
  ObiTlmBridge(sc_core::sc_module_name name, const ClockDomain& clock);

  tlm_utils::simple_initiator_socket<ObiTlmBridge> instr_socket;
  tlm_utils::simple_initiator_socket<ObiTlmBridge> data_socket;

  BusResult read(BusPort port, uint32_t addr, unsigned bytes, uint32_t* data,
                 uint64_t cycle) override;
  BusResult write(BusPort port, uint32_t addr, unsigned bytes, uint32_t data,
                  uint64_t cycle) override;
  DirectWindow direct_window(BusPort port, uint32_t addr) override;

  /// Instruction fetches address the bus modulo `bytes` (a power of two; 0: as given), as in
  /// a test bench whose memory decodes only the low address bits. Data accesses are not
  /// affected.
  void set_fetch_wrap(uint32_t bytes) { fetch_mask_ = bytes ? bytes - 1 : 0xFFFFFFFFu; }

  /// Loader access (no timing, no side effects on timing state).
  bool debug_write(uint32_t addr, const uint8_t* data, uint32_t size);
  bool debug_read(uint32_t addr, uint8_t* data, uint32_t size);

 private:
  BusResult transport(BusPort port, tlm::tlm_command cmd, uint32_t addr, unsigned bytes,
                      uint8_t* data, uint64_t cycle);
  void invalidate(sc_dt::uint64 start, sc_dt::uint64 end);
  tlm_utils::simple_initiator_socket<ObiTlmBridge>& socket(BusPort port) {
    return port == BusPort::kInstr ? instr_socket : data_socket;
  }

  const ClockDomain& clock_;
  tlm::tlm_generic_payload payload_;
  std::vector<DirectWindow> windows_[2];
  std::vector<std::pair<uint32_t, uint32_t>> no_dmi_[2];  // ranges known to refuse DMI
  uint32_t fetch_mask_ = 0xFFFFFFFFu;
};

}  // namespace socsim
