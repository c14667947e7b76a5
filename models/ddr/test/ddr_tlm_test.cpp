// The DDR TLM target driven by a small SystemC initiator module.
#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <array>

#include "models/common/initiator.h"
#include "models/ddr/ddr.h"
#include "models/ddr/test/ddr_test_util.h"

namespace socsim {
namespace {

using sc_core::SC_NS;
using sc_core::SC_PS;
using sc_core::sc_time;

constexpr uint64_t kTckPs = 625;
constexpr uint64_t kCl = 22, kCwl = 16, kRcd = 22, kBurst = 4;

struct Access {
  sc_time issued;
  sc_time delay;
  tlm::tlm_response_status status;
};

// Issues one transaction and returns the annotated delay (not waited for).
class Initiator : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Initiator> socket{"socket"};
  explicit Initiator(sc_core::sc_module_name name) : sc_core::sc_module(name) {}

  Access transport(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, uint32_t length,
                   sc_time delay = sc_core::SC_ZERO_TIME, InitiatorExtension* ext = nullptr) {
    tlm::tlm_generic_payload trans;
    trans.set_command(cmd);
    trans.set_address(addr);
    trans.set_data_ptr(data);
    trans.set_data_length(length);
    trans.set_streaming_width(length);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    if (ext != nullptr) trans.set_extension(ext);
    const sc_time issued = sc_core::sc_time_stamp();
    socket->b_transport(trans, delay);
    if (ext != nullptr) trans.clear_extension(ext);
    return Access{issued, delay, trans.get_response_status()};
  }
};

class DdrTlmTest : public ::testing::Test {
 protected:
  void run(std::function<void(Initiator&, Ddr&)> body) {
    Initiator initiator("initiator");
    Ddr ddr("ddr", test::ddr4_3200(), 1 << 20);
    initiator.socket.bind(ddr.target_socket);
    struct Runner : sc_core::sc_module {
      std::function<void()> fn;
      SC_HAS_PROCESS(Runner);
      Runner(sc_core::sc_module_name n, std::function<void()> f)
          : sc_core::sc_module(n), fn(std::move(f)) {
        SC_THREAD(go);
      }
      void go() { fn(); }
    } runner("runner", [&] { body(initiator, ddr); });
    sc_core::sc_start();
  }
};

TEST_F(DdrTlmTest, TimesAccessesAndStoresData) {
  run([](Initiator& cpu, Ddr& ddr) {
    std::array<uint8_t, 64> out{}, in{};
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(i * 7 + 1);

    // A write is posted: the write queue takes it at once.
    Access w = cpu.transport(tlm::TLM_WRITE_COMMAND, 0x1000, out.data(), 64);
    EXPECT_EQ(w.status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(w.delay, sc_core::SC_ZERO_TIME);

    // Same row a microsecond later (the write went to the device meanwhile): a read hit.
    wait(sc_time(1, sc_core::SC_US) - sc_core::sc_time_stamp());
    Access r = cpu.transport(tlm::TLM_READ_COMMAND, 0x1000, in.data(), 64);
    EXPECT_EQ(r.delay, sc_time(double((kCl + kBurst) * kTckPs), SC_PS));
    EXPECT_EQ(in, out);

    // A temporally decoupled initiator 100 ns ahead: arrival = now + delay.
    Access ahead = cpu.transport(tlm::TLM_READ_COMMAND, 0x1100, in.data(), 64, sc_time(100, SC_NS));
    EXPECT_EQ(ahead.delay, sc_time(100, SC_NS) + sc_time(double((kCl + kBurst) * kTckPs), SC_PS));

    // Untouched memory reads as zero.
    Access zero = cpu.transport(tlm::TLM_READ_COMMAND, 0xF0000, in.data(), 64);
    EXPECT_EQ(zero.status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(in, (std::array<uint8_t, 64>{}));

    EXPECT_EQ(ddr.stats().total().reads, 3u);
    EXPECT_EQ(ddr.stats().total().writes, 1u);
    EXPECT_EQ(ddr.stats().initiator_names()[0], "cpu");
  });
}

TEST_F(DdrTlmTest, ReadOfAQueuedWriteIsForwardedWithItsData) {
  run([](Initiator& cpu, Ddr& ddr) {
    std::array<uint8_t, 64> out{}, in{};
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(255 - i);
    cpu.transport(tlm::TLM_WRITE_COMMAND, 0x2040, out.data(), 64);
    // Read back at once: the write is still queued, the controller answers from the write
    // queue one cycle later with the written bytes.
    Access r = cpu.transport(tlm::TLM_READ_COMMAND, 0x2040, in.data(), 64);
    EXPECT_EQ(r.delay, sc_time(double(kTckPs), SC_PS));
    EXPECT_EQ(in, out);
    ddr.timing().finish();
    EXPECT_EQ(ddr.stats().total().forwarded, 1u);
    EXPECT_EQ(ddr.stats().controllers()[0].forwarded_reads, 1u);
    EXPECT_EQ(ddr.stats().banks()[4].writes, 1u);  // the write reached the device: bg1.b0
    EXPECT_EQ(ddr.stats().banks()[4].reads, 0u);
  });
}

TEST_F(DdrTlmTest, InitiatorExtensionSeparatesStatistics) {
  run([](Initiator& cpu, Ddr& ddr) {
    std::array<uint8_t, 256> buf{};
    InitiatorExtension npu(1, "npu_dma");
    cpu.transport(tlm::TLM_READ_COMMAND, 0, buf.data(), 256, sc_core::SC_ZERO_TIME, &npu);
    cpu.transport(tlm::TLM_READ_COMMAND, 0x4000, buf.data(), 4);
    ASSERT_EQ(ddr.stats().initiators().size(), 2u);
    EXPECT_EQ(ddr.stats().initiator_names()[1], "npu_dma");
    EXPECT_EQ(ddr.stats().initiators()[1].bytes_read, 256u);
    EXPECT_EQ(ddr.stats().initiators()[0].bytes_read, 4u);
  });
}

// An NPU-sized output (921,600 bytes in 28,800 writes of 32 bytes, a read of 64 bytes between
// every eight writes) beside a CPU's reads: each initiator's counters hold its own requests
// and bytes once, however its writes were posted, drained or merged in a line.
TEST_F(DdrTlmTest, PerInitiatorCountsEachByteOnce) {
  run([](Initiator& cpu, Ddr& ddr) {
    std::array<uint8_t, 64> buf{};
    InitiatorExtension npu(1, "npu");
    constexpr uint64_t kOutput = 921600, kWrite = 32;
    uint64_t npu_reads = 0, cpu_reads = 0;
    for (uint64_t addr = 0; addr < kOutput; addr += kWrite) {
      const Access w = cpu.transport(tlm::TLM_WRITE_COMMAND, addr, buf.data(), kWrite,
                                     sc_core::SC_ZERO_TIME, &npu);
      ASSERT_EQ(w.status, tlm::TLM_OK_RESPONSE);
      sc_core::wait(w.delay);
      if (addr % (8 * kWrite) == 0) {
        const Access r = cpu.transport(tlm::TLM_READ_COMMAND, 0xE0000 + addr % 0x10000,
                                       buf.data(), 64, sc_core::SC_ZERO_TIME, &npu);
        sc_core::wait(r.delay);
        ++npu_reads;
      }
      if (addr % (64 * kWrite) == 0) {
        sc_core::wait(sc_time(200, SC_NS));  // an idle gap: queued writes drain
        cpu.transport(tlm::TLM_READ_COMMAND, addr, buf.data(), 4);
        ++cpu_reads;
      }
    }
    ddr.timing().finish();  // the writes still queued are written (end_of_simulation)
    const DdrStats& stats = ddr.stats();
    ASSERT_EQ(stats.initiators().size(), 2u);
    const DdrCounters& n = stats.initiators()[1];
    EXPECT_EQ(n.writes, kOutput / kWrite);
    EXPECT_EQ(n.bytes_written, kOutput);
    EXPECT_EQ(n.reads, npu_reads);
    EXPECT_EQ(n.bytes_read, npu_reads * 64);
    const DdrCounters& c = stats.initiators()[0];
    EXPECT_EQ(c.writes, 0u);
    EXPECT_EQ(c.bytes_written, 0u);
    EXPECT_EQ(c.reads, cpu_reads);
    EXPECT_EQ(c.bytes_read, cpu_reads * 4);
    EXPECT_EQ(stats.total().bytes_written, kOutput);
    EXPECT_EQ(stats.total().bytes_read, npu_reads * 64 + cpu_reads * 4);
  });
}

TEST_F(DdrTlmTest, OutOfRangeIsAnAddressErrorAndDebugIsUntimed) {
  run([](Initiator& cpu, Ddr& ddr) {
    std::array<uint8_t, 8> buf{1, 2, 3, 4, 5, 6, 7, 8};
    Access bad = cpu.transport(tlm::TLM_READ_COMMAND, (1 << 20) - 4, buf.data(), 8);
    EXPECT_EQ(bad.status, tlm::TLM_ADDRESS_ERROR_RESPONSE);

    tlm::tlm_generic_payload dbg;
    dbg.set_command(tlm::TLM_WRITE_COMMAND);
    dbg.set_address(0x200);
    dbg.set_data_ptr(buf.data());
    dbg.set_data_length(8);
    EXPECT_EQ(cpu.socket->transport_dbg(dbg), 8u);
    std::array<uint8_t, 8> back{};
    dbg.set_command(tlm::TLM_READ_COMMAND);
    dbg.set_data_ptr(back.data());
    EXPECT_EQ(cpu.socket->transport_dbg(dbg), 8u);
    EXPECT_EQ(back, buf);
    EXPECT_EQ(ddr.stats().total().requests(), 0u);

    tlm::tlm_dmi dmi;
    EXPECT_FALSE(cpu.socket->get_direct_mem_ptr(dbg, dmi));
  });
}

TEST(DdrTlm, RegionLargerThanDeviceIsRejected) {
  DdrConfig config = test::lpddr4x_4266();
  EXPECT_THROW(Ddr("ddr", config, 8ull << 30), ConfigError);
}

}  // namespace
}  // namespace socsim
