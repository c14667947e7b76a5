// The DDR memory as a SystemC TLM-2.0 target: stores the data and times every access with
// DdrTiming.
//
// Addresses are offsets inside the DDR region (the router subtracts the region base).
// b_transport adds the model's latency to the annotated delay, taking sc_time_stamp() +
// delay as the arrival time, so temporally decoupled initiators are timed where they are.
// There is no DMI: every access must be timed. transport_dbg reads and writes without
// timing (ELF and model loading).
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/ddr/ddr_config.h"
#include "models/ddr/ddr_timing.h"

namespace socsim {

/// One access as the DDR model timed it, for the timeline.
struct DdrAccessRecord {
  uint64_t arrival_ps = 0, done_ps = 0;
  uint32_t bytes = 0;
  bool write = false;
};

class Ddr : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Ddr> target_socket;

  /// A DDR region of `size_bytes` (at most the device capacity; ConfigError otherwise).
  /// Storage is reserved lazily: untouched memory costs nothing and reads as zero.
  Ddr(sc_core::sc_module_name name, const DdrConfig& config, uint64_t size_bytes);
  ~Ddr() override;
  Ddr(const Ddr&) = delete;
  Ddr& operator=(const Ddr&) = delete;

  uint64_t size() const { return size_; }
  /// The backing bytes, for loaders (no timing).
  uint8_t* data() { return store_; }
  DdrTiming& timing() { return timing_; }
  const DdrStats& stats() const { return timing_.stats(); }
  /// Records every timed access into `log` (not owned; null: none, the default).
  void set_access_log(std::vector<DdrAccessRecord>* log) { access_log_ = log; }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans);
  /// Copies data; false (and an error response set) if the payload is not serviceable.
  bool copy_data(tlm::tlm_generic_payload& trans);
  int initiator_of(const tlm::tlm_generic_payload& trans);

  DdrTiming timing_;
  uint64_t size_;
  uint8_t* store_;
  std::vector<bool> named_;
  std::vector<DdrAccessRecord>* access_log_ = nullptr;
};

}  // namespace socsim
