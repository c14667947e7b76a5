// Scheduling policies of the DDR channel controller, DRAMSys style: one pure-virtual
// interface, one file pair per policy, and make_ddr_scheduler() switching on the
// configuration enum. Adding a policy = one DdrSchedulerKind value, one file pair, one case.
//
// The controller offers, per bank with queued requests of the direction being served, the
// next command of the request the bank's row was opened for, of its oldest other request
// that hits the open row, and of its oldest request that misses it (with the bank closed:
// its oldest request), each with the cycle it could issue: every request a policy could
// want first, as Ramulator 2's schedulers see every queued request. The policy picks one;
// the controller then issues it at that cycle.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "models/ddr/controller/ddr_controller_config.h"

namespace socsim {

/// A command the controller could issue next for one queued request.
struct DdrCandidate {
  uint64_t ready = 0;   ///< earliest cycle the device accepts it
  uint64_t seq = 0;     ///< arrival order of its request (smaller: older)
  int32_t entry = -1;   ///< the request's queue entry (for the controller)
  uint16_t bank = 0;    ///< flat bank index in the channel
  bool column = false;  ///< a read/write to the open row (a row hit), not PRE/ACT
  bool oldest_in_bank = false;
  bool activated = false;      ///< the bank's row was opened for this request
  uint32_t head_bypassed = 0;  ///< times the oldest request of this bank has been overtaken
};

class DdrScheduler {
 public:
  virtual ~DdrScheduler() = default;
  /// Index of the candidate to issue; `count` > 0. The chosen candidate's
  /// `ready` is when it issues, so a policy that waits for an older request returns it.
  virtual size_t pick(const DdrCandidate* candidates, size_t count) const = 0;
  /// True if the choice is the best candidate under an order of single candidates (and
  /// their own bank's state): then a new request needs only to be compared with the
  /// previous choice, not a new pick over all.
  virtual bool orders_candidates() const { return false; }
};

/// The policy `config.scheduler` names, with its parameters.
std::unique_ptr<DdrScheduler> make_ddr_scheduler(const DdrControllerConfig& config);

}  // namespace socsim
