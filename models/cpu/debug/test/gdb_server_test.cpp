// The GDB protocol core on a scripted transport: framing, acknowledgements, the requests a
// GDB session makes, breakpoints and watchpoints.
#include "models/cpu/debug/gdb_server.h"

#include <gtest/gtest.h>

#include <deque>
#include <map>

namespace socsim {
namespace {

/// Bytes from GDB queued in advance; everything the stub sends is kept.
class ScriptedTransport : public GdbTransport {
 public:
  void send_packet(const std::string& payload) { queue(GdbServer::frame(payload)); }
  void queue(const std::string& bytes) { input_.insert(input_.end(), bytes.begin(), bytes.end()); }
  bool read_byte(char* byte) override {
    if (input_.empty()) return false;
    *byte = input_.front();
    input_.pop_front();
    return true;
  }
  bool poll_byte(char* byte) override { return read_byte(byte); }
  bool write(const std::string& bytes) override {
    output += bytes;
    return true;
  }
  void close() override {
    closed = true;
    input_.clear();
  }
  bool stop_requested() const override { return stop_when_empty && input_.empty(); }
  size_t unread() const { return input_.size(); }
  std::string output;
  bool closed = false;
  bool stop_when_empty = false;  ///< reads that find no byte stand for a host stop request
  /// The payloads of the packets sent so far (acknowledgements dropped), and clears them.
  std::vector<std::string> take_packets() {
    std::vector<std::string> packets;
    size_t at = 0;
    while ((at = output.find('$', at)) != std::string::npos) {
      const size_t end = output.find('#', at);
      packets.push_back(output.substr(at + 1, end - at - 1));
      at = end + 3;
    }
    output.clear();
    return packets;
  }

 private:
  std::deque<char> input_;
};

class FakeTarget : public GdbTarget {
 public:
  bool read_register(unsigned regnum, uint32_t* value) override {
    if (regnum <= kGdbPcRegnum) {
      *value = regs[regnum];
      return true;
    }
    if (regnum == kGdbFirstCsrRegnum + 0x301) {
      *value = 0x40001104;
      return true;
    }
    return false;
  }
  bool write_register(unsigned regnum, uint32_t value) override {
    if (regnum == 0 || regnum > kGdbPcRegnum) return false;
    regs[regnum] = value;
    return true;
  }
  bool read_memory(uint32_t addr, uint8_t* data, uint32_t size) override {
    for (uint32_t i = 0; i < size; ++i) {
      auto it = memory.find(addr + i);
      if (it == memory.end()) return false;
      data[i] = it->second;
    }
    return true;
  }
  bool write_memory(uint32_t addr, const uint8_t* data, uint32_t size) override {
    for (uint32_t i = 0; i < size; ++i) memory[addr + i] = data[i];
    return true;
  }
  std::string monitor(const std::string& command) override { return "ran " + command + "\n"; }

  uint32_t regs[33] = {};
  std::map<uint32_t, uint8_t> memory;
};

class GdbServerTest : public ::testing::Test {
 protected:
  /// Queues `packets` (each acknowledged by GDB in ack mode), then a continue, and serves.
  std::vector<std::string> exchange(const std::vector<std::string>& packets,
                                    GdbServer::Resume expect = GdbServer::Resume::kContinue) {
    for (const std::string& p : packets) {
      transport.send_packet(p);
      transport.queue("+");  // GDB's acknowledgement of the reply
    }
    if (expect == GdbServer::Resume::kContinue) transport.send_packet("c");
    EXPECT_EQ(server.serve(""), expect);
    return transport.take_packets();
  }

  ScriptedTransport transport;
  FakeTarget target;
  GdbServer server{transport, target};
};

/// A transport that counts the bytes read, for the packet bound.
class EndlessTransport : public GdbTransport {
 public:
  bool read_byte(char* byte) override {
    if (closed) return false;
    *byte = read++ == 0 ? '$' : 'a';
    return true;
  }
  bool poll_byte(char* byte) override { return read_byte(byte); }
  bool write(const std::string&) override { return !closed; }
  void close() override { closed = true; }
  size_t read = 0;
  bool closed = false;
};

TEST(GdbServerBounds, APacketLongerThanThePacketSizeEndsTheConnection) {
  // `$` and then bytes without end (the reproducer sent 256 MiB): the stub reads no more
  // than the announced size and closes the connection instead of buffering them.
  EndlessTransport transport;
  FakeTarget target;
  GdbServer server(transport, target);
  EXPECT_EQ(server.serve(""), GdbServer::Resume::kDetach);
  EXPECT_TRUE(transport.closed);
  EXPECT_EQ(transport.read, 1 + GdbServer::kPacketSize + 1);
  EXPECT_NE(server.error().find("longer than the announced PacketSize (16384 bytes)"),
            std::string::npos)
      << server.error();
}

TEST(GdbFrame, ChecksumIsTheByteSumModulo256) {
  EXPECT_EQ(GdbServer::frame("OK"), "$OK#9a");
  EXPECT_EQ(GdbServer::frame(""), "$#00");
  EXPECT_EQ(GdbServer::frame("g"), "$g#67");
}

TEST_F(GdbServerTest, APacketOfThePacketSizeIsServed) {
  // A memory write of exactly PacketSize bytes: "M0,1ffc:" and 0x1ffc bytes in hex.
  const std::string packet = "M0,1ffc:" + std::string(2 * 0x1ffc, '5');
  ASSERT_EQ(packet.size(), GdbServer::kPacketSize);
  const auto replies = exchange({packet});
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_EQ(replies[0], "OK");
  EXPECT_EQ(target.memory.size(), 0x1ffcu);
}

TEST_F(GdbServerTest, RangeSteppingIsAnnouncedAndParsed) {
  EXPECT_EQ(exchange({"vCont?"}), std::vector<std::string>{"vCont;c;C;s;S;r"});
  transport.send_packet("vCont;r80000100,8000010a:1;c");
  EXPECT_EQ(server.serve(""), GdbServer::Resume::kRangeStep);
  EXPECT_EQ(server.range(), std::make_pair(0x80000100u, 0x8000010au));
  transport.send_packet("vCont;r80000100");
  transport.queue("+");
  transport.send_packet("vCont;s");
  EXPECT_EQ(server.serve(""), GdbServer::Resume::kStep);
  EXPECT_EQ(transport.take_packets(), std::vector<std::string>{"E01"});
}

TEST_F(GdbServerTest, AHostStopRequestEndsTheWaitForGdb) {
  // A signal (SIGINT, SIGTERM) while the core waits for the client, also one that has
  // connected and sent nothing.
  transport.stop_when_empty = true;
  EXPECT_EQ(server.serve(""), GdbServer::Resume::kHostStop);
  transport.send_packet("g");
  transport.queue("+");
  EXPECT_EQ(server.serve(""), GdbServer::Resume::kHostStop);
  EXPECT_EQ(transport.take_packets().size(), 1u);  // the registers, then the stop
}

TEST_F(GdbServerTest, AcknowledgesGoodPacketsAndAsksAgainForBadOnes) {
  transport.queue("$?#00");  // wrong checksum: '-' and the packet is dropped
  transport.send_packet("?");
  transport.queue("+");
  transport.send_packet("c");
  EXPECT_EQ(server.serve(""), GdbServer::Resume::kContinue);
  EXPECT_EQ(transport.output.substr(0, 2), "-+");
  EXPECT_EQ(transport.take_packets(), std::vector<std::string>{"S05"});
}

TEST_F(GdbServerTest, AnnouncesFeaturesAndServesTheTargetDescription) {
  const auto replies = exchange({"qSupported:multiprocess+;swbreak+;hwbreak+;xmlRegisters=i386"});
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_NE(replies[0].find("qXfer:features:read+"), std::string::npos);
  EXPECT_NE(replies[0].find("vContSupported+"), std::string::npos);

  // Read the description in small pieces as GDB would, and put it back together.
  std::string xml;
  for (size_t offset = 0;; offset += 100) {
    char request[80];
    std::snprintf(request, sizeof request, "qXfer:features:read:target.xml:%zx,64", offset);
    const auto r = exchange({request});
    ASSERT_EQ(r.size(), 1u);
    ASSERT_TRUE(r[0][0] == 'm' || r[0][0] == 'l') << r[0];
    xml += r[0].substr(1, 100);
    if (r[0][0] == 'l') break;
  }
  // 0x64 = 100 bytes per piece: the pieces join into the whole document.
  EXPECT_EQ(xml, riscv_target_xml());
  EXPECT_NE(xml.find("<architecture>riscv:rv32</architecture>"), std::string::npos);
  EXPECT_NE(xml.find("org.gnu.gdb.riscv.cpu"), std::string::npos);
  EXPECT_NE(xml.find("name=\"mstatus\" bitsize=\"32\" type=\"int\" regnum=\"833\""),
            std::string::npos);  // 65 + 0x300
  EXPECT_EQ(exchange({"qXfer:features:read:other.xml:0,10"})[0], "E00");
}

TEST_F(GdbServerTest, ReadsAndWritesRegisters) {
  target.regs[1] = 0x80000123;
  target.regs[kGdbPcRegnum] = 0x00000080;
  const auto g = exchange({"g"});
  ASSERT_EQ(g[0].size(), kGdbGRegisters * 8);
  EXPECT_EQ(g[0].substr(8, 8), "23010080");  // little-endian x1
  EXPECT_EQ(g[0].substr(32 * 8, 8), "80000000");

  const auto r = exchange({"p1", "p20", "p342", "p400", "P5=78563412", "p5",
                           "P0=01000000"});
  EXPECT_EQ(r[0], "23010080");
  EXPECT_EQ(r[1], "80000000");  // regnum 0x20: pc
  EXPECT_EQ(r[2], "04110040");  // 0x342 = 65 + 0x301: misa
  EXPECT_EQ(r[3], "xxxxxxxx");  // not available
  EXPECT_EQ(r[4], "OK");
  EXPECT_EQ(target.regs[5], 0x12345678u);
  EXPECT_EQ(r[5], "78563412");
  EXPECT_EQ(r[6], "E02");
}

TEST_F(GdbServerTest, ReadsAndWritesMemoryIncludingBinaryWithEscapes) {
  for (uint32_t i = 0; i < 8; ++i) target.memory[0x1000 + i] = static_cast<uint8_t>(0xA0 + i);
  auto r = exchange({"m1000,4", "m1006,4", "m2000,4", "M1000,2:beef"});
  EXPECT_EQ(r[0], "a0a1a2a3");
  EXPECT_EQ(r[1], "a6a7");  // partial read up to the end of readable memory
  EXPECT_EQ(r[2], "E01");
  EXPECT_EQ(r[3], "OK");
  EXPECT_EQ(target.memory[0x1000], 0xBE);
  EXPECT_EQ(target.memory[0x1001], 0xEF);

  // X with the bytes '#' and '}' escaped as '}' followed by the byte xor 0x20.
  const std::string payload = std::string("X1004,3:a") + "}\x03" + "}\x5d";
  r = exchange({payload});
  EXPECT_EQ(r[0], "OK");
  EXPECT_EQ(target.memory[0x1004], 'a');
  EXPECT_EQ(target.memory[0x1005], '#');
  EXPECT_EQ(target.memory[0x1006], '}');
}

TEST_F(GdbServerTest, KeepsBreakpointsAndWatchpoints) {
  auto r = exchange({"qSupported:swbreak+", "Z0,80000100,2", "Z1,80000200,4", "Z2,1000,4",
                     "Z3,2000,2", "Z4,3000,1", "Z9,0,0"});
  EXPECT_EQ(r[1], "OK");
  EXPECT_EQ(r[6], "");  // unknown type: not supported
  EXPECT_TRUE(server.breakpoint_at(0x80000100));
  EXPECT_TRUE(server.breakpoint_at(0x80000200));
  EXPECT_FALSE(server.breakpoint_at(0x80000104));
  EXPECT_EQ(server.breakpoint_stop(0x80000100), "T05swbreak:;");
  EXPECT_EQ(server.breakpoint_stop(0x80000200), "T05hwbreak:;");

  EXPECT_EQ(server.watch_hit(0x1002, 4, true).value_or(""), "watch:1000;");
  EXPECT_FALSE(server.watch_hit(0x1000, 4, false));  // a write watchpoint ignores loads
  EXPECT_FALSE(server.watch_hit(0x1004, 4, true));   // just past it
  EXPECT_EQ(server.watch_hit(0x2001, 1, false).value_or(""), "rwatch:2000;");
  EXPECT_FALSE(server.watch_hit(0x2000, 4, true));
  EXPECT_EQ(server.watch_hit(0x2FFC, 4, true), std::nullopt);
  EXPECT_EQ(server.watch_hit(0x3000, 4, true).value_or(""), "awatch:3000;");
  EXPECT_EQ(server.watch_hit(0x3000, 1, false).value_or(""), "awatch:3000;");

  exchange({"z0,80000100,2", "z2,1000,4"});
  EXPECT_FALSE(server.breakpoint_at(0x80000100));
  EXPECT_TRUE(server.breakpoint_at(0x80000200));
  EXPECT_FALSE(server.watch_hit(0x1000, 4, true));
}

TEST_F(GdbServerTest, RunControlAndStopReplies) {
  transport.send_packet("vCont?");
  transport.queue("+");
  transport.send_packet("vCont;s:1");
  EXPECT_EQ(server.serve(""), GdbServer::Resume::kStep);
  EXPECT_EQ(transport.take_packets(), std::vector<std::string>{"vCont;c;C;s;S;r"});

  // The next stop sends its reply first, and `?` repeats it.
  transport.queue("+");
  transport.send_packet("?");
  transport.queue("+");
  transport.send_packet("s");
  EXPECT_EQ(server.serve("T05"), GdbServer::Resume::kStep);
  EXPECT_EQ(transport.take_packets(), (std::vector<std::string>{"T05", "T05"}));

  transport.queue("+");
  transport.send_packet("D");
  transport.queue("+");
  EXPECT_EQ(server.serve("T02"), GdbServer::Resume::kDetach);
  EXPECT_EQ(transport.take_packets(), (std::vector<std::string>{"T02", "OK"}));
}

TEST_F(GdbServerTest, KillAndClosedConnection) {
  transport.send_packet("k");
  EXPECT_EQ(server.serve(""), GdbServer::Resume::kKill);
  EXPECT_EQ(server.serve(""), GdbServer::Resume::kDetach);  // nothing more: closed
}

TEST_F(GdbServerTest, NoAckModeAndMonitorCommands) {
  transport.send_packet("QStartNoAckMode");
  transport.queue("+");
  transport.send_packet("qRcmd,6379636c6573");  // "cycles"
  transport.send_packet("c");
  EXPECT_EQ(server.serve(""), GdbServer::Resume::kContinue);
  // After the "OK" to QStartNoAckMode the stub stops acknowledging.
  const std::string out = transport.output;
  EXPECT_EQ(out.substr(0, 1), "+");
  EXPECT_EQ(out.find('+', 1), std::string::npos);
  const auto r = transport.take_packets();
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[1], "72616e206379636c65730a");  // "ran cycles\n" in hex
}

TEST_F(GdbServerTest, InterruptByteWhileRunning) {
  EXPECT_FALSE(server.interrupt_requested());
  transport.queue("\x03");
  EXPECT_TRUE(server.interrupt_requested());
  EXPECT_FALSE(server.interrupt_requested());
  transport.queue("++");  // GDB acknowledges both
  server.exited(7);
  server.terminated(11);
  EXPECT_EQ(transport.take_packets(), (std::vector<std::string>{"W07", "X0b"}));
}

}  // namespace
}  // namespace socsim
