#include "models/peripherals/register_device.h"

#include <cstring>

namespace socsim {

RegisterDevice::RegisterDevice(sc_core::sc_module_name name, const ClockDomain& clock)
    : sc_module(name), target_socket("target_socket"), clock_(clock) {
  target_socket.register_b_transport(this, &RegisterDevice::b_transport);
  target_socket.register_transport_dbg(this, &RegisterDevice::transport_dbg);
}

void RegisterDevice::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const unsigned len = trans.get_data_length();
  if (len == 0 || len > 4) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  const uint64_t cycle = clock_.cycle_at(sc_core::sc_time_stamp() + delay);
  bool ok;
  if (trans.is_write()) {
    uint32_t value = 0;
    std::memcpy(&value, trans.get_data_ptr(), len);
    ok = write_reg(trans.get_address(), len, value, cycle);
  } else {
    uint32_t value = 0;
    ok = read_reg(trans.get_address(), len, cycle, &value);
    std::memcpy(trans.get_data_ptr(), &value, len);
  }
  trans.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

unsigned RegisterDevice::transport_dbg(tlm::tlm_generic_payload&) {
  return 0;  // registers have side effects: loaders may not touch them
}

}  // namespace socsim
