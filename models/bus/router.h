// The SoC interconnect: decodes addresses from the memory map and forwards TLM-2.0
// transactions (blocking, DMI and debug) from any initiator to the target that owns them.
//
// Targets see addresses relative to their region base. A region may also be an alias:
// a window onto another target at an offset (the core-v-verif debug area, for one).
// Accesses that hit no region either fail with an address error (the default: the CPU
// model reports it with PC and cycle) or, in lenient mode, read 0 and drop writes.
//
// Any binding may be checked against the TLM-2.0 base protocol (protocol_checker.h): a
// checked initiator link sees the initiator's obligations checked as its transactions enter
// the router and the router's as they return; a checked target link the router's on the way
// out and the target's on the way back.
#pragma once

#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <memory>
#include <string>
#include <vector>

#include "models/bus/protocol_checker.h"

namespace socsim {

class Router : public sc_core::sc_module {
 public:
  struct Region {
    std::string name;
    uint64_t base = 0;
    uint64_t size = 0;
    unsigned target = 0;       ///< index of the initiator-socket binding
    uint64_t target_offset = 0;  ///< address inside the target of the region's first byte
  };

  explicit Router(sc_core::sc_module_name name);

  tlm_utils::multi_passthrough_target_socket<Router> target_socket;        // initiators bind here
  tlm_utils::multi_passthrough_initiator_socket<Router> initiator_socket;  // targets bind here

  /// Adds a region routed to the target bound as `target` (binding order). Regions must not
  /// overlap (the platform checks this when reading the YAML, naming the keys).
  void add_region(const Region& region);
  void set_lenient(bool lenient) { lenient_ = lenient; }
  const std::vector<Region>& regions() const { return regions_; }
  /// The region containing `addr`, or nullptr.
  const Region* find(uint64_t addr) const;

  uint64_t unmapped_accesses() const { return unmapped_accesses_; }

  /// Checks the base protocol on the initiator bound to target_socket as binding `id`
  /// (binding order), naming it `link` in reports, which go to `handler`.
  void check_initiator(unsigned id, const std::string& link, ProtocolChecker::Handler handler);
  /// The same for the target bound to initiator_socket as binding `target`.
  void check_target(unsigned target, const std::string& link, ProtocolChecker::Handler handler);
  /// Every checker, initiator links first (for statistics and tests).
  std::vector<const ProtocolChecker*> checkers() const;

 private:
  void b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  bool forward_dmi(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  unsigned transport_dbg(int id, tlm::tlm_generic_payload& trans);
  void invalidate_direct_mem_ptr(int id, sc_dt::uint64 start, sc_dt::uint64 end);

  /// The checker of a binding, or null (unchecked).
  static ProtocolChecker* checker_of(const std::vector<std::unique_ptr<ProtocolChecker>>& links,
                                     unsigned index) {
    return index < links.size() ? links[index].get() : nullptr;
  }

  std::vector<Region> regions_;
  std::vector<std::unique_ptr<ProtocolChecker>> initiator_checks_;  ///< by target_socket id
  std::vector<std::unique_ptr<ProtocolChecker>> target_checks_;     ///< by initiator binding
  mutable const Region* last_ = nullptr;
  bool lenient_ = false;
  uint64_t unmapped_accesses_ = 0;
};

}  // namespace socsim
