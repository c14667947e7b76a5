// A plain blocking TLM access (no byte enables, no DMI hint) issued at a model's own local
// time: the helpers the CPU bridge and the NPU's DMA share.
#pragma once

#include <systemc>
#include <tlm>

namespace socsim {

/// Resets `p` for a `size`-byte access of `cmd` at `addr` on `data`.
inline void prepare_access(tlm::tlm_generic_payload& p, tlm::tlm_command cmd, uint64_t addr,
                           unsigned char* data, unsigned size) {
  p.set_command(cmd);
  p.set_address(addr);
  p.set_data_ptr(data);
  p.set_data_length(size);
  p.set_streaming_width(size);
  p.set_byte_enable_ptr(nullptr);
  p.set_dmi_allowed(false);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

/// The b_transport delay of an access issued at `issue`, a time at or after SystemC's.
inline sc_core::sc_time delay_until(const sc_core::sc_time& issue) {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  return issue > now ? issue - now : sc_core::SC_ZERO_TIME;
}

}  // namespace socsim
