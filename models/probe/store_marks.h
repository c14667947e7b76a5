// Mark regions from the stores the probe register receives on the bus: the probes that are
// left for a core without a retire trace (the OpenHW CV32E40P built with SOCSIM_CV32E40P_RTL).
// A region runs from the cycle its BEGIN store reaches the register to the cycle its END store
// does; at zero wait states this equals the retire-trace measure ("after the BEGIN store
// retires to the END store, which is included"), as both stores retire the same number of
// cycles after their requests. Nesting of one id counts once; VALUE sets the element count of
// the innermost open mark. The marks are RegionProbes' own (on_mark()), fed from the bus.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "models/probe/region_probes.h"
#include "models/probe/symbols.h"

namespace socsim {

class StoreMarks {
 public:
  struct Stats {
    uint32_t id = 0;
    std::string name;
    uint64_t count = 0;
    uint64_t cycles = 0;
    uint64_t min_cycles = 0;
    uint64_t max_cycles = 0;
    bool has_elements = false;
    int64_t elements = 0;  ///< summed over occurrences
  };

  StoreMarks() : regions_(symbols_, nullptr) {}
  StoreMarks(const StoreMarks&) = delete;  // regions_ refers to symbols_
  StoreMarks& operator=(const StoreMarks&) = delete;

  void name_mark(uint32_t id, const std::string& name) { regions_.name_mark(id, name); }
  /// A store to the probe register: `offset` 0 BEGIN, 4 END, 8 VALUE; `cycle` of the request.
  void on_store(uint32_t offset, uint32_t value, uint64_t cycle) {
    regions_.on_mark(offset, value, cycle, 0);
  }

  /// Marks in order of first BEGIN.
  std::vector<Stats> stats() const;
  uint64_t unmatched_ends() const { return regions_.unmatched_marks(); }
  /// Marks still open at the end of the run (not counted).
  uint64_t open_marks() const { return regions_.open_marks(); }

  void print_table(std::ostream& out, uint64_t run_cycles, double clock_mhz) const;
  void write_json(std::ostream& out, uint64_t run_cycles, double clock_mhz,
                  const std::string& cpu_description) const;

 private:
  SymbolMap symbols_;  ///< none: marks need no symbols
  RegionProbes regions_;
};

}  // namespace socsim
