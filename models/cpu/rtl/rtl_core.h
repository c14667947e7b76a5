// RtlCore: the Verilated rv_core (rtl/) as a plain C++ object, stepped one clock cycle at a
// time by its owner (the bare harness here, the SystemC CPU wrapper later). No SystemC.
//
// One cycle, as seen by the driver:
//   1. begin_cycle(instr_in, data_in): the inputs of this cycle (grant, and the rvalid/rdata
//      of responses due now). The clock edge that starts the cycle is evaluated; the core's
//      outputs of the cycle are then valid.
//   2. read instr_request() / data_request(); a granted request is accepted in this cycle.
//      The grant of a cycle is decided before its request is seen (OBI allows a grant without
//      a request); this lets one clock edge evaluate the whole cycle (rtl/rv_core_sim.sv).
//   3. end_cycle(): ends the cycle. Instructions retiring in it are reported to the retire
//      observer.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/cpu/obi.h"
#include "models/cpu/retire.h"

class Vrv_core_sim;
class Vrv_core_sim_fpu;
class VerilatedContext;

namespace socsim {

/// Static inputs of the core (the CV32E40P top-level configuration pins).
struct RtlCoreConfig {
  uint32_t boot_addr = 0x80;
  uint32_t mtvec_addr = 0;
  uint32_t hart_id = 0;
  uint32_t dm_halt_addr = 0x1A11'0800;
  uint32_t dm_exception_addr = 0;
  /// socsim's rv_core: its FPU (the CV32E40P's FPU = 1 with these FPU_ADDMUL_LAT and
  /// FPU_OTHERS_LAT, 0..2; docs/fpu.md). The genuine core's FPU is fixed when it is built.
  bool fpu = false;
  unsigned fpu_addmul_lat = 0;
  unsigned fpu_others_lat = 0;
  /// With fpu: ZFINX = 1 (float operands and results in the x registers, no F registers).
  bool zfinx = false;
};

class RtlCore {
 public:
  explicit RtlCore(const RtlCoreConfig& config);
  ~RtlCore();
  RtlCore(const RtlCore&) = delete;
  RtlCore& operator=(const RtlCore&) = delete;

  /// Asserts the asynchronous reset, releases it and raises fetch_enable. cycle() restarts at 0.
  void reset();

  void begin_cycle(const ObiInputs& instr, const ObiInputs& data);
  ObiRequest instr_request() const {
    return ObiRequest{*ports_.instr_req != 0, false, 0xF, *ports_.instr_addr, 0};
  }
  ObiRequest data_request() const {
    return ObiRequest{*ports_.data_req != 0, *ports_.data_we != 0, *ports_.data_be,
                      *ports_.data_addr, *ports_.data_wdata};
  }
  void end_cycle();

  /// Level of the irq_i lines in the cycles from the next begin_cycle() on.
  void set_irq(uint32_t lines) { irq_ = lines; }
  /// irq_ack_o / irq_id_o of the current cycle (valid after begin_cycle()).
  bool irq_ack() const;
  uint32_t irq_ack_id() const;
  /// core_sleep_o of the current cycle (valid after begin_cycle()).
  bool sleeping() const { return *ports_.core_sleep != 0; }

  /// Lets `n` cycles pass while the core sleeps (core_sleep_o high, no interrupt pending):
  /// its state does not change then, so the cycles need not be evaluated one by one.
  void skip_sleep_cycles(uint64_t n) { cycle_ += n; }

  /// Completed clock cycles since reset was released.
  uint64_t cycle() const { return cycle_; }
  /// Retired instructions so far.
  uint64_t retired() const { return order_; }

  /// Receives every retired instruction. Interrupts are attached to the instruction retired
  /// before the handler's first one, so a record is delivered when its successor retires
  /// (or on flush_retire()).
  void set_retire_observer(RetireObserver* observer) { observer_ = observer; }
  void flush_retire();
  /// Whether the Verilated core reports retired instructions: socsim's rv_core does; the
  /// OpenHW CV32E40P (SOCSIM_CV32E40P_RTL) has no retire-trace port, so retired() stays 0.
  static bool has_retire_trace();
  /// "socsim rv_core" or "OpenHW CV32E40P (<checkout>)".
  static const char* description();
  /// Whether the FPU of this build's core is chosen at run time (RtlCoreConfig::fpu): socsim's
  /// rv_core; the genuine core's is a parameter fixed when it is Verilated.
  static bool has_runtime_fpu();
  /// description() with the configuration's FPU: "socsim rv_core (CV32E40P with FPU=1,
  /// FPU_ADDMUL_LAT=1, FPU_OTHERS_LAT=1, ZFINX=0)" (ZFINX=1 with RtlCoreConfig::zfinx).
  static std::string description(const RtlCoreConfig& config);
  /// Whether this build of the core can write waveforms: the traced variant (socsim-trace,
  /// rtl/CMakeLists.txt) can; the default one is built without tracing, for speed.
  static bool has_waveforms();
  /// Writes the core's signals to the FST file `path` for the cycles [first, end) (end 0:
  /// to the end of the run), a cycle lasting `period_ps`. "" on success, otherwise why not.
  std::string open_waveform(const std::string& path, uint64_t first, uint64_t end,
                            uint64_t period_ps);
  /// Ends the waveform file (also done by the destructor).
  void close_waveform();
  /// The mhpmcounters the core implements: its NUM_MHPMCOUNTERS parameter, given when it is
  /// Verilated (rtl/CMakeLists.txt).
  static constexpr unsigned kNumMhpmcounters = SOCSIM_RTL_NUM_MHPMCOUNTERS;

  /// The word at `addr` could not be fetched (nothing is mapped there) and the driver gave
  /// the core an illegal instruction word instead: a prefetch past the end of memory is no
  /// fault until it is executed. An instruction that overlaps such a word and retires is
  /// not reported to the observer; failed_fetch_executed() turns true and names its pc.
  void mark_failed_fetch(uint32_t addr);
  bool failed_fetch_executed() const { return failed_fetch_executed_; }
  uint32_t failed_fetch_pc() const { return failed_fetch_pc_; }
  /// The failed fetch address the executed instruction overlaps.
  uint32_t failed_fetch_addr() const { return failed_fetch_addr_; }

  /// A debugger's halt (DebugHalt, models/cpu/retire.h; rtl/rv_core.sv: debug_req_i, the
  /// hooks socsim_debug_halt/socsim_debug_resume, debug_hooks.h): asked each cycle an instruction
  /// could enter EX; once the halted core's pipeline is empty, end_cycle() calls
  /// hook->halted(). One core per process may have a hook. False for the genuine core,
  /// whose debug request would enter its debug mode.
  bool set_debug_halt(DebugHalt* hook);
  /// x`index` of the register file (while halted: the architectural state).
  uint32_t read_register(unsigned index) const;
  void write_register(unsigned index, uint32_t value);

  /// Records delivered to the observer so far, and the pc of the last one (0 before any).
  uint64_t delivered() const { return delivered_; }
  uint32_t last_delivered_pc() const { return last_delivered_pc_; }

 private:
  // The cycle's work on whichever model the core is (templates over the two Verilated types).
  template <class Top> void init_top(Top& top);
  template <class Top> void reset_top(Top& top);
  template <class Top> void begin_cycle_top(Top& top, const ObiInputs& instr,
                                            const ObiInputs& data);
  template <class Top> void end_cycle_top(Top& top);
  template <class Top> void capture_retire(Top& top);
  void deliver();
  /// After a cycle: when the halted core's pipeline is empty, the debugger's turn.
  template <class Top> void debug_cycle(Top& top);
  /// Delivers the pending record (an interrupt taken after it leads to `pc`) and makes the
  /// next one pending, numbered and stamped with this cycle; its fields are the caller's.
  RetireRecord& next_record(bool intr, uint32_t intr_cause, uint32_t pc);
  /// The branches reported on rvfi_br_* since the last rvfi_valid_o record, after it.
  void take_held_branches();
  /// True (and the failed fetch is noted) when the instruction at `pc` overlaps a word
  /// whose fetch failed.
  bool from_failed_fetch(uint32_t pc, uint32_t insn);

  /// A conditional branch reported on rvfi_br_* (it skipped WB), held until the instruction
  /// WB holds retires.
  struct HeldBranch {
    uint32_t pc, insn, next_pc;
    bool intr;
    uint32_t intr_cause;
  };

  /// The output ports read every cycle, bound once so that the accessors above inline into
  /// the driver's loop (out of line, returning an ObiRequest built from byte fields cost a
  /// store-forwarding stall per call). The Verilated top's ports are references into its
  /// state, stable for its lifetime.
  struct Ports {
    const uint8_t* instr_req = nullptr;
    const uint32_t* instr_addr = nullptr;
    const uint8_t* data_req = nullptr;
    const uint8_t* data_we = nullptr;
    const uint8_t* data_be = nullptr;
    const uint32_t* data_addr = nullptr;
    const uint32_t* data_wdata = nullptr;
    const uint8_t* core_sleep = nullptr;
  };

  /// Dumps the signals at the clock edge of this cycle (`falling`: its second half).
  void dump_waveform(bool falling);

  struct Waveform;  ///< the trace file and its window (traced build only)

  RtlCoreConfig config_;
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Waveform> waveform_;
  /// The Verilated core: rv_core without its FPU (FPU = 0), or, with RtlCoreConfig::fpu, the
  /// model built with it (FPU = 1; rtl/CMakeLists.txt): two models, so that the integer-only
  /// core's simulation carries none of the FPU's logic. Exactly one is made.
  std::unique_ptr<Vrv_core_sim> top_;
  std::unique_ptr<Vrv_core_sim_fpu> top_fpu_;
  Ports ports_;
  uint32_t irq_ = 0;
  uint64_t cycle_ = 0;
  uint64_t order_ = 0;
  RetireObserver* observer_ = nullptr;
  DebugHalt* debug_ = nullptr;
  RetireRecord pending_;
  bool has_pending_ = false;
  std::vector<HeldBranch> held_branches_;
  uint64_t delivered_ = 0;
  uint32_t last_delivered_pc_ = 0;
  std::vector<uint32_t> failed_fetches_;  ///< word addresses, few (the prefetch depth)
  bool failed_fetch_executed_ = false;
  uint32_t failed_fetch_pc_ = 0;
  uint32_t failed_fetch_addr_ = 0;
};

}  // namespace socsim
