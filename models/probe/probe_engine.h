// The probe machinery behind `socsim run`: watches the retire trace, keeps the shadow call
// stack, measures the built-in phases, the runtime's events and user regions, and (when
// asked) the function profile; writes the reports at the end.
//
// Built-in regions (always reported, from the ELF's symbols; see docs/probes.md):
//   reset -> _start, data copy, BSS zeroing, DDR BSS zeroing, static init (.init_array),
//   main to exit; with the runtime linked: program load, method load, delegate init,
//   kernel resolution, each execution, each operator call and each delegate call (with its
//   element count).
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "models/cpu/retire.h"
#include "models/probe/call_stack.h"
#include "models/probe/function_profile.h"
#include "models/probe/region_probes.h"
#include "models/probe/symbols.h"

namespace socsim {

struct ProbeRunInfo {
  std::string cpu_model;  ///< "iss" or "rtl"
  bool cycles_exact = false;
  double clock_mhz = 400;
  std::string firmware;
  std::string symbols_elf;  ///< the ELF the symbols and source lines come from ("" = none)
};

class ProbeEngine final : public RetireObserver {
 public:
  ProbeEngine(std::vector<ProbeSymbol> symbols, MemoryPeek peek, bool profile);

  const SymbolMap& symbols() const { return symbols_; }
  RegionProbes& regions() { return regions_; }
  const RegionProbes& regions() const { return regions_; }
  const FunctionProfile* profile() const { return profile_.get(); }

  /// Adds the built-in phases and runtime events the firmware's symbols allow.
  void add_builtin_regions();

  void on_retire(const RetireRecord& record) override;
  /// Closes everything still open; call once, after the run. `run_cycles`, the run's cycle
  /// count, may exceed the last retirement's cycle (a core asleep at a cycle limit, or a
  /// CPU model that counts the retiring cycle itself): those cycles go to the function of
  /// the last instruction and to the regions still open, so totals match the run.
  void finish(uint64_t run_cycles = 0);

  uint64_t total_cycles() const { return last_cycle_; }
  uint64_t total_instructions() const { return retired_; }
  uint64_t unmatched_returns() const { return stack_.unmatched_returns(); }
  /// Also tells `listener` of every frame the call stack enters and leaves.
  void add_call_listener(CallListener* listener) { stack_.add_listener(listener); }

  /// The end-of-run table.
  void print_table(std::ostream& out, const ProbeRunInfo& info) const;
  void write_json(std::ostream& out, const ProbeRunInfo& info) const;
  void write_csv(std::ostream& out, const ProbeRunInfo& info) const;

 private:
  /// on_retire() for the records its fast path does not take (and with the profile on).
  [[gnu::noinline]] void retire(const RetireRecord& record);

  SymbolMap symbols_;
  CallStack stack_;
  RegionProbes regions_;
  std::unique_ptr<FunctionProfile> profile_;
  uint64_t last_cycle_ = 0;
  uint32_t last_pc_ = 0;
  uint64_t retired_ = 0;
  bool finished_ = false;
};

}  // namespace socsim
