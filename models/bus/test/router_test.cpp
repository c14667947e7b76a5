// Router decoding, address translation, aliases, DMI ranges and unmapped accesses.
#include "models/bus/router.h"

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/memory/sram.h"

namespace socsim {
namespace {

struct Initiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Initiator> socket{"socket"};
  explicit Initiator(sc_core::sc_module_name n) : sc_module(n) {}
  tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t addr, uint32_t* data,
                                  unsigned len = 4) {
    tlm::tlm_generic_payload t;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    t.set_command(cmd);
    t.set_address(addr);
    t.set_data_ptr(reinterpret_cast<unsigned char*>(data));
    t.set_data_length(len);
    t.set_streaming_width(len);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    socket->b_transport(t, delay);
    return t.get_response_status();
  }
};

struct RouterBench {
  ClockDomain clock{400};
  Initiator init{"init"};
  Router router{"router"};
  Sram a{"a", {0x1000, 0, false}, clock};
  Sram b{"b", {0x4000, 2, false}, clock};
  RouterBench() {
    init.socket.bind(router.target_socket);
    router.initiator_socket.bind(a.target_socket);
    router.initiator_socket.bind(b.target_socket);
    router.add_region({"a", 0x0, 0x1000, 0, 0});
    router.add_region({"b", 0x80000000, 0x4000, 1, 0});
    router.add_region({"b_alias", 0x1A110800, 0x1000, 1, 0x3000});
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // completes the multi-socket bindings
  }
};

TEST(Router, RoutesWithRegionRelativeAddresses) {
  RouterBench t;
  uint32_t v = 0xCAFEF00D;
  EXPECT_EQ(t.init.access(tlm::TLM_WRITE_COMMAND, 0x80000010, &v), tlm::TLM_OK_RESPONSE);
  uint32_t stored;
  std::memcpy(&stored, t.b.data() + 0x10, 4);
  EXPECT_EQ(stored, 0xCAFEF00Du);
  uint32_t r = 0;
  EXPECT_EQ(t.init.access(tlm::TLM_READ_COMMAND, 0x80000010, &r), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(r, 0xCAFEF00Du);
}

TEST(Router, AliasReachesTheTargetAtItsOffset) {
  RouterBench t;
  uint32_t v = 0x12345678;
  EXPECT_EQ(t.init.access(tlm::TLM_WRITE_COMMAND, 0x1A110804, &v), tlm::TLM_OK_RESPONSE);
  uint32_t stored;
  std::memcpy(&stored, t.b.data() + 0x3004, 4);
  EXPECT_EQ(stored, 0x12345678u);
}

TEST(Router, UnmappedIsAnErrorUnlessLenient) {
  RouterBench t;
  uint32_t v = 7;
  EXPECT_EQ(t.init.access(tlm::TLM_WRITE_COMMAND, 0x70000000, &v), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  // An access that starts inside a region but runs past its end is refused too.
  EXPECT_EQ(t.init.access(tlm::TLM_READ_COMMAND, 0xFFE, &v), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  t.router.set_lenient(true);
  v = 7;
  EXPECT_EQ(t.init.access(tlm::TLM_READ_COMMAND, 0x70000000, &v), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(v, 0u);
  EXPECT_EQ(t.router.unmapped_accesses(), 3u);
}

TEST(Router, DmiRangeIsTranslatedAndClippedToTheRegion) {
  RouterBench t;
  tlm::tlm_generic_payload trans;
  tlm::tlm_dmi dmi;
  trans.set_address(0x1A110900);
  ASSERT_TRUE(t.init.socket->get_direct_mem_ptr(trans, dmi));
  EXPECT_EQ(dmi.get_start_address(), 0x1A110800u);
  EXPECT_EQ(dmi.get_end_address(), 0x1A111800u - 1);
  EXPECT_EQ(dmi.get_dmi_ptr(), t.b.data() + 0x3000);
  EXPECT_EQ(dmi.get_read_latency(), t.clock.time_of(2));
}

}  // namespace
}  // namespace socsim
