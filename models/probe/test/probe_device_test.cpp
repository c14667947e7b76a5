// The probe register block: marks are accepted, the magic reads back, other writes fail.
#include "models/probe/probe_device.h"

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

namespace socsim {
namespace {

struct Poker : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Poker> socket{"socket"};
  explicit Poker(sc_core::sc_module_name n) : sc_module(n) {}
  bool access(bool write, uint64_t offset, uint32_t* value) {
    tlm::tlm_generic_payload t;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    t.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    t.set_address(offset);
    t.set_data_ptr(reinterpret_cast<unsigned char*>(value));
    t.set_data_length(4);
    t.set_streaming_width(4);
    socket->b_transport(t, delay);
    return t.is_response_ok();
  }
};

TEST(ProbeDevice, AcceptsMarksAndReadsMagic) {
  ClockDomain clock(400);
  Poker p("p");
  ProbeDevice dev("probe", clock);
  p.socket.bind(dev.target_socket);
  uint32_t v = 7;
  EXPECT_TRUE(p.access(true, ProbeDevice::kBegin, &v));
  EXPECT_TRUE(p.access(true, ProbeDevice::kValue, &v));
  EXPECT_TRUE(p.access(true, ProbeDevice::kEnd, &v));
  EXPECT_EQ(dev.marks(), 3u);
  EXPECT_TRUE(p.access(false, ProbeDevice::kMagicOffset, &v));
  EXPECT_EQ(v, 0x50524F42u);
  EXPECT_TRUE(p.access(false, ProbeDevice::kBegin, &v));
  EXPECT_EQ(v, 0u);
  EXPECT_FALSE(p.access(true, 0x10, &v));
  EXPECT_EQ(dev.marks(), 3u);
}

}  // namespace
}  // namespace socsim
