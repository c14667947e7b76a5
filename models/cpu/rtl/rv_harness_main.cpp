// rv_harness: runs a bare-metal RISC-V ELF on the Verilated core (or, with --core iss, on the
// ISS) in the bare harness (core-v-verif memory map, see models/cpu/bare/bare_system.h) and
// exits with the firmware's exit value.
//
//   rv_harness <elf> [--core rtl|iss] [--max-cycles N] [--trace] [--bus-trace FILE]
//              [--random-waits SEED] [--check-memo] [--fpu]
//              [--fpu-lat ADDMUL,OTHERS] [--zfinx]
//
// --fpu: the core with the CV32E40P's FPU (FPU=1, latencies 0; docs/fpu.md), the ISS or
// socsim's rv_core (the genuine core's FPU is fixed when it is built: it ignores the option);
// --fpu-lat A,O the same with FPU_ADDMUL_LAT = A and FPU_OTHERS_LAT = O (0..2); --zfinx
// the FPU with ZFINX=1 (float operands in the x registers; the ISS or socsim's rv_core).
// --check-memo (ISS): every span the ISS's memo would skip is simulated too and compared; a
// difference ends the run with status 3 and says where (models/cpu/iss_timing/cv32e40p_memo.cpp).
//
// Console output goes to stdout; the last line is "rv_harness: exit <value> after <N> cycles".
// Exit status: the firmware's exit value (low 8 bits); 124 if --max-cycles passed first; 3 if the
// core broke the OBI protocol (checked with --random-waits) or the ISS's memo check failed; 2 on
// usage or ELF errors.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

#include "models/cpu/bare/iss_bare_harness.h"
#include "models/cpu/rtl/bare_harness.h"
#include "models/cpu/rtl/rtl_core.h"

namespace {

class TracePrinter : public socsim::RetireObserver {
 public:
  void on_retire(const socsim::RetireRecord& r) override {
    std::printf("%10" PRIu64 " %08x %08x", r.cycle, r.pc, r.insn);
    if (r.rd != 0) {
      std::printf(" x%-2u=%08x", r.rd, r.rd_value);
    }
    if (r.mem_valid) {
      std::printf(" %s[%08x]/%u=%08x", r.mem_write ? "st" : "ld", r.mem_addr, r.mem_size,
                  r.mem_data);
    }
    if (r.trap) {
      std::printf(" trap cause=%u", r.cause);
    }
    if (r.interrupt) {
      std::printf(" interrupt cause=%08x", r.cause);
    }
    std::printf(" -> %08x\n", r.next_pc);
  }
};

// Loads `elf` into `harness` and runs it; false (message printed) if the ELF cannot be loaded.
template <class Harness>
bool run_program(Harness& harness, const std::string& elf, socsim::RetireObserver* trace,
                 socsim::RunResult* result) {
  std::string error;
  if (!harness.load_elf(elf, &error)) {
    std::fprintf(stderr, "rv_harness: %s\n", error.c_str());
    return false;
  }
  if (trace != nullptr) harness.set_retire_observer(trace);
  *result = harness.run();
  return true;
}

int usage() {
  std::fprintf(stderr,
               "usage: rv_harness <elf> [--core rtl|iss] [--max-cycles N] [--trace] [--bus-trace FILE]"
               " [--random-waits SEED] [--check-memo] [--fpu] [--fpu-lat ADDMUL,OTHERS]"
               " [--zfinx]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  socsim::BareHarnessOptions options;
  options.console = &std::cout;
  std::string elf;
  bool trace = false;
  std::string bus_trace_path;
  std::string core = "rtl";
  bool check_memo = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--core" && i + 1 < argc) {
      core = argv[++i];
      if (core != "rtl" && core != "iss") return usage();
    } else if (arg == "--max-cycles" && i + 1 < argc) {
      options.max_cycles = std::strtoull(argv[++i], nullptr, 0);
    } else if (arg == "--random-waits" && i + 1 < argc) {
      options.random_waits = true;
      options.seed = static_cast<uint32_t>(std::strtoul(argv[++i], nullptr, 0));
    } else if (arg == "--bus-trace" && i + 1 < argc) {
      bus_trace_path = argv[++i];
    } else if (arg == "--fpu") {
      options.fpu = true;
    } else if (arg == "--zfinx") {
      options.fpu = true;
      options.zfinx = true;
    } else if (arg == "--fpu-lat" && i + 1 < argc) {
      // ADDMUL,OTHERS: the FPU's FPU_ADDMUL_LAT and FPU_OTHERS_LAT (0..2 each)
      const std::string v = argv[++i];
      if (v.size() != 3 || v[1] != ',' || v[0] < '0' || v[0] > '2' || v[2] < '0' || v[2] > '2') {
        std::cerr << "rv_harness: --fpu-lat takes ADDMUL,OTHERS, each 0, 1 or 2 (got " << v
                  << ")\n";
        return 2;
      }
      options.fpu = true;
      options.fpu_addmul_lat = static_cast<unsigned>(v[0] - '0');
      options.fpu_others_lat = static_cast<unsigned>(v[2] - '0');
    } else if (arg == "--check-memo") {
      check_memo = true;
    } else if (arg == "--trace") {
      trace = true;
    } else if (arg == "--help" || arg == "-h") {
      usage();
      return 0;
    } else if (!arg.empty() && arg[0] != '-' && elf.empty()) {
      elf = arg;
    } else {
      return usage();
    }
  }
  if (elf.empty()) {
    return usage();
  }
  std::ofstream bus_trace;
  if (!bus_trace_path.empty()) {
    bus_trace.open(bus_trace_path);
    if (!bus_trace) {
      std::fprintf(stderr, "rv_harness: cannot write %s\n", bus_trace_path.c_str());
      return 2;
    }
    options.bus_trace = &bus_trace;
  }
  TracePrinter printer;
  socsim::RetireObserver* observer = trace ? &printer : nullptr;
  socsim::RunResult result;
  if (core == "iss") {
    socsim::IssBareHarness harness(options);
    harness.iss().timing().set_memo_check(check_memo);
    if (!run_program(harness, elf, observer, &result)) return 2;
  } else {
    socsim::BareHarness harness(options);
    if (!run_program(harness, elf, observer, &result)) return 2;
  }
  std::cout.flush();
  if (!result.protocol_error.empty()) {
    std::printf("rv_harness: OBI protocol error after %" PRIu64 " cycles: %s\n", result.cycles,
                result.protocol_error.c_str());
    return 3;
  }
  if (!result.fault.empty()) {
    std::printf("rv_harness: fault after %" PRIu64 " cycles: %s\n", result.cycles,
                result.fault.c_str());
    return 3;
  }
  if (!result.exited) {
    std::printf("rv_harness: no exit after %" PRIu64 " cycles (last fetch at 0x%08x)\n",
                result.cycles, result.last_pc);
    return 124;
  }
  std::printf("rv_harness: exit %u after %" PRIu64 " cycles\n", result.exit_value,
              result.cycles);
  return static_cast<int>(result.exit_value & 0xFF);
}
