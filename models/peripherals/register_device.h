// Base of the small memory-mapped devices: turns TLM transactions into register reads and
// writes at an offset, with the core cycle at which the access happens (the CPU runs
// temporally decoupled, so that is SystemC time plus the transaction's delay).
#pragma once

#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>

#include "models/common/clock.h"

namespace socsim {

class RegisterDevice : public sc_core::sc_module {
 public:
  RegisterDevice(sc_core::sc_module_name name, const ClockDomain& clock);

  tlm_utils::simple_target_socket<RegisterDevice> target_socket;

 protected:
  /// A read of `size` bytes at `offset`; return false to answer with an error.
  virtual bool read_reg(uint64_t offset, unsigned size, uint64_t cycle, uint32_t* value) = 0;
  virtual bool write_reg(uint64_t offset, unsigned size, uint32_t value, uint64_t cycle) = 0;
  const ClockDomain& clock_;

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& trans);
};

}  // namespace socsim
