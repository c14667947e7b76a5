// On-chip memory (SRAM/TCM, or a ROM when read-only): zero wait states by default,
// i.e. grant in the request cycle and data the next, which is the CPU's own pipeline
// timing, so no extra cycles are annotated. Grants DMI. Optional extra latency per access.
#pragma once

#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <memory>

#include "models/common/clock.h"

namespace socsim {

class Sram : public sc_core::sc_module {
 public:
  struct Config {
    uint64_t size = 0;
    uint32_t latency_cycles = 0;  ///< extra cycles per access beyond zero-wait
    bool read_only = false;       ///< a ROM: core writes fail, loaders may still write
  };

  Sram(sc_core::sc_module_name name, const Config& config, const ClockDomain& clock);

  tlm_utils::simple_target_socket<Sram> target_socket;

  uint8_t* data() { return storage_.get(); }
  uint64_t size() const { return config_.size; }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  unsigned transport_dbg(tlm::tlm_generic_payload& trans);

  struct FreeDeleter {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  Config config_;
  sc_core::sc_time latency_;
  std::unique_ptr<uint8_t, FreeDeleter> storage_;  // calloc: untouched pages cost nothing
};

}  // namespace socsim
