#include "models/bus/router.h"

#include <cstring>

namespace socsim {

Router::Router(sc_core::sc_module_name name)
    : sc_module(name), target_socket("target_socket"), initiator_socket("initiator_socket") {
  target_socket.register_b_transport(this, &Router::b_transport);
  target_socket.register_get_direct_mem_ptr(this, &Router::get_direct_mem_ptr);
  target_socket.register_transport_dbg(this, &Router::transport_dbg);
  initiator_socket.register_invalidate_direct_mem_ptr(this, &Router::invalidate_direct_mem_ptr);
}

void Router::add_region(const Region& region) {
  regions_.push_back(region);
  last_ = nullptr;
}

const Router::Region* Router::find(uint64_t addr) const {
  if (last_ != nullptr && addr - last_->base < last_->size) return last_;
  for (const Region& r : regions_) {
    if (addr - r.base < r.size) {
      last_ = &r;
      return &r;
    }
  }
  return nullptr;
}

void Router::b_transport(int, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const uint64_t addr = trans.get_address();
  const Region* r = find(addr);
  if (r == nullptr || trans.get_data_length() > r->size - (addr - r->base)) {
    ++unmapped_accesses_;
    if (lenient_) {
      if (trans.is_read()) std::memset(trans.get_data_ptr(), 0, trans.get_data_length());
      trans.set_response_status(tlm::TLM_OK_RESPONSE);
    } else {
      trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    }
    return;
  }
  trans.set_address(addr - r->base + r->target_offset);
  initiator_socket[r->target]->b_transport(trans, delay);
  trans.set_address(addr);
}

bool Router::get_direct_mem_ptr(int, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
  const uint64_t addr = trans.get_address();
  const Region* r = find(addr);
  if (r == nullptr) {
    dmi.set_start_address(addr);
    dmi.set_end_address(addr);
    return false;
  }
  trans.set_address(addr - r->base + r->target_offset);
  const bool granted = initiator_socket[r->target]->get_direct_mem_ptr(trans, dmi);
  trans.set_address(addr);
  // Translate the target's range back to the global map and clip it to this region.
  const uint64_t lo_local = r->target_offset;
  const uint64_t hi_local = r->target_offset + r->size - 1;
  uint64_t start = dmi.get_start_address();
  uint64_t end = dmi.get_end_address();
  if (start < lo_local) {
    if (granted) dmi.set_dmi_ptr(dmi.get_dmi_ptr() + (lo_local - start));
    start = lo_local;
  }
  if (end > hi_local) end = hi_local;
  dmi.set_start_address(start - r->target_offset + r->base);
  dmi.set_end_address(end - r->target_offset + r->base);
  return granted;
}

unsigned Router::transport_dbg(int, tlm::tlm_generic_payload& trans) {
  const uint64_t addr = trans.get_address();
  const Region* r = find(addr);
  if (r == nullptr || trans.get_data_length() > r->size - (addr - r->base)) return 0;
  trans.set_address(addr - r->base + r->target_offset);
  const unsigned n = initiator_socket[r->target]->transport_dbg(trans);
  trans.set_address(addr);
  return n;
}

void Router::invalidate_direct_mem_ptr(int target, sc_dt::uint64 start, sc_dt::uint64 end) {
  for (const Region& r : regions_) {
    if (static_cast<int>(r.target) != target) continue;
    for (unsigned i = 0; i < target_socket.size(); ++i) {
      target_socket[i]->invalidate_direct_mem_ptr(r.base, r.base + r.size - 1);
    }
  }
}

}  // namespace socsim
