#include "models/cpu/obi_tlm_bridge.h"

#include <cstring>

#include "models/common/tlm_access.h"

namespace socsim {

ObiTlmBridge::ObiTlmBridge(sc_core::sc_module_name name, const ClockDomain& clock)
    : sc_module(name), instr_socket("instr_socket"), data_socket("data_socket"), clock_(clock) {
  instr_socket.register_invalidate_direct_mem_ptr(this, &ObiTlmBridge::invalidate);
  data_socket.register_invalidate_direct_mem_ptr(this, &ObiTlmBridge::invalidate);
}

void ObiTlmBridge::invalidate(sc_dt::uint64, sc_dt::uint64) {
  for (auto& w : windows_) w.clear();
  for (auto& r : no_dmi_) r.clear();
}

BusResult ObiTlmBridge::transport(BusPort port, tlm::tlm_command cmd, uint32_t addr,
                                  unsigned bytes, uint8_t* data, uint64_t cycle) {
  prepare_access(payload_, cmd, addr, data, bytes);
  // The access is issued at the CPU's local time, ahead of (or at) SystemC time.
  sc_core::sc_time delay = delay_until(clock_.time_of(cycle));
  const sc_core::sc_time before = delay;
  socket(port)->b_transport(payload_, delay);
  BusResult result;
  result.ok = payload_.is_response_ok();
  result.wait_cycles = delay > before ? static_cast<uint32_t>(clock_.cycles_for(delay - before)) : 0;
  return result;
}

BusResult ObiTlmBridge::read(BusPort port, uint32_t addr, unsigned bytes, uint32_t* data,
                             uint64_t cycle) {
  if (port == BusPort::kInstr) addr &= fetch_mask_;
  uint8_t buf[4] = {0, 0, 0, 0};
  BusResult r = transport(port, tlm::TLM_READ_COMMAND, addr, bytes, buf, cycle);
  uint32_t v = 0;
  std::memcpy(&v, buf, 4);
  *data = v;
  return r;
}

BusResult ObiTlmBridge::write(BusPort port, uint32_t addr, unsigned bytes, uint32_t data,
                              uint64_t cycle) {
  uint8_t buf[4];
  std::memcpy(buf, &data, 4);
  return transport(port, tlm::TLM_WRITE_COMMAND, addr, bytes, buf, cycle);
}

DirectWindow ObiTlmBridge::direct_window(BusPort port, uint32_t addr) {
  if (port == BusPort::kInstr && (addr & ~fetch_mask_) != 0) {
    // A fetch above the wrap size: the window of the wrapped address, moved up to the copy of
    // the wrapped space that `addr` is in (and cut at its end).
    DirectWindow w = direct_window(port, addr & fetch_mask_);
    if (w.data == nullptr || w.base > fetch_mask_) return DirectWindow{};
    const uint64_t room = uint64_t(fetch_mask_) + 1 - w.base;
    if (w.size > room) w.size = static_cast<uint32_t>(room);
    w.base += addr & ~fetch_mask_;
    return w;
  }
  const int p = static_cast<int>(port);
  for (const DirectWindow& w : windows_[p]) {
    if (w.contains(addr, 1)) return w;
  }
  for (const auto& [lo, hi] : no_dmi_[p]) {
    if (addr >= lo && addr <= hi) return DirectWindow{};
  }
  tlm::tlm_generic_payload trans;
  tlm::tlm_dmi dmi;
  trans.set_command(tlm::TLM_READ_COMMAND);
  trans.set_address(addr);
  if (!socket(port)->get_direct_mem_ptr(trans, dmi) || !dmi.is_read_allowed()) {
    // Remember the refusal for the range the target named, so we do not ask again.
    no_dmi_[p].emplace_back(static_cast<uint32_t>(dmi.get_start_address()),
                            static_cast<uint32_t>(dmi.get_end_address()));
    if (dmi.get_start_address() > addr || dmi.get_end_address() < addr) {
      no_dmi_[p].back() = {addr, addr};
    }
    return DirectWindow{};
  }
  DirectWindow w;
  w.base = static_cast<uint32_t>(dmi.get_start_address());
  w.size = static_cast<uint32_t>(dmi.get_end_address() - dmi.get_start_address() + 1);
  w.data = dmi.get_dmi_ptr();
  w.writable = dmi.is_write_allowed();
  w.read_wait = static_cast<uint32_t>(clock_.cycles_for(dmi.get_read_latency()));
  w.write_wait = static_cast<uint32_t>(clock_.cycles_for(dmi.get_write_latency()));
  windows_[p].push_back(w);
  return w;
}

bool ObiTlmBridge::debug_write(uint32_t addr, const uint8_t* data, uint32_t size) {
  tlm::tlm_generic_payload trans;
  trans.set_command(tlm::TLM_WRITE_COMMAND);
  trans.set_address(addr);
  trans.set_data_ptr(const_cast<uint8_t*>(data));
  trans.set_data_length(size);
  return data_socket->transport_dbg(trans) == size;
}

bool ObiTlmBridge::debug_read(uint32_t addr, uint8_t* data, uint32_t size) {
  tlm::tlm_generic_payload trans;
  trans.set_command(tlm::TLM_READ_COMMAND);
  trans.set_address(addr);
  trans.set_data_ptr(data);
  trans.set_data_length(size);
  return data_socket->transport_dbg(trans) == size;
}

}  // namespace socsim
