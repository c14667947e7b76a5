// The protocol core of the GDB stub: GDB's Remote Serial Protocol (packets `$data#cs`,
// acknowledgements, no-ack mode, the 0x03 interrupt byte) over a GdbTransport, answering
// from a GdbTarget, and the breakpoints and watchpoints GDB has set.
//
// Run control belongs to the caller (GdbSession): it calls serve() whenever the core stops
// at an instruction boundary; serve() sends the stop reply, answers GDB's requests (registers,
// memory, breakpoints, target description, monitor commands) and returns when GDB resumes
// the core, detaches or kills it. Registers are numbered as in the target description
// (riscv_target_xml()): x0..x31 = 0..31, pc = 32, a CSR at 65 + its address.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/cpu/debug/gdb_transport.h"

namespace socsim {

/// What the stub reads and writes for GDB. Calls arrive only while the core is stopped.
class GdbTarget {
 public:
  virtual ~GdbTarget() = default;
  /// False when the register does not exist or its value is not available.
  virtual bool read_register(unsigned regnum, uint32_t* value) = 0;
  virtual bool write_register(unsigned regnum, uint32_t value) = 0;
  virtual bool read_memory(uint32_t addr, uint8_t* data, uint32_t size) = 0;
  virtual bool write_memory(uint32_t addr, const uint8_t* data, uint32_t size) = 0;
  /// Output of `monitor COMMAND` (text, lines ending in '\n').
  virtual std::string monitor(const std::string& command) = 0;
};

/// The GDB register numbers of the target description.
constexpr unsigned kGdbPcRegnum = 32;
constexpr unsigned kGdbFirstCsrRegnum = 65;
/// Registers in the reply to `g` (x0..x31, pc); the CSRs are read one by one with `p`.
constexpr unsigned kGdbGRegisters = 33;

/// The target description for GDB: RV32IMC with the machine-mode CSRs of the CV32E40P.
const std::string& riscv_target_xml();

/// A watchpoint kind, as numbered in the Z packets (Z2 write, Z3 read, Z4 access).
enum class WatchKind { kWrite = 2, kRead = 3, kAccess = 4 };

class GdbServer {
 public:
  /// How serve() lets the core go: run, single-step, range-step (step while the pc stays in
  /// range(): `vCont;r`), detach (also when the connection closes or the client broke the
  /// protocol: error() says how), kill, or stop the run because the host asked to (SIGINT,
  /// SIGTERM while the core waited for GDB).
  enum class Resume { kContinue, kStep, kRangeStep, kDetach, kKill, kHostStop };

  /// The largest packet the stub takes (the bytes between `$` and `#`), announced to GDB as
  /// PacketSize. A longer one ends the connection: it is never buffered whole.
  static constexpr size_t kPacketSize = 0x4000;

  GdbServer(GdbTransport& transport, GdbTarget& target)
      : transport_(transport), target_(target) {}

  /// Sends `stop_reply` (e.g. "T05swbreak:;"; empty for the first stop, which GDB asks for
  /// with `?`) and serves GDB until it resumes the core. kDetach also when the connection
  /// closes.
  Resume serve(const std::string& stop_reply);
  /// True when GDB sent the interrupt byte (Ctrl-C) since the last call; never blocks.
  bool interrupt_requested();
  /// Sends a console message (an `O` packet) while the core runs.
  void console_output(const std::string& text);
  /// The program exited with `code` (`W`), or ended with a fault (`X` with signal `signal`).
  void exited(int code);
  void terminated(int signal);

  /// The range of the last kRangeStep: [first, second).
  std::pair<uint32_t, uint32_t> range() const { return range_; }
  /// Why the connection ended ("" when the client closed it or detached).
  const std::string& error() const { return error_; }

  bool has_breakpoints() const { return !breakpoints_.empty(); }
  bool breakpoint_at(uint32_t pc) const;
  /// The stop reply for the breakpoint at `pc`: swbreak or hwbreak as it was set (Z0 or Z1)
  /// when GDB understands these reasons, a plain SIGTRAP otherwise.
  std::string breakpoint_stop(uint32_t pc) const;
  bool has_watchpoints() const { return !watchpoints_.empty(); }
  /// The first watchpoint an access of `size` bytes at `addr` triggers (a store triggers
  /// write and access watchpoints, a load read and access ones): its stop-reply text, e.g.
  /// "watch:80001000;".
  std::optional<std::string> watch_hit(uint32_t addr, uint32_t size, bool write) const;

  /// Stop replies.
  static std::string trap_stop() { return "T05"; }
  static std::string interrupt_stop() { return "T02"; }

  /// Packet framing, exposed for tests.
  static std::string frame(const std::string& payload);

 private:
  struct Watchpoint {
    WatchKind kind;
    uint32_t addr, size;
  };

  /// Reads one packet's payload (acknowledging it); nullopt when the connection closed.
  std::optional<std::string> read_packet();
  bool send_packet(const std::string& payload);
  /// Answers one request; sets `*resume` when it resumes the core.
  std::string handle(const std::string& packet, std::optional<Resume>* resume);
  std::string read_registers();
  std::string write_registers(const std::string& hex);
  std::string read_memory(const std::string& args);
  std::string write_memory(const std::string& args, bool binary);
  std::string breakpoint(const std::string& args, bool insert);
  std::string query(const std::string& packet);
  std::string v_packet(const std::string& packet, std::optional<Resume>* resume);

  GdbTransport& transport_;
  GdbTarget& target_;
  bool ack_ = true;
  std::pair<uint32_t, uint32_t> range_{0, 0};
  std::string error_;
  bool interrupt_pending_ = false;
  bool swbreak_ = false;  ///< GDB understands the swbreak/hwbreak stop reasons
  std::string last_stop_ = "S05";
  std::vector<uint32_t> breakpoints_;  ///< software and hardware alike (no memory is patched)
  std::vector<uint8_t> breakpoint_soft_;
  std::vector<Watchpoint> watchpoints_;
};

}  // namespace socsim
