#include "models/cpu/debug/commit_log.h"

#include <cinttypes>

namespace socsim {

namespace {

// Exception names as Spike prints them (riscv/trap.h), by mcause.
const char* exception_name(uint32_t cause) {
  switch (cause) {
    case 0: return "trap_instruction_address_misaligned";
    case 1: return "trap_instruction_access_fault";
    case 2: return "trap_illegal_instruction";
    case 3: return "trap_breakpoint";
    case 4: return "trap_load_address_misaligned";
    case 5: return "trap_load_access_fault";
    case 6: return "trap_store_address_misaligned";
    case 7: return "trap_store_access_fault";
    case 8: return "trap_user_ecall";
    case 11: return "trap_machine_ecall";
    default: return "trap_unknown";
  }
}

}  // namespace

std::string CommitLog::format(const RetireRecord& r) {
  char buf[192];
  int n;
  if (r.trap) {
    n = std::snprintf(buf, sizeof buf, "core   0: exception %s, epc 0x%08x ; cycle %" PRIu64 "\n",
                      exception_name(r.cause), r.pc, r.cycle);
  } else {
    const bool compressed = (r.insn & 3) != 3;
    n = std::snprintf(buf, sizeof buf, compressed ? "core   0: 3 0x%08x (0x%04x)"
                                                  : "core   0: 3 0x%08x (0x%08x)",
                      r.pc, r.insn);
    if (r.rd != 0) {
      n += std::snprintf(buf + n, sizeof buf - n, " x%-2u 0x%08x", static_cast<unsigned>(r.rd),
                         r.rd_value);
    }
    if (r.mem_valid && !r.mem_write) {
      n += std::snprintf(buf + n, sizeof buf - n, " mem 0x%08x", r.mem_addr);
    } else if (r.mem_valid) {
      const int digits = r.mem_size * 2;
      const uint32_t mask = r.mem_size >= 4 ? 0xFFFFFFFFu : (1u << (8 * r.mem_size)) - 1;
      n += std::snprintf(buf + n, sizeof buf - n, " mem 0x%08x 0x%0*x", r.mem_addr, digits,
                         r.mem_data & mask);
    }
    n += std::snprintf(buf + n, sizeof buf - n, " ; cycle %" PRIu64 "\n", r.cycle);
  }
  std::string line(buf, static_cast<size_t>(n));
  if (r.interrupt) {
    std::snprintf(buf, sizeof buf, "core   0: interrupt %u, handler 0x%08x ; cycle %" PRIu64 "\n",
                  r.cause & 0x7FFFFFFFu, r.next_pc, r.cycle);
    line += buf;
  }
  return line;
}

void CommitLog::on_retire(const RetireRecord& record) {
  const std::string line = format(record);
  std::fwrite(line.data(), 1, line.size(), out_);
}

}  // namespace socsim
