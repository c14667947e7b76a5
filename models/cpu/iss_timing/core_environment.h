// What the ISS's pipeline model sees of the world: memory behind its two OBI ports, the
// interrupt lines, and, where a test bench withholds grants, the grants of each cycle.
#pragma once

#include <cstdint>

#include "models/cpu/cpu_bus.h"
#include "models/cpu/obi.h"

namespace socsim {

class CoreEnvironment {
 public:
  virtual ~CoreEnvironment() = default;

  /// The memory behind both ports; each granted request is one access (ObiServer).
  virtual CpuBus& bus() = 0;

  /// The level of irq_i[31:0] in `cycle`. The lines keep that level at least through cycle
  /// *stable_until (>= cycle); the model asks again after it, and after every access that
  /// does not go to a direct memory window (a device may change the lines).
  virtual uint32_t irq_lines(uint64_t cycle, uint64_t* stable_until) = 0;

  /// The core sleeps in WFI with nothing requested or outstanding and irq_i = `lines`, none
  /// of them enabled in mie: true if its cycles may pass unsimulated (Status::kSleep) until
  /// a line changes. Asked for each such cycle.
  virtual bool sleeps_through(uint32_t lines) { return lines == 0; }
  /// The core is awake again after sleeping (mie may change).
  virtual void awake() {}

  /// True if grants may be withheld: then grants() is asked every cycle. Otherwise every
  /// request is granted in the cycle it is made.
  virtual bool withholds_grants() const { return false; }
  virtual void grants(uint64_t cycle, bool* instr_gnt, bool* data_gnt) {
    *instr_gnt = *data_gnt = true;
  }
};

/// Sees the requests of every cycle, granted or not (bus traces, OBI protocol checks).
class ObiRequestObserver {
 public:
  virtual ~ObiRequestObserver() = default;
  virtual void on_requests(uint64_t cycle, const ObiRequest& instr, bool instr_gnt,
                           const ObiRequest& data, bool data_gnt) = 0;
};

}  // namespace socsim
