// The target description GDB reads with qXfer:features:read:target.xml (GDB manual,
// "Target Descriptions" and "RISC-V Features"): the OS ABI (none: bare metal), the
// org.gnu.gdb.riscv.cpu feature (x0..x31 by their ABI names, pc) and org.gnu.gdb.riscv.csr
// with the machine-mode CSRs of the CV32E40P, each numbered 65 + its CSR address as GDB's
// RISC-V port numbers them.
#include <cstdio>

#include "models/cpu/debug/gdb_server.h"
#include "models/cpu/iss/rv32_csr.h"

namespace socsim {

namespace {

constexpr const char* kXregNames[32] = {
    "zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "fp", "s1", "a0",
    "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
    "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};

struct CsrName {
  uint32_t address;
  const char* name;
};

constexpr CsrName kCsrs[] = {
    {csr::kMstatus, "mstatus"},     {csr::kMisa, "misa"},         {csr::kMie, "mie"},
    {csr::kMtvec, "mtvec"},         {csr::kMcountinhibit, "mcountinhibit"},
    {csr::kMscratch, "mscratch"},   {csr::kMepc, "mepc"},         {csr::kMcause, "mcause"},
    {csr::kMtval, "mtval"},         {csr::kMip, "mip"},           {csr::kMcycle, "mcycle"},
    {csr::kMinstret, "minstret"},   {csr::kMcycleh, "mcycleh"},   {csr::kMinstreth, "minstreth"},
    {csr::kMvendorid, "mvendorid"}, {csr::kMarchid, "marchid"},   {csr::kMimpid, "mimpid"},
    {csr::kMhartid, "mhartid"},
};

std::string build_xml() {
  std::string xml =
      "<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
      "<target version=\"1.0\">\n<architecture>riscv:rv32</architecture>\n"
      // Bare metal. Without it GDB falls back to its own default OS ABI (GNU/Linux on a
      // Linux host), whose RISC-V port single-steps in software (a breakpoint per
      // instruction): no hardware step, so no range stepping (vCont;r) for `next`.
      "<osabi>none</osabi>\n"
      "<feature name=\"org.gnu.gdb.riscv.cpu\">\n";
  char line[160];
  for (unsigned i = 0; i < 32; ++i) {
    const char* type = i == 1 ? "code_ptr" : (i == 2 || i == 8) ? "data_ptr" : "int";
    std::snprintf(line, sizeof line,
                  "  <reg name=\"%s\" bitsize=\"32\" type=\"%s\" regnum=\"%u\"/>\n",
                  kXregNames[i], type, i);
    xml += line;
  }
  std::snprintf(line, sizeof line,
                "  <reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\" regnum=\"%u\"/>\n",
                kGdbPcRegnum);
  xml += line;
  xml += "</feature>\n<feature name=\"org.gnu.gdb.riscv.csr\">\n";
  for (const CsrName& c : kCsrs) {
    std::snprintf(line, sizeof line,
                  "  <reg name=\"%s\" bitsize=\"32\" type=\"int\" regnum=\"%u\" "
                  "group=\"system\"/>\n",
                  c.name, kGdbFirstCsrRegnum + c.address);
    xml += line;
  }
  xml += "</feature>\n</target>\n";
  return xml;
}

}  // namespace

const std::string& riscv_target_xml() {
  static const std::string xml = build_xml();
  return xml;
}

}  // namespace socsim
