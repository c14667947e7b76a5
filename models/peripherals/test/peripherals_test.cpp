// Console, exit device, core-v-verif control block and CLINT timer, driven by a small
// initiator at chosen times (the transaction delay stands for a decoupled CPU's offset).
#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "models/peripherals/clint_timer.h"
#include "models/peripherals/console.h"
#include "models/peripherals/corev_ctrl.h"
#include "models/peripherals/exit_device.h"

namespace socsim {
namespace {

struct Poker : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Poker> socket{"socket"};
  const ClockDomain& clock;
  Poker(sc_core::sc_module_name n, const ClockDomain& c) : sc_module(n), clock(c) {}
  uint32_t access(bool write, uint64_t offset, uint32_t value, uint64_t at_cycle) {
    tlm::tlm_generic_payload t;
    sc_core::sc_time delay = clock.time_of(at_cycle);
    t.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    t.set_address(offset);
    t.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
    t.set_data_length(4);
    t.set_streaming_width(4);
    socket->b_transport(t, delay);
    EXPECT_TRUE(t.is_response_ok());
    return value;
  }
};

TEST(Console, PrintsLowBytesLineByLine) {
  ClockDomain clock(400);
  std::ostringstream out;
  Poker p("p", clock);
  Console console("console", clock, out);
  p.socket.bind(console.target_socket);
  for (char c : std::string("hi\nthere")) p.access(true, 0, 0x4100 | uint8_t(c), 0);
  EXPECT_EQ(out.str(), "hi\n");
  console.flush();
  EXPECT_EQ(out.str(), "hi\nthere");
  EXPECT_EQ(console.bytes_written(), 8u);
}

TEST(ExitDevice, ExitValueAndPassMagicEndTheRunAtTheirCycle) {
  ClockDomain clock(400);
  std::ostringstream out;
  SimControl control;
  Poker p("p", clock);
  ExitDevice dev("exit", clock, control, out, [](uint32_t, uint8_t*, uint32_t) { return true; });
  p.socket.bind(dev.target_socket);
  p.access(true, 0x0, 42, 10);  // neither pass nor fail magic: ignored
  EXPECT_FALSE(control.stopped());
  p.access(true, 0x4, 7, 1234);
  ASSERT_TRUE(control.stopped());
  EXPECT_EQ(control.exit_code(), 7);
  EXPECT_EQ(control.stop_cycle(), 1234u);
}

// Sets the signature area [begin, end) and dumps it; memory read through `reader`.
struct SignatureDump {
  std::string out;
  SimControl control;
  std::string open_error;  ///< set_signature_file()'s answer
  SignatureDump(uint32_t begin, uint32_t end, ExitDevice::MemoryReader reader,
                const std::string& signature_path = "") {
    ClockDomain clock(400);
    std::ostringstream text;
    Poker p("p", clock);
    ExitDevice dev("exit", clock, control, text, std::move(reader));
    if (!signature_path.empty()) open_error = dev.set_signature_file(signature_path);
    p.socket.bind(dev.target_socket);
    p.access(true, 0x8, begin, 0);
    p.access(true, 0xC, end, 0);
    p.access(true, 0x10, 0, 5);
    out = text.str();
  }
};

TEST(ExitDevice, DumpsTheSignatureArea) {
  SignatureDump d(0x100, 0x108, [](uint32_t addr, uint8_t* data, uint32_t) {
    for (int i = 0; i < 4; ++i) data[i] = static_cast<uint8_t>(addr + i);
    return true;
  });
  EXPECT_EQ(d.out, "03020100\n07060504\n");
  EXPECT_EQ(d.control.exit_code(), 0);
}

bool counting_bytes(uint32_t addr, uint8_t* data, uint32_t) {
  for (int i = 0; i < 4; ++i) data[i] = static_cast<uint8_t>(addr + i);
  return true;
}

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(ExitDevice, WritesTheSignatureFile) {
  const std::string path = testing::TempDir() + "/signature.txt";
  SignatureDump d(0x100, 0x108, counting_bytes, path);
  EXPECT_EQ(d.open_error, "");
  EXPECT_EQ(file_text(path), "03020100\n07060504\n");
  EXPECT_TRUE(d.control.output_errors().empty());
  EXPECT_EQ(d.control.exit_code(), 0);
}

TEST(ExitDevice, ASignatureFileThatCannotBeMadeIsToldBeforeTheRun) {
  // A path under a regular file: no file can be made there, whoever runs the test.
  const std::string file = testing::TempDir() + "/plain_file";
  std::ofstream(file) << "x";
  SignatureDump d(0x100, 0x108, counting_bytes, file + "/signature.txt");
  EXPECT_EQ(d.open_error, "Not a directory");
}

TEST(ExitDevice, ASignatureThatCannotBeWrittenIsAnOutputError) {
  SignatureDump d(0x100, 0x108, counting_bytes, "/dev/full");
  EXPECT_EQ(d.open_error, "");
  EXPECT_EQ(d.out, "03020100\n07060504\n");  // the console still has it
  EXPECT_EQ(d.control.reason(), StopReason::kExit);
  ASSERT_EQ(d.control.output_errors().size(), 1u);
  EXPECT_EQ(d.control.output_errors()[0],
            "--signature /dev/full: cannot write the 18-byte signature: No space left on device");
}

TEST(ExitDevice, SignatureAreaEndingAtTheTopOfTheAddressSpaceEnds) {
  // [0xFFFFFFF0, 0xFFFFFFFF): three words, then the end (the 32-bit loop wrapped forever);
  // memory only up to 0xFFFFFFF8: a fault naming the address, after two lines.
  SignatureDump d(0xFFFFFFF0u, 0xFFFFFFFFu, [](uint32_t addr, uint8_t* data, uint32_t) {
    std::memset(data, 0xAB, 4);
    return addr < 0xFFFFFFF8u;
  });
  EXPECT_EQ(d.out, "abababab\nabababab\n");
  ASSERT_TRUE(d.control.stopped());
  EXPECT_EQ(d.control.reason(), StopReason::kFault);
  EXPECT_NE(d.control.message().find("no memory at 0xfffffff8"), std::string::npos)
      << d.control.message();
}

TEST(ExitDevice, SignatureAreaUpToTheLastWordIsDumpedWhole) {
  SignatureDump d(0xFFFFFFF0u, 0xFFFFFFFFu, [](uint32_t, uint8_t* data, uint32_t) {
    std::memset(data, 0, 4);
    return true;
  });
  EXPECT_EQ(d.out, "00000000\n00000000\n00000000\n");
  EXPECT_EQ(d.control.reason(), StopReason::kExit);
}

TEST(CorevCtrl, CycleCounterCountsSinceResetOrLastWrite) {
  ClockDomain clock(400);
  Poker p("p", clock);
  CorevCtrl dev("ctrl", clock);
  p.socket.bind(dev.target_socket);
  EXPECT_EQ(p.access(false, 0x1004, 0, 99), 100u);
  p.access(true, 0x1004, 0, 199);
  EXPECT_EQ(p.access(false, 0x1004, 0, 250), 51u);
  EXPECT_EQ(p.access(false, 0x1000, 0, 250), 0u);  // random: 0 as under Verilator
}

TEST(ClintTimer, InterruptRisesAtTheExactCycle) {
  ClockDomain clock(400);  // 400 MHz core, 10 MHz timer: one tick every 40 cycles
  IrqLines irq;
  Poker p("p", clock);
  ClintTimer timer("timer", clock, irq, 10'000'000);
  p.socket.bind(timer.target_socket);
  EXPECT_EQ(p.access(false, 0xBFF8, 0, 400), 10u);
  p.access(true, 0x4004, 0, 400);
  p.access(true, 0x4000, 25, 400);  // mtime reaches 25 at cycle 1000
  EXPECT_EQ(irq.pending(999), 0u);
  EXPECT_EQ(irq.pending(1000), 1u << 7);
  p.access(true, 0x4000, 0xFFFFFFFF, 1001);
  p.access(true, 0x4004, 0xFFFFFFFF, 1001);
  EXPECT_EQ(irq.pending(1002), 0u);
  p.access(true, 0x0, 1, 1003);  // msip raises the software interrupt
  EXPECT_EQ(irq.pending(1003), 1u << 3);
}

}  // namespace
}  // namespace socsim
