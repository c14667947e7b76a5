#include "models/bus/protocol_checker.h"

#include <cstring>
#include <sstream>

#include "models/common/hex.h"

namespace socsim {

namespace {

const char* command_name(tlm::tlm_command c) {
  switch (c) {
    case tlm::TLM_READ_COMMAND:
      return "read";
    case tlm::TLM_WRITE_COMMAND:
      return "write";
    case tlm::TLM_IGNORE_COMMAND:
      return "ignore";
  }
  return "unknown command";
}

bool from_method_process() {
  const sc_core::sc_process_handle p = sc_core::sc_get_current_process_handle();
  return p.valid() && p.proc_kind() == sc_core::SC_METHOD_PROC_;
}

}  // namespace

ProtocolChecker::ProtocolChecker(std::string link, Handler handler)
    : link_(std::move(link)), handler_(std::move(handler)) {}

void ProtocolChecker::fail(const tlm::tlm_generic_payload& trans, const std::string& rule,
                           const char* clause) {
  std::ostringstream m;
  m << "TLM-2.0 base protocol violation on " << link_ << ": " << rule << " (IEEE 1666-2011 "
    << clause << "); " << command_name(trans.get_command()) << " of " << trans.get_data_length()
    << " bytes at " << hex(trans.get_address()) << ", response " << trans.get_response_string();
  handler_(m.str(), offset_ != nullptr ? *offset_ : sc_core::SC_ZERO_TIME);
}

ProtocolChecker::Snapshot ProtocolChecker::before_transport(const tlm::tlm_generic_payload& t,
                                                            const sc_core::sc_time& delay) {
  ++checked_;
  offset_ = &delay;
  const bool ignore = t.get_command() == tlm::TLM_IGNORE_COMMAND;
  if (t.get_command() != tlm::TLM_READ_COMMAND && t.get_command() != tlm::TLM_WRITE_COMMAND &&
      !ignore) {
    fail(t, "command is not read, write or ignore", "14.9");
  }
  if (t.get_data_ptr() == nullptr && !ignore) fail(t, "data pointer is null", "14.11 e)");
  if (t.get_data_length() == 0 && !ignore) fail(t, "data length is 0", "14.12 d)");
  if (t.get_byte_enable_ptr() != nullptr && t.get_byte_enable_length() == 0) {
    fail(t, "byte-enable pointer set with a byte-enable length of 0", "14.14 f)");
  }
  if (t.get_streaming_width() == 0) fail(t, "streaming width is 0", "14.15 f)");
  if (t.is_dmi_allowed()) fail(t, "DMI-allowed hint set by the initiator", "14.16");
  if (t.get_response_status() != tlm::TLM_INCOMPLETE_RESPONSE) {
    fail(t, "response status is not TLM_INCOMPLETE_RESPONSE when sent", "14.17 e)");
  }
  if (t.get_gp_option() != tlm::TLM_MIN_PAYLOAD) {
    fail(t, "gp_option is not TLM_MIN_PAYLOAD when sent", "14.8 g)");
  }
  if (from_method_process()) fail(t, "b_transport called from an SC_METHOD", "11.1.1.4 b)");

  Snapshot s;
  s.command = t.get_command();
  s.data = t.get_data_ptr();
  s.length = t.get_data_length();
  s.byte_enables = t.get_byte_enable_ptr();
  s.byte_enable_length = t.get_byte_enable_length();
  s.streaming_width = t.get_streaming_width();
  s.option = t.get_gp_option();
  const unsigned written = s.written();
  const unsigned enables = s.byte_enables ? s.byte_enable_length : 0;
  unsigned char* copy = s.copy_inline;
  if (written + enables > Snapshot::kInline) {
    s.copy_heap.resize(written + enables);
    copy = s.copy_heap.data();
  }
  if (written > 0) std::memcpy(copy, s.data, written);
  if (enables > 0) std::memcpy(copy + written, s.byte_enables, enables);
  offset_ = nullptr;
  return s;
}

void ProtocolChecker::after_transport(const tlm::tlm_generic_payload& t, const Snapshot& s,
                                      const sc_core::sc_time& delay) {
  offset_ = &delay;
  if (t.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE) {
    fail(t, "the target returned without setting a response status", "14.17");
  }
  if (t.get_command() != s.command) fail(t, "command modified by the target", "14.7");
  if (t.get_data_ptr() != s.data) fail(t, "data pointer modified by the target", "14.7");
  if (t.get_data_length() != s.length) fail(t, "data length modified by the target", "14.7");
  const unsigned written = s.written();
  if (t.get_byte_enable_ptr() != s.byte_enables ||
      t.get_byte_enable_length() != s.byte_enable_length) {
    fail(t, "byte enables modified by the target", "14.7");
  } else if (s.byte_enables != nullptr &&
             std::memcmp(s.byte_enables, s.copy() + written, s.byte_enable_length) != 0) {
    fail(t, "byte-enable array modified by the target", "14.7");
  }
  if (t.get_streaming_width() != s.streaming_width) {
    fail(t, "streaming width modified by the target", "14.7");
  }
  if (s.option == tlm::TLM_MIN_PAYLOAD && t.get_gp_option() != tlm::TLM_MIN_PAYLOAD) {
    fail(t, "gp_option modified by the target", "14.8 g)");
  }
  if (written > 0 && t.get_data_ptr() == s.data && std::memcmp(s.data, s.copy(), written) != 0) {
    fail(t, "a write's data array modified by the target", "14.7");
  }
  offset_ = nullptr;
}

void ProtocolChecker::before_dmi(const tlm::tlm_generic_payload& t, const tlm::tlm_dmi& dmi) {
  ++checked_;
  if (dmi.get_dmi_ptr() != nullptr) fail(t, "DMI descriptor sent with a pointer", "11.2.5 f)");
  if (!dmi.is_none_allowed()) fail(t, "DMI descriptor sent with access granted", "11.2.5 a)");
  if (dmi.get_start_address() != 0 || dmi.get_end_address() != ~sc_dt::uint64{0}) {
    fail(t, "DMI descriptor sent with an address range other than [0, max]", "11.2.5 u)");
  }
  if (dmi.get_read_latency() != sc_core::SC_ZERO_TIME ||
      dmi.get_write_latency() != sc_core::SC_ZERO_TIME) {
    fail(t, "DMI descriptor sent with latencies", "11.2.5 ac)");
  }
  if (t.get_gp_option() == tlm::TLM_FULL_PAYLOAD_ACCEPTED) {
    fail(t, "DMI request with gp_option TLM_FULL_PAYLOAD_ACCEPTED", "14.8 c)");
  }
}

void ProtocolChecker::after_dmi(const tlm::tlm_generic_payload& t, const tlm::tlm_dmi& dmi,
                                bool granted) {
  if (dmi.get_start_address() > dmi.get_end_address()) {
    fail(t, "DMI range returned with its start after its end", "11.2.5");
  }
  if (!granted) return;
  const uint64_t addr = t.get_address();
  if (addr < dmi.get_start_address() || addr > dmi.get_end_address()) {
    fail(t,
         "DMI granted for a range [" + hex(dmi.get_start_address()) + ", " +
             hex(dmi.get_end_address()) + "] that does not hold the requested address",
         "11.2.5");
  }
  if (dmi.get_dmi_ptr() == nullptr) fail(t, "DMI granted with a null pointer", "11.2.5");
  if (dmi.is_none_allowed()) fail(t, "DMI granted with no access allowed", "11.2.5");
}

void ProtocolChecker::before_debug(const tlm::tlm_generic_payload& t) {
  ++checked_;
  if (t.get_data_length() > 0 && t.get_data_ptr() == nullptr) {
    fail(t, "debug transaction with data but a null data pointer", "11.3.4 l)");
  }
}

void ProtocolChecker::after_debug(const tlm::tlm_generic_payload& t, unsigned count) {
  if (count > t.get_data_length()) {
    fail(t,
         "transport_dbg returned a count of " + std::to_string(count) +
             ", more than the data length",
         "11.3.4 s)");
  }
}

}  // namespace socsim
