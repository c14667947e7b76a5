// Named regions measured from the retire trace (cost to the firmware: nothing) and from
// stores to the probe register (cost: one store per mark).
//
// Kinds of region:
//   range     `start..end`: open while the program counter is in [start, end), calls made
//             from inside included; each entry from outside is one occurrence.
//   function  entry to return of a function, tail calls it makes included (recursive calls
//             count once, at the outermost level); `to_end` regions (main to exit) stay open until
//             the run ends.
//   first     from reset to the retirement of the first instruction at an address.
//   mark      between a BEGIN and an END store of one id to the probe register.
// Function regions may read the number of elements an operator or delegate call processes
// from the call's arguments (firmware/abi/runtime_probe_abi.h), without executing anything on the
// core.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/cpu/retire.h"
#include "models/probe/call_stack.h"
#include "models/probe/symbols.h"

namespace socsim {

/// Reads a 32-bit word of simulated memory without timing; false if not readable.
using MemoryPeek = std::function<bool(uint32_t addr, uint32_t* value)>;

enum class RegionTrigger : uint8_t { kRange, kFunction, kFirst, kMark };
/// Where a function region finds its element count.
enum class ElementSource : uint8_t { kNone, kKernelArgs, kDelegateArgs };

struct RegionDef {
  std::string name;
  std::string category;  ///< "phase", "runtime", "operator", "delegate", "user", "mark"
  std::string spec;      ///< as written, for reports
  RegionTrigger trigger = RegionTrigger::kRange;
  uint32_t start = 0, end = 0;  ///< range: [start, end); first: start
  std::vector<int> functions;   ///< function: any of these (overloads, aliases)
  bool to_end = false;          ///< function: stays open until the end of the run
  uint32_t mark_id = 0;
  ElementSource elements = ElementSource::kNone;
  bool always_report = false;  ///< listed even when it never occurred
};

struct RegionOccurrence {
  uint64_t start_cycle = 0;  ///< cycle before its first instruction began
  uint64_t end_cycle = 0;    ///< cycle its last instruction retired
  uint64_t instructions = 0;
  int64_t elements = -1;  ///< -1: not known
  uint64_t cycles() const { return end_cycle - start_cycle; }
};

struct RegionStats {
  uint64_t count = 0;
  uint64_t cycles = 0;
  uint64_t min_cycles = 0;
  uint64_t max_cycles = 0;
  uint64_t instructions = 0;
  uint64_t elements = 0;  ///< sum over occurrences that know their elements
  bool has_elements = false;
  std::vector<RegionOccurrence> occurrences;  ///< the first kMaxOccurrences
  bool truncated = false;
  static constexpr size_t kMaxOccurrences = 100000;
  void add(const RegionOccurrence& o);
};

/// Parses `name=spec` (command line and YAML): `start..end` (symbols or hex addresses) or a
/// function name (as in the symbol table, demangled, or demangled without parameters).
/// Throws ConfigError naming `where` when the name or a symbol is wrong.
RegionDef parse_region_spec(const std::string& name, const std::string& spec,
                            const SymbolMap& symbols, const std::string& where);

class RegionProbes : public CallListener {
 public:
  RegionProbes(const SymbolMap& symbols, MemoryPeek peek);

  /// Adds a region; returns its index. Names must be unique (ConfigError otherwise).
  size_t add(const RegionDef& def);
  /// Watches stores to the probe register block at [base, base + size).
  void set_mark_window(uint32_t base, uint32_t size) {
    mark_base_ = base;
    mark_size_ = size;
  }
  /// Names mark ids (others are called "mark <id>").
  void name_mark(uint32_t id, const std::string& name);

  /// True when on_record() and after_record() would change nothing for `record` at `depth`:
  /// its pc lies in the stretch between range boundaries where on_record() last looked, at
  /// a call depth no smaller than then, and it is no store to the probe register. Inside
  /// such a stretch every range stays inside or outside, and a range left open outside it
  /// (a call made from the range) closes only at a smaller depth, so the per-instruction path
  /// skips both calls then.
  bool quiet(const RetireRecord& record, unsigned depth) const {
    return record.pc - calm_start_ < calm_size_ && depth >= calm_depth_ &&
           !(record.mem_valid && record.mem_write && record.mem_addr - mark_base_ < mark_size_);
  }
  /// Before `record`'s control transfer; `depth` is the call depth it executes at.
  void on_record(const RetireRecord& record, uint64_t prev_cycle, unsigned depth);
  /// After the record retired (mark stores take effect).
  void after_record(const RetireRecord& record);
  /// A store of `value` to the probe register at `offset` (0 BEGIN, 4 END, 8 VALUE) that
  /// takes effect at `cycle`; `order` is the index of the next instruction to retire. Called
  /// by after_record(), and directly for a core without a retire trace (StoreMarks).
  void on_mark(uint32_t offset, uint32_t value, uint64_t cycle, uint64_t order);
  void on_enter(const CallFrame& frame, const uint32_t* regs) override;
  void on_leave(const CallFrame& frame, uint64_t end_cycle, uint64_t end_order,
                bool tail_call) override;
  /// Closes what is still open at the end of the run.
  void finish(uint64_t end_cycle, uint64_t end_order);

  size_t size() const { return defs_.size(); }
  const RegionDef& def(size_t i) const { return defs_.at(i); }
  const RegionStats& stats(size_t i) const { return stats_.at(i); }
  uint64_t unmatched_marks() const { return unmatched_marks_; }
  /// Mark ids with a BEGIN not yet ended.
  size_t open_marks() const { return open_marks_.size(); }

 private:
  struct OpenState {
    bool open = false;
    unsigned depth = 0;  ///< range: call depth at entry; function: depth of the frame
    uint64_t start_cycle = 0, start_order = 0;
    int64_t elements = -1;
    unsigned nesting = 0;  ///< marks: BEGINs of the same id not yet ended
  };
  void open(size_t i, uint64_t cycle, uint64_t order, unsigned depth, int64_t elements);
  void close(size_t i, uint64_t cycle, uint64_t order);
  int64_t read_elements(ElementSource source, const uint32_t* regs) const;
  bool peek_tensor_numel(uint32_t tensor, int64_t* numel) const;
  size_t mark_region(uint32_t id);
  void update_calm(uint32_t pc, unsigned depth);

  const SymbolMap& symbols_;
  MemoryPeek peek_;
  std::vector<RegionDef> defs_;
  std::vector<RegionStats> stats_;
  std::vector<OpenState> state_;
  std::vector<size_t> ranges_, firsts_;
  std::unordered_map<int, std::vector<size_t>> by_function_;
  std::map<uint32_t, size_t> by_mark_;
  std::map<uint32_t, std::string> mark_names_;
  std::vector<size_t> open_functions_;
  std::vector<size_t> open_marks_;  ///< innermost last, for VALUE writes
  uint32_t mark_base_ = 0, mark_size_ = 0;
  uint64_t unmatched_marks_ = 0;
  /// Where range and first-retirement regions may change state: their start and end
  /// addresses (first: start and start + 1), sorted, without duplicates.
  std::vector<uint64_t> boundaries_;
  /// The stretch [calm_start_, calm_start_ + calm_size_) between two boundaries that held
  /// the pc at the last on_record(), and the call depth then (see quiet()). Empty until the
  /// first record and after a range is added.
  uint32_t calm_start_ = 0;
  uint64_t calm_size_ = 0;
  unsigned calm_depth_ = 0;
};

}  // namespace socsim
