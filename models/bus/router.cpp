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

namespace {

void make_checker(std::vector<std::unique_ptr<ProtocolChecker>>& links, unsigned index,
                  const std::string& link, ProtocolChecker::Handler handler) {
  if (links.size() <= index) links.resize(index + 1);
  links[index] = std::make_unique<ProtocolChecker>(link, std::move(handler));
}

}  // namespace

void Router::check_initiator(unsigned id, const std::string& link,
                             ProtocolChecker::Handler handler) {
  make_checker(initiator_checks_, id, link, std::move(handler));
}

void Router::check_target(unsigned target, const std::string& link,
                          ProtocolChecker::Handler handler) {
  make_checker(target_checks_, target, link, std::move(handler));
}

std::vector<const ProtocolChecker*> Router::checkers() const {
  std::vector<const ProtocolChecker*> all;
  for (const auto* links : {&initiator_checks_, &target_checks_}) {
    for (const auto& c : *links) {
      if (c) all.push_back(c.get());
    }
  }
  return all;
}

void Router::b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  ProtocolChecker* in = checker_of(initiator_checks_, static_cast<unsigned>(id));
  ProtocolChecker::Snapshot sent;
  if (in) sent = in->before_transport(trans, delay);
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
  } else {
    trans.set_address(addr - r->base + r->target_offset);
    ProtocolChecker* out = checker_of(target_checks_, r->target);
    if (out) {
      const ProtocolChecker::Snapshot forwarded = out->before_transport(trans, delay);
      initiator_socket[r->target]->b_transport(trans, delay);
      out->after_transport(trans, forwarded, delay);
    } else {
      initiator_socket[r->target]->b_transport(trans, delay);
    }
    trans.set_address(addr);
  }
  if (in) in->after_transport(trans, sent, delay);
}

bool Router::get_direct_mem_ptr(int id, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
  ProtocolChecker* in = checker_of(initiator_checks_, static_cast<unsigned>(id));
  if (in) in->before_dmi(trans, dmi);
  const bool granted = forward_dmi(trans, dmi);
  if (in) in->after_dmi(trans, dmi, granted);
  return granted;
}

bool Router::forward_dmi(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
  const uint64_t addr = trans.get_address();
  const Region* r = find(addr);
  if (r == nullptr) {
    dmi.set_start_address(addr);
    dmi.set_end_address(addr);
    return false;
  }
  trans.set_address(addr - r->base + r->target_offset);
  ProtocolChecker* out = checker_of(target_checks_, r->target);
  if (out) out->before_dmi(trans, dmi);
  const bool granted = initiator_socket[r->target]->get_direct_mem_ptr(trans, dmi);
  if (out) out->after_dmi(trans, dmi, granted);
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

unsigned Router::transport_dbg(int id, tlm::tlm_generic_payload& trans) {
  ProtocolChecker* in = checker_of(initiator_checks_, static_cast<unsigned>(id));
  if (in) in->before_debug(trans);
  unsigned n = 0;
  const uint64_t addr = trans.get_address();
  const Region* r = find(addr);
  if (r != nullptr && trans.get_data_length() <= r->size - (addr - r->base)) {
    trans.set_address(addr - r->base + r->target_offset);
    ProtocolChecker* out = checker_of(target_checks_, r->target);
    if (out) out->before_debug(trans);
    n = initiator_socket[r->target]->transport_dbg(trans);
    if (out) out->after_debug(trans, n);
    trans.set_address(addr);
  }
  if (in) in->after_debug(trans, n);
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
