// TLM-2.0 base-protocol checking for one socket binding of the router: the rules of IEEE Std
// 1666-2011 for blocking transport, DMI and debug transport that can be seen from the
// transaction as it passes (the rules the Accellera/Doulos tlm2_base_protocol_checker checks
// for these interfaces; Debian's SystemC does not ship that checker). The router calls
// `before_*` as a transaction enters a checked link and `after_*` when it returns, so the
// initiator's obligations are checked on the way in and the target's on the way back.
//
// A violation is reported through the handler given at construction with the link's name,
// the rule and its clause, and the transaction (command, address, length); the SoC turns it
// into a stop of the run with status 3. Checking costs nothing on links where it is off:
// the router holds no checker there (docs/hardening.md, "Protocol checking").
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <tlm>
#include <vector>

namespace socsim {

class ProtocolChecker {
 public:
  /// Gets the message and the transaction's time offset from SystemC time (its b_transport
  /// delay; zero for DMI and debug requests).
  using Handler = std::function<void(const std::string& message, const sc_core::sc_time& offset)>;

  /// `link` names the binding in messages ("cpu -> router", "router -> ram").
  ProtocolChecker(std::string link, Handler handler);

  /// What after_transport() compares with: the attributes the initiator set.
  struct Snapshot {
    tlm::tlm_command command = tlm::TLM_IGNORE_COMMAND;
    unsigned char* data = nullptr;
    unsigned length = 0;
    unsigned char* byte_enables = nullptr;
    unsigned byte_enable_length = 0;
    unsigned streaming_width = 0;
    tlm::tlm_gp_option option = tlm::TLM_MIN_PAYLOAD;
    /// A copy of a write's data, then of the byte-enable array (inline up to kInline bytes:
    /// most accesses are a word, and a checked link should not allocate for each).
    static constexpr unsigned kInline = 64;
    unsigned char copy_inline[kInline];
    std::vector<unsigned char> copy_heap;
    const unsigned char* copy() const { return copy_heap.empty() ? copy_inline : copy_heap.data(); }
    /// Bytes of the copy that are the write's data (0 for reads).
    unsigned written() const {
      return command == tlm::TLM_WRITE_COMMAND && data != nullptr ? length : 0;
    }
  };

  /// b_transport: the transaction as the initiator passes it (initial state, 14.x) and as
  /// the target returns it (a response set, initiator-owned attributes unchanged).
  Snapshot before_transport(const tlm::tlm_generic_payload& trans, const sc_core::sc_time& delay);
  void after_transport(const tlm::tlm_generic_payload& trans, const Snapshot& sent,
                       const sc_core::sc_time& delay);

  /// get_direct_mem_ptr: the DMI descriptor's initial state (11.2.5) and the grant.
  void before_dmi(const tlm::tlm_generic_payload& trans, const tlm::tlm_dmi& dmi);
  void after_dmi(const tlm::tlm_generic_payload& trans, const tlm::tlm_dmi& dmi, bool granted);

  /// transport_dbg: data pointer and the count returned (11.3.4).
  void before_debug(const tlm::tlm_generic_payload& trans);
  void after_debug(const tlm::tlm_generic_payload& trans, unsigned count);

  const std::string& link() const { return link_; }
  uint64_t checked() const { return checked_; }

 private:
  void fail(const tlm::tlm_generic_payload& trans, const std::string& rule, const char* clause);

  const sc_core::sc_time* offset_ = nullptr;  ///< the delay of the transport being checked
  std::string link_;
  Handler handler_;
  uint64_t checked_ = 0;
};

}  // namespace socsim
