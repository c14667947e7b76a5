// The direct path of a DDR channel controller: reads that will be served on their own
// (nothing else enters the channel before they are done, as for a blocking request) in an
// idle channel, with no refresh blocking their banks, issuing a command or falling due
// before theirs. Each function serves them at once, in closed form, exactly as
// DdrChannelController::enqueue() and step() would, or declines and changes nothing; the
// caller then queues them (enqueue()). DdrTiming takes this path for the requests of a
// blocking initiator (ddr_timing.h, read_alone()).
//
// The contract is the twin tests (controller/test/ddr_controller_test.cpp,
// DdrController.*ServedAloneMatchesTheQueuedPath): two controllers of one configuration fed
// the same bursts, one through this path, one through the queue, give the same completions,
// statistics, energy books and clocks, across page policies, refresh modes, postponing and
// schedulers (each test says which). A new fast path belongs here, with its twin test.
//
// A DdrDirectPath is a view of one controller, made on the spot (DdrDirectPath(ch)); it
// holds nothing of its own.
#pragma once

#include <algorithm>
#include <cstdint>

#include "models/ddr/controller/ddr_channel_controller.h"

namespace socsim {

class DdrDirectPath {
 public:
  explicit DdrDirectPath(DdrChannelController& channel) : c_(channel) {}

  /// A read burst that hits the open row: returns true if served (its completion to the
  /// controller's sink). `followers`: reads of the same row and bank accepted at the same
  /// cycle right after it (the rest of its request), counted as queued behind it; the
  /// caller then hands each to serve_alone() or, if it declines, enqueue() with the same
  /// cycle.
  bool serve_alone(const DdrBurstRequest& burst, uint64_t cycle, uint32_t followers = 0);
  /// The same, but a served burst's completion goes to `done` instead of the sink (the
  /// owner accounts for it itself, without a round trip through its request table).
  bool serve_alone(const DdrBurstRequest& burst, uint64_t cycle, uint32_t followers,
                   DdrBurstDone& done);
  /// Two reads of one rank in two different banks that both hit their open rows, accepted
  /// at `cycle` in this order (the two bursts of a 64-byte read on LPDDR5 or HBM2): serves
  /// the one the scheduler picks first from the queue, with the other counted as queued
  /// behind it, and returns its index (0 or 1), its completion in `done`; the caller then
  /// hands the other to serve_alone() or, if it declines, enqueue() with the same cycle.
  /// -1: nothing served.
  int serve_first_of_two(const DdrBurstRequest (&bursts)[2], uint64_t cycle, DdrBurstDone& done);
  /// One read of `count` (1 or 2) row-hit bursts accepted at `cycle` in this order, two in
  /// one row of one bank (`same_bank`) or in two banks of one rank: serve_alone() or
  /// serve_first_of_two() for the first, then serve_alone() for the other, in one call.
  /// Returns how many were served (0, 1 or 2); `lead` is the index of the first served, its
  /// completion in done[0], the other's in done[1]. One burst served of two: the caller
  /// queues the other (enqueue() with the same cycle). 0: nothing changed.
  uint32_t serve_hits_alone(const DdrBurstRequest (&bursts)[2], uint32_t count, bool same_bank,
                            uint64_t cycle, DdrBurstDone (&done)[2], int& lead);
  /// One read of `count` (1 or 2) bursts, if two in two banks of one rank or in one row of
  /// one bank, accepted at `cycle` in this order, whatever their rows: serves every burst
  /// (precharge, activate and column commands in the order the scheduler picks them from
  /// the queue), writes their completions to `done` in the order they finish and returns
  /// true. For row misses and conflicts: the refresh test bounds the last command's cycle
  /// (serve_alone() and serve_first_of_two() test each command's).
  bool serve_reads_alone(const DdrBurstRequest* bursts, uint32_t count, uint64_t cycle,
                         DdrBurstDone* done);

 private:
  /// A row-hit read in an idle channel, no refresh under way in its bank.
  bool alone_hit(const DdrBurstRequest& burst) const;
  /// The cycle choose() gives the column command of a read to `bank`, the channel idle.
  uint64_t alone_ready(uint32_t bank) const;
  /// Whether choose() would issue a command of `rank` at `issue_cycle` before any refresh:
  /// a refresh under way issues its next command later, none falls due by then, and no
  /// idle rank (not `rank`, whose requests are queued) owes a postponed one.
  bool refresh_waits(uint32_t rank, uint64_t issue_cycle) const;
  /// The closed form of enqueue() + choose() + issue() for a row-hit read in an idle
  /// channel, with `queued_behind` more reads entering the queue at the same cycle
  /// (`keeps_row`: one of them hits the same row of the same bank).
  void serve_hit(const DdrBurstRequest& burst, uint64_t cycle, uint64_t issue_cycle,
                 uint32_t queued_behind, bool keeps_row, DdrBurstDone& done);

  DdrChannelController& c_;
};

// The checks of every call, inline (as the controller's own were: serve_reads_alone() is not
// flattened).

inline bool DdrDirectPath::alone_hit(const DdrBurstRequest& burst) const {
  return !burst.is_write && c_.idle() && !c_.bank_blocked(burst.bank) &&
         c_.device_.open_row(burst.bank) == burst.row;
}

inline uint64_t DdrDirectPath::alone_ready(uint32_t bank) const {
  return std::max(std::max(c_.now_, c_.device_.bank_column_ready(bank, false)),
                  c_.device_.shared_column_ready(c_.device_.group_of(bank), false));
}

inline bool DdrDirectPath::refresh_waits(uint32_t rank, uint64_t issue_cycle) const {
  const DdrRefresh& refresh = *c_.refresh_;
  for (uint32_t r = 0; r < refresh.ranks(); ++r) {
    const DdrRankRefresh& rr = refresh.rank(r);
    if (rr.under_way()) {
      if (c_.refresh_choice(r).cycle <= issue_cycle) return false;
    } else if (rr.due <= issue_cycle || (r != rank && rr.postponed > 0)) {
      return false;
    }
  }
  return true;
}

}  // namespace socsim
