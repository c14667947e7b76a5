#include "models/ddr/ddr.h"

#include <cstdlib>
#include <cstring>
#include <new>

#include "models/common/initiator.h"

namespace socsim {

namespace {

uint64_t to_ps(const sc_core::sc_time& t) {
  static const sc_core::sc_time kPs(1, sc_core::SC_PS);
  // With the default 1 ps resolution this is exact; otherwise it rounds.
  if (sc_core::sc_get_time_resolution() == kPs) return t.value();
  return static_cast<uint64_t>(t / kPs + 0.5);
}

}  // namespace

Ddr::Ddr(sc_core::sc_module_name name, const DdrConfig& config, uint64_t size_bytes)
    : sc_core::sc_module(name),
      target_socket("target_socket"),
      timing_(config),
      size_(size_bytes),
      store_(nullptr) {
  check_ddr_region_size(config, size_bytes, std::string(this->name()));
  // calloc of a large block maps zero pages lazily: only touched pages cost memory.
  store_ = static_cast<uint8_t*>(std::calloc(size_bytes, 1));
  if (store_ == nullptr) throw std::bad_alloc();
  target_socket.register_b_transport(this, &Ddr::b_transport);
  target_socket.register_transport_dbg(this, &Ddr::transport_dbg);
}

Ddr::~Ddr() {
  std::free(store_);
}

bool Ddr::copy_data(tlm::tlm_generic_payload& trans) {
  const uint64_t addr = trans.get_address();
  const uint32_t length = trans.get_data_length();
  if (addr > size_ || length > size_ - addr) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  if (trans.get_streaming_width() != 0 && trans.get_streaming_width() < length) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return false;
  }
  uint8_t* const mem = store_ + addr;
  uint8_t* const data = trans.get_data_ptr();
  const uint8_t* const enables = trans.get_byte_enable_ptr();
  const uint32_t enable_length = trans.get_byte_enable_length();
  if (trans.is_read()) {
    std::memcpy(data, mem, length);
  } else if (trans.is_write()) {
    if (enables == nullptr) {
      std::memcpy(mem, data, length);
    } else {
      for (uint32_t i = 0; i < length; ++i) {
        if (enables[i % enable_length] == TLM_BYTE_ENABLED) mem[i] = data[i];
      }
    }
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

int Ddr::initiator_of(const tlm::tlm_generic_payload& trans) {
  const InitiatorExtension* ext = trans.get_extension<InitiatorExtension>();
  if (ext == nullptr) return InitiatorExtension::kCpuId;
  const size_t id = static_cast<size_t>(ext->id < 0 ? 0 : ext->id);
  if (id >= named_.size() || !named_[id]) {
    if (id >= named_.size()) named_.resize(id + 1, false);
    named_[id] = true;
    timing_.stats().set_initiator_name(static_cast<int>(id), ext->name);
  }
  return static_cast<int>(id);
}

void Ddr::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  if (!copy_data(trans)) return;
  if (trans.is_read() || trans.is_write()) {
    const uint64_t arrival_ps = to_ps(sc_core::sc_time_stamp() + delay);
    const DdrResult result = timing_.access(arrival_ps, trans.is_write(), trans.get_address(),
                                            trans.get_data_length(), initiator_of(trans));
    delay += sc_core::sc_time(static_cast<double>(result.done_ps - arrival_ps), sc_core::SC_PS);
    if (access_log_ != nullptr) {
      access_log_->push_back(
          {arrival_ps, result.done_ps, trans.get_data_length(), trans.is_write()});
    }
  }
  trans.set_dmi_allowed(false);
}

unsigned int Ddr::transport_dbg(tlm::tlm_generic_payload& trans) {
  const uint64_t addr = trans.get_address();
  if (addr >= size_) return 0;
  const uint32_t length =
      static_cast<uint32_t>(std::min<uint64_t>(trans.get_data_length(), size_ - addr));
  if (trans.is_read()) {
    std::memcpy(trans.get_data_ptr(), store_ + addr, length);
  } else if (trans.is_write()) {
    std::memcpy(store_ + addr, trans.get_data_ptr(), length);
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  return length;
}

}  // namespace socsim
