#include "models/cpu/debug/gdb_session.h"

#include <csignal>
#include <iostream>
#include <sstream>

#include "models/common/hex.h"
#include "models/common/host_stop.h"

namespace socsim {

namespace {

// GDB's own signal numbers (include/gdb/signals.def), as stop replies carry them.
constexpr int kGdbSigSegv = 11;
constexpr int kGdbSigXcpu = 24;

constexpr uint32_t kOpLoad = 0x03;
constexpr uint32_t kOpStore = 0x23;

}  // namespace

GdbSession::GdbSession(CpuModel& cpu, GdbTransport& transport, GdbMemory memory,
                       SimControl& control, uint32_t reset_pc)
    : cpu_(cpu),
      server_(transport, *this),
      memory_(std::move(memory)),
      control_(control),
      pc_(reset_pc) {}

bool GdbSession::halt_before(uint32_t pc, uint32_t insn, uint32_t rs1_value, bool issued) {
  if (detached_) return false;
  if (first_) return true;  // GDB's first stop: before the program's first instruction
  // The instruction GDB resumed at runs (GDB steps off a breakpoint that way).
  if (!issued) return false;
  if (stepping_) {
    // A range step (vCont;r) goes on while the pc stays in its range, as a step would stop
    // at each instruction there and GDB would step again; breakpoints, watchpoints and
    // Ctrl-C still stop it.
    const bool in_range =
        range_stepping_ && pc >= server_.range().first && pc < server_.range().second;
    if (!in_range) {
      reply_ = GdbServer::trap_stop();
      return true;
    }
  }
  if (server_.has_breakpoints() && server_.breakpoint_at(pc)) {
    reply_ = server_.breakpoint_stop(pc);
    return true;
  }
  if (server_.has_watchpoints()) {
    if (const std::optional<std::string> hit = access_watch(insn, rs1_value)) {
      reply_ = "T05" + *hit;
      return true;
    }
  }
  // Ctrl-C (seen between cycles): every question until the halt says so.
  if (interrupt_) {
    reply_ = GdbServer::interrupt_stop();
    return true;
  }
  return false;
}

void GdbSession::cycle_done() {
  if (detached_ || interrupt_ || --poll_countdown_ != 0) return;
  poll_countdown_ = kInterruptPoll;
  interrupt_ = server_.interrupt_requested();
}

uint32_t GdbSession::halted(uint32_t pc, uint64_t cycle, uint64_t retired) {
  pc_ = pc;
  cycle_ = cycle;
  instructions_ = retired;
  const bool first = first_;
  first_ = false;
  interrupt_ = false;
  halted_ = true;
  stop(first ? std::string() : reply_);
  halted_ = false;
  return pc_;
}

void GdbSession::stop(const std::string& reply) {
  const GdbServer::Resume resume = server_.serve(reply);
  stepping_ = resume == GdbServer::Resume::kStep || resume == GdbServer::Resume::kRangeStep;
  range_stepping_ = resume == GdbServer::Resume::kRangeStep;
  switch (resume) {
    case GdbServer::Resume::kContinue:
    case GdbServer::Resume::kStep:
    case GdbServer::Resume::kRangeStep:
      break;
    case GdbServer::Resume::kDetach:
      detached_ = true;
      if (!server_.error().empty()) std::cerr << "socsim: " << server_.error() << "\n";
      break;
    case GdbServer::Resume::kHostStop: {
      // SIGINT or SIGTERM while the core waited for GDB: the run ends as anywhere else.
      detached_ = true;
      host_stopped_ = true;
      const int signal = HostStop::signal();
      control_.report_interrupted(
          cycle_, signal,
          std::string("interrupted by ") + (signal == SIGINT ? "SIGINT" : "SIGTERM") +
              " at cycle " + std::to_string(cycle_) + ", pc " + hex(pc_) + " (stopped in GDB)");
      break;
    }
    case GdbServer::Resume::kKill:
      detached_ = true;
      control_.report_fault(cycle_, "stopped by the debugger (GDB kill) before the instruction "
                                    "at pc " + hex(pc_));
      break;
  }
}

std::optional<std::string> GdbSession::access_watch(uint32_t insn, uint32_t rs1) const {
  const uint32_t opcode = insn & 0x7F;
  if (opcode != kOpLoad && opcode != kOpStore) return std::nullopt;
  const uint32_t f3 = (insn >> 12) & 7;
  const uint32_t size = 1u << (f3 & 3);
  const bool write = opcode == kOpStore;
  const int32_t imm = write ? ((static_cast<int32_t>(insn & 0xFE000000u) >> 20) |
                               static_cast<int32_t>((insn >> 7) & 0x1F))
                            : static_cast<int32_t>(insn) >> 20;
  return server_.watch_hit(rs1 + static_cast<uint32_t>(imm), size, write);
}

void GdbSession::finish(const SimControl& control) {
  if (detached_ && !host_stopped_) return;
  switch (control.reason()) {
    case StopReason::kInterrupted:
      // GDB numbers SIGINT and SIGTERM as Linux does (2, 15). The client may not read it:
      // nothing here waits for it (the transport's reads end at once after a stop request).
      server_.console_output("socsim: " + control.message() + "\n");
      server_.terminated(control.exit_code() - 128);
      break;
    case StopReason::kExit:
      server_.exited(control.exit_code());
      break;
    case StopReason::kMaxCycles:
      server_.console_output("socsim: " + control.message() + "\n");
      server_.terminated(kGdbSigXcpu);
      break;
    default:
      server_.console_output("socsim: " + control.message() + "\n");
      server_.terminated(kGdbSigSegv);
      break;
  }
  detached_ = true;
}

bool GdbSession::read_register(unsigned regnum, uint32_t* value) {
  if (regnum < 32) return halted_ && cpu_.debug_read_register(regnum, value);
  if (regnum == kGdbPcRegnum) {
    *value = pc_;
    return true;
  }
  if (regnum >= kGdbFirstCsrRegnum && regnum < kGdbFirstCsrRegnum + 4096) {
    return cpu_.debug_read_csr(regnum - kGdbFirstCsrRegnum, value);
  }
  return false;
}

bool GdbSession::write_register(unsigned regnum, uint32_t value) {
  if (!halted_) return false;
  if (regnum == 0) return true;  // x0 stays zero
  if (regnum < 32) return cpu_.debug_write_register(regnum, value);
  if (regnum == kGdbPcRegnum) {
    // The core refetches from here when GDB resumes it, as after a jump (RVC: even pcs).
    if ((value & 1) != 0) return false;
    pc_ = value;
    return true;
  }
  return false;
}

bool GdbSession::read_memory(uint32_t addr, uint8_t* data, uint32_t size) {
  return memory_.read(addr, data, size);
}

bool GdbSession::write_memory(uint32_t addr, const uint8_t* data, uint32_t size) {
  return memory_.write(addr, data, size);
}

std::string GdbSession::monitor(const std::string& command) {
  std::ostringstream out;
  if (command == "cycles" || command == "cycle") {
    out << "cycle " << cycle_ << " (" << (cpu_.cycle_exact() ? "exact" : "estimated by the ISS")
        << "), " << instructions_ << " instructions retired\n";
  } else if (command == "help" || command.empty()) {
    out << "socsim monitor commands:\n"
           "  cycles   core cycles and instructions retired at this stop\n"
           "  model    the CPU model\n";
  } else if (command == "model") {
    out << cpu_.kind() << ": " << cpu_.description() << "\n";
  } else {
    out << "unknown monitor command '" << command << "' (monitor help lists them)\n";
  }
  return out.str();
}

}  // namespace socsim
