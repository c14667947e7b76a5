#include "models/memory/sram.h"

#include <cstdlib>
#include <cstring>
#include <new>

namespace socsim {

Sram::Sram(sc_core::sc_module_name name, const Config& config, const ClockDomain& clock)
    : sc_module(name),
      target_socket("target_socket"),
      config_(config),
      latency_(clock.time_of(config.latency_cycles)),
      storage_(static_cast<uint8_t*>(std::calloc(config.size, 1))) {
  if (!storage_) throw std::bad_alloc();
  target_socket.register_b_transport(this, &Sram::b_transport);
  target_socket.register_get_direct_mem_ptr(this, &Sram::get_direct_mem_ptr);
  target_socket.register_transport_dbg(this, &Sram::transport_dbg);
}

void Sram::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const uint64_t addr = trans.get_address();
  const unsigned len = trans.get_data_length();
  if (addr >= config_.size || len > config_.size - addr || trans.get_byte_enable_ptr()) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (trans.is_write()) {
    if (config_.read_only) {
      trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
      return;
    }
    std::memcpy(storage_.get() + addr, trans.get_data_ptr(), len);
  } else if (trans.is_read()) {
    std::memcpy(trans.get_data_ptr(), storage_.get() + addr, len);
  }
  delay += latency_;
  trans.set_dmi_allowed(true);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

bool Sram::get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
  dmi.set_dmi_ptr(storage_.get());
  dmi.set_start_address(0);
  dmi.set_end_address(config_.size - 1);
  dmi.set_read_latency(latency_);
  dmi.set_write_latency(latency_);
  dmi.allow_read();
  if (!config_.read_only) dmi.allow_read_write();
  return true;
}

unsigned Sram::transport_dbg(tlm::tlm_generic_payload& trans) {
  const uint64_t addr = trans.get_address();
  if (addr >= config_.size) return 0;
  const unsigned len =
      static_cast<unsigned>(std::min<uint64_t>(trans.get_data_length(), config_.size - addr));
  if (trans.is_write()) {
    std::memcpy(storage_.get() + addr, trans.get_data_ptr(), len);
  } else {
    std::memcpy(trans.get_data_ptr(), storage_.get() + addr, len);
  }
  return len;
}

}  // namespace socsim
