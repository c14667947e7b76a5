// TLM-2.0 base-protocol checking in the router: each rule the checker knows is broken once by
// a deliberately faulty initiator or target and must be reported with its link and clause;
// correct traffic (reads, writes, byte enables, DMI, debug, unmapped accesses) reports none.
#include "models/bus/protocol_checker.h"

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstring>
#include <string>
#include <vector>

#include "models/bus/router.h"
#include "models/common/clock.h"
#include "models/common/tlm_access.h"
#include "models/memory/sram.h"

namespace socsim {
namespace {

/// A target whose misbehaviour is chosen per test.
struct FaultyTarget : sc_core::sc_module {
  enum class Fault { kNone, kNoResponse, kChangesLength, kChangesWrittenData, kBadDmi, kBigCount };
  tlm_utils::simple_target_socket<FaultyTarget> socket{"socket"};
  Fault fault = Fault::kNone;
  unsigned char memory[64] = {};

  explicit FaultyTarget(sc_core::sc_module_name n) : sc_module(n) {
    socket.register_b_transport(this, &FaultyTarget::b_transport);
    socket.register_get_direct_mem_ptr(this, &FaultyTarget::get_direct_mem_ptr);
    socket.register_transport_dbg(this, &FaultyTarget::transport_dbg);
  }
  void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time&) {
    if (t.is_read()) std::memcpy(t.get_data_ptr(), memory + t.get_address(), t.get_data_length());
    if (t.is_write()) std::memcpy(memory + t.get_address(), t.get_data_ptr(), t.get_data_length());
    if (fault == Fault::kChangesLength) t.set_data_length(t.get_data_length() - 1);
    if (fault == Fault::kChangesWrittenData && t.is_write()) t.get_data_ptr()[0] ^= 1;
    if (fault != Fault::kNoResponse) t.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& t, tlm::tlm_dmi& dmi) {
    dmi.set_dmi_ptr(memory);
    dmi.allow_read_write();
    dmi.set_start_address(fault == Fault::kBadDmi ? 32 : 0);  // [32, 63] for address 0
    dmi.set_end_address(sizeof memory - 1);
    return true;
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& t) {
    return t.get_data_length() + (fault == Fault::kBigCount ? 1 : 0);
  }
};

struct Initiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Initiator> socket{"socket"};
  explicit Initiator(sc_core::sc_module_name n) : sc_module(n) {}
};

struct CheckerBench {
  ClockDomain clock{400};
  Initiator init{"init"};
  Router router{"router"};
  FaultyTarget target{"target"};
  Sram ram{"ram", {0x1000, 0, false}, clock};
  std::vector<std::string> reports;
  std::vector<sc_core::sc_time> offsets;  ///< the transaction's delay, per report

  CheckerBench() {
    init.socket.bind(router.target_socket);
    router.initiator_socket.bind(target.socket);
    router.initiator_socket.bind(ram.target_socket);
    router.add_region({"target", 0x100, 64, 0, 0});
    router.add_region({"ram", 0x10000, 0x1000, 1, 0});
    auto record = [this](const std::string& m, const sc_core::sc_time& offset) {
      reports.push_back(m);
      offsets.push_back(offset);
    };
    router.check_initiator(0, "init -> router", record);
    router.check_target(0, "router -> target", record);
    router.check_target(1, "router -> ram", record);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // completes the multi-socket bindings
  }

  void send(tlm::tlm_generic_payload& t, sc_core::sc_time delay = sc_core::SC_ZERO_TIME) {
    init.socket->b_transport(t, delay);
  }
};

// Every test elaborates its own bench: one per process (SystemC elaborates once).

TEST(ProtocolChecker, CorrectTrafficReportsNothing) {
  CheckerBench b;
  unsigned char data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  unsigned char enables[4] = {0xFF, 0, 0xFF, 0};
  tlm::tlm_generic_payload t;
  for (uint64_t addr : {0x100ull, 0x10000ull, 0x10010ull, 0x7000ull /* unmapped */}) {
    for (tlm::tlm_command cmd : {tlm::TLM_WRITE_COMMAND, tlm::TLM_READ_COMMAND}) {
      prepare_access(t, cmd, addr, data, 4);
      b.send(t);
      prepare_access(t, cmd, addr, data, 8);
      t.set_byte_enable_ptr(enables);
      t.set_byte_enable_length(4);
      b.send(t);
    }
  }
  tlm::tlm_dmi dmi;
  prepare_access(t, tlm::TLM_READ_COMMAND, 0x10020, data, 4);
  EXPECT_TRUE(b.init.socket->get_direct_mem_ptr(t, dmi));
  prepare_access(t, tlm::TLM_READ_COMMAND, 0x10000, data, 8);
  EXPECT_EQ(b.init.socket->transport_dbg(t), 8u);
  EXPECT_TRUE(b.reports.empty()) << b.reports.front();
  uint64_t checked = 0;
  for (const ProtocolChecker* c : b.router.checkers()) checked += c->checked();
  EXPECT_EQ(checked, 18u + 4u + 10u);  // init link: 16 + DMI + debug; target: 4; ram: 8 + 2
}

TEST(ProtocolChecker, InitiatorThatDoesNotResetTheResponseIsReported) {
  CheckerBench b;
  unsigned char data[4] = {};
  tlm::tlm_generic_payload t;
  prepare_access(t, tlm::TLM_READ_COMMAND, 0x10000, data, 4);
  t.set_response_status(tlm::TLM_OK_RESPONSE);  // left from the previous use
  b.send(t);
  // Seen as it enters the router, then again as the router passes it on to the RAM.
  ASSERT_EQ(b.reports.size(), 2u);
  EXPECT_NE(b.reports[0].find("on init -> router: response status is not "
                              "TLM_INCOMPLETE_RESPONSE when sent (IEEE 1666-2011 14.17 e)); read "
                              "of 4 bytes at 0x00010000"),
            std::string::npos)
      << b.reports[0];
  EXPECT_NE(b.reports[1].find("on router -> ram: response status"), std::string::npos)
      << b.reports[1];
}

TEST(ProtocolChecker, ZeroStreamingWidthAndNullDataAreReported) {
  CheckerBench b;
  tlm::tlm_generic_payload t;
  prepare_access(t, tlm::TLM_WRITE_COMMAND, 0x7000, nullptr, 4);
  t.set_streaming_width(0);
  b.send(t);
  ASSERT_EQ(b.reports.size(), 2u);
  EXPECT_NE(b.reports[0].find("data pointer is null (IEEE 1666-2011 14.11 e))"), std::string::npos);
  EXPECT_NE(b.reports[1].find("streaming width is 0 (IEEE 1666-2011 14.15 f))"), std::string::npos);
}

TEST(ProtocolChecker, TargetWithoutResponseIsReportedOnBothLinks) {
  CheckerBench b;
  b.target.fault = FaultyTarget::Fault::kNoResponse;
  unsigned char data[4] = {};
  tlm::tlm_generic_payload t;
  prepare_access(t, tlm::TLM_READ_COMMAND, 0x104, data, 4);
  b.send(t, sc_core::sc_time(25, sc_core::SC_NS));  // issued 25 ns ahead of SystemC time
  ASSERT_EQ(b.reports.size(), 2u);
  EXPECT_EQ(b.offsets[0], sc_core::sc_time(25, sc_core::SC_NS));
  // Seen first where the target returns (its address is region-relative there), then by the
  // initiator's link, where the router passed the missing response on.
  EXPECT_NE(b.reports[0].find("on router -> target: the target returned without setting a "
                              "response status (IEEE 1666-2011 14.17); read of 4 bytes at "
                              "0x00000004"),
            std::string::npos)
      << b.reports[0];
  EXPECT_NE(b.reports[1].find("on init -> router:"), std::string::npos) << b.reports[1];
}

TEST(ProtocolChecker, TargetThatChangesTheLengthIsReported) {
  CheckerBench b;
  b.target.fault = FaultyTarget::Fault::kChangesLength;
  unsigned char data[4] = {};
  tlm::tlm_generic_payload t;
  prepare_access(t, tlm::TLM_READ_COMMAND, 0x100, data, 4);
  b.send(t);
  ASSERT_FALSE(b.reports.empty());
  EXPECT_NE(b.reports[0].find("router -> target: data length modified by the target (IEEE "
                              "1666-2011 14.7)"),
            std::string::npos)
      << b.reports[0];
}

TEST(ProtocolChecker, TargetThatChangesWrittenDataIsReported) {
  CheckerBench b;
  b.target.fault = FaultyTarget::Fault::kChangesWrittenData;
  unsigned char data[4] = {9, 9, 9, 9};
  tlm::tlm_generic_payload t;
  prepare_access(t, tlm::TLM_WRITE_COMMAND, 0x100, data, 4);
  b.send(t);
  ASSERT_FALSE(b.reports.empty());
  EXPECT_NE(b.reports[0].find("a write's data array modified by the target"), std::string::npos)
      << b.reports[0];
}

TEST(ProtocolChecker, DmiGrantThatMissesTheAddressIsReported) {
  CheckerBench b;
  b.target.fault = FaultyTarget::Fault::kBadDmi;
  unsigned char data[4] = {};
  tlm::tlm_generic_payload t;
  tlm::tlm_dmi dmi;
  prepare_access(t, tlm::TLM_READ_COMMAND, 0x100, data, 4);
  b.init.socket->get_direct_mem_ptr(t, dmi);
  ASSERT_FALSE(b.reports.empty());
  EXPECT_NE(b.reports[0].find("router -> target: DMI granted for a range [0x00000020, "
                              "0x0000003f] that does not hold the requested address"),
            std::string::npos)
      << b.reports[0];
}

TEST(ProtocolChecker, DmiDescriptorThatIsNotFreshIsReported) {
  CheckerBench b;
  unsigned char data[4] = {};
  tlm::tlm_generic_payload t;
  tlm::tlm_dmi dmi;
  dmi.allow_read();
  prepare_access(t, tlm::TLM_READ_COMMAND, 0x10000, data, 4);
  b.init.socket->get_direct_mem_ptr(t, dmi);
  ASSERT_FALSE(b.reports.empty());
  EXPECT_NE(b.reports[0].find("init -> router: DMI descriptor sent with access granted (IEEE "
                              "1666-2011 11.2.5 a))"),
            std::string::npos)
      << b.reports[0];
}

TEST(ProtocolChecker, DebugCountAboveTheLengthIsReported) {
  CheckerBench b;
  b.target.fault = FaultyTarget::Fault::kBigCount;
  unsigned char data[4] = {};
  tlm::tlm_generic_payload t;
  prepare_access(t, tlm::TLM_READ_COMMAND, 0x100, data, 4);
  EXPECT_EQ(b.init.socket->transport_dbg(t), 5u);
  ASSERT_EQ(b.reports.size(), 2u);
  EXPECT_NE(b.reports[0].find("transport_dbg returned a count of 5, more than the data length "
                              "(IEEE 1666-2011 11.3.4 s))"),
            std::string::npos)
      << b.reports[0];
}

}  // namespace
}  // namespace socsim
