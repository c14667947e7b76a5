// The memory controller of one DDR channel: a read queue and a write queue of bursts, a
// scheduling policy (ddr_scheduler.h), write buffering, page policy and refresh, in front
// of the channel's device timing (ddr_device_timing.h). Pure C++ and event driven: it
// jumps from one command to the next instead of ticking every cycle, with the semantics of
// a controller that issues at most one command per memory clock cycle:
//
//  - Reads and writes wait in separate queues. Writes are served in drains: a drain starts
//    when the write queue fills beyond the high watermark, or when no read waits, and goes
//    on until it is below the low watermark while reads wait (Ramulator 2 and DRAMSys work
//    this way). A read of a line whose write is queued is answered from the write queue
//    (forwarding) one cycle later; a write to a line already queued replaces it.
//  - A request whose row was opened for it (activated) is served before anyone may close
//    that row, whatever the direction being served.
//  - Refresh, per rank (all_bank) or per bank (per_bank, round robin): when it falls due,
//    new requests to the rank (bank) wait, activated ones finish, the rows are closed and
//    the refresh issued. With refresh_postpone > 0 a refresh that falls due while requests
//    of the rank are queued is put off, up to that many, and caught up when the rank is
//    idle or the limit is reached.
//  - Page policy: open, closed (auto-precharge after every access) or closed_adaptive
//    (auto-precharge unless a queued request hits the same row).
//
// Bursts are handed in with enqueue() at their acceptance cycle; run_until() and step()
// advance time; each burst's completion goes to the DdrBurstSink (reads: last data beat;
// writes: end of their data in the device). See docs/ddr.md.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "models/ddr/controller/ddr_device_timing.h"
#include "models/ddr/controller/ddr_page_policy.h"
#include "models/ddr/controller/ddr_scheduler.h"
#include "models/ddr/ddr_config.h"
#include "models/ddr/ddr_stats.h"

namespace socsim {

/// A burst for one channel.
struct DdrBurstRequest {
  uint32_t request = 0;  ///< the owner's request index, returned in DdrBurstDone
  uint32_t bank = 0;     ///< flat bank index in the channel (DdrDeviceTiming::bank_index)
  uint32_t row = 0;
  uint64_t line = 0;   ///< burst-aligned device address (forwarding, coalescing)
  uint32_t bytes = 0;  ///< bytes of the request inside this burst (statistics)
  bool is_write = false;
};

/// How a burst was served.
enum class DdrOutcome : uint8_t {
  kHit,        ///< its first command was the column command
  kMiss,       ///< activate, then column
  kConflict,   ///< precharge, activate, column
  kForwarded,  ///< a read answered from the write queue
  kCoalesced,  ///< a write merged into a queued write to the same line
};

struct DdrBurstDone {
  uint32_t request = 0;
  uint32_t channel = 0;
  uint32_t bank = 0;
  uint64_t accept_cycle = 0;  ///< entered the controller
  uint64_t done_cycle = 0;    ///< last data beat (forwarded or coalesced: see DdrOutcome)
  uint32_t bytes = 0;
  DdrOutcome outcome = DdrOutcome::kHit;
  bool is_write = false;
  bool refresh_stall = false;  ///< a refresh held it back
};

class DdrBurstSink {
 public:
  virtual ~DdrBurstSink() = default;
  virtual void burst_done(const DdrBurstDone& done) = 0;
};

class DdrChannelController {
 public:
  /// The controller of channel `channel`; `config` must be valid and outlive it; `stats`
  /// receives the controller's counters.
  DdrChannelController(const DdrConfig& config, uint32_t channel, DdrBurstSink& sink,
                       DdrControllerStats& stats);
  DdrChannelController(const DdrChannelController&) = delete;
  DdrChannelController& operator=(const DdrChannelController&) = delete;

  /// The earliest cycle of the next command: one after the last issued one, or the cycle
  /// run_until() was last called with.
  uint64_t now() const { return now_; }
  bool has_room(bool is_write) const {
    const int dir = is_write ? kWrite : kRead;
    return queued_[dir] - activated_[dir] < capacity_[dir];
  }
  /// Queues (or forwards, or coalesces) a burst accepted at `cycle`; needs has_room(). A
  /// burst accepted before now() is scheduled from now() on.
  void enqueue(const DdrBurstRequest& burst, uint64_t cycle);
  // The direct path: reads that will be served on their own (nothing else enters the
  // channel before they are done, as for a blocking request) in an idle channel, with no
  // refresh blocking their banks, issuing a command or falling due before theirs. Each
  // serves them at once, exactly as enqueue() and step() would, or changes nothing.

  /// A read burst that hits the open row: returns true if served. `followers`: reads of the
  /// same row and bank accepted at the same cycle right after it (the rest of its request),
  /// counted as queued behind it; the caller then hands each to serve_alone() or, if it
  /// declines, enqueue() with the same cycle.
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
  /// Issues every command (and refresh) that falls before `cycle`; now() is then >= cycle.
  void run_until(uint64_t cycle);
  /// Issues the next command, waiting for it as long as needed. False if nothing is queued.
  bool step();
  bool idle() const { return queued_[0] + queued_[1] == 0; }

  /// With the queues empty, carries out the refreshes still owed (postponed or under way).
  void catch_up();
  /// Closes the energy books at `cycle` (see DdrDeviceTiming::settle).
  void settle(uint64_t cycle);
  const DdrDeviceTiming& device() const { return device_; }
  /// Cycle of the last command's effect (last data beat or refresh end).
  uint64_t last_event() const { return last_event_; }

 private:
  static constexpr int kRead = 0;
  static constexpr int kWrite = 1;
  static constexpr int32_t kNone = -1;

  struct Entry {
    uint64_t seq = 0;
    uint64_t accept = 0;
    uint64_t line = 0;
    uint32_t request = 0;
    uint32_t bank = 0;
    uint32_t row = 0;
    uint32_t bypassed = 0;
    uint32_t bytes = 0;
    int32_t prev = kNone;
    int32_t next = kNone;
    bool is_write = false;
    bool started = false;  // its first command has been issued
    bool refresh_stall = false;
    DdrOutcome outcome = DdrOutcome::kHit;
  };
  // What a bank offers the scheduler, without the bounds its bank group, rank and the bus
  // add (those change with every command and are combined in collect_candidates()).
  struct Offer {
    DdrCandidate candidate;  // all but `ready`
    uint64_t bank_ready = 0;
    uint32_t bound = 0;  // index of the bank group's bound for its command (shared_ready_)
  };
  struct BankQueue {
    int32_t head[2] = {kNone, kNone};
    int32_t tail[2] = {kNone, kNone};
    int32_t activated = kNone;     // entry the open row was activated for
    bool refresh_pending = false;  // per-bank refresh owed: no new activates
    // Offers for the direction `offers_dir`, valid until the bank changes (`stale`).
    bool stale = true;
    int8_t offers_dir = -1;
    uint32_t group = 0;  // flat bank group (indexes shared_ready_)
    uint8_t offer_count = 0;
    uint32_t head_bypassed = 0;
    Offer offers[3];
  };
  struct RankRefresh {
    uint64_t due = 0;              // next deadline (all-bank: REFab; per-bank: next REFpb)
    uint32_t postponed = 0;        // refreshes owed beyond the schedule
    bool pending = false;          // all_bank: a refresh is being carried out
    int32_t pending_bank = kNone;  // per_bank: the bank being refreshed
    uint32_t next_bank = 0;        // per_bank: round robin (bank within the rank)
    uint32_t queued = 0;           // entries of this rank in the queues
  };
  // What the next command is.
  enum class Kind : uint8_t { kRequest, kPrechargeAll, kRefresh, kPrecharge, kRefreshBank };
  struct Choice {
    Kind kind = Kind::kRequest;
    uint64_t cycle = UINT64_MAX;
    size_t candidate = 0;  // kRequest: index into candidates_
    uint32_t rank = 0;
    uint32_t bank = 0;
  };

  // Queue bookkeeping.
  int32_t alloc_entry();
  void link(int32_t e);
  void unlink(int32_t e);
  void note_occupancy(uint64_t cycle) {
    if (cycle <= occupancy_since_) return;
    const uint64_t span = cycle - occupancy_since_;
    stats_.read_queue_occupancy += queued_[kRead] * span;
    stats_.write_queue_occupancy += queued_[kWrite] * span;
    stats_.observed_cycles += span;
    occupancy_since_ = cycle;
  }

  // The direct path (serve_alone): a row-hit read in an idle channel, no refresh under way.
  bool alone_hit(const DdrBurstRequest& burst) const {
    return !burst.is_write && idle() && !bank_blocked(burst.bank) &&
           device_.open_row(burst.bank) == burst.row;
  }
  /// The cycle choose() gives the column command of a read to `bank`, the channel idle.
  uint64_t alone_ready(uint32_t bank) const {
    return std::max(std::max(now_, device_.bank_column_ready(bank, false)),
                    device_.shared_column_ready(device_.group_of(bank), false));
  }
  /// Whether choose() would issue a command of `rank` at `issue_cycle` before any refresh:
  /// a refresh under way issues its next command later, none falls due by then, and no
  /// idle rank (not `rank`, whose requests are queued) owes a postponed one.
  bool refresh_waits(uint32_t rank, uint64_t issue_cycle) const {
    for (uint32_t r = 0; r < refresh_.size(); ++r) {
      const RankRefresh& rr = refresh_[r];
      if (rr.pending || rr.pending_bank != kNone) {
        if (refresh_choice(r).cycle <= issue_cycle) return false;
      } else if (rr.due <= issue_cycle || (r != rank && rr.postponed > 0)) {
        return false;
      }
    }
    return true;
  }
  void serve_hit(const DdrBurstRequest& burst, uint64_t cycle, uint64_t issue_cycle,
                 uint32_t queued_behind, bool keeps_row, DdrBurstDone& done);

  // Scheduling.
  void update_write_mode();
  void update_refresh(uint64_t cycle);
  bool bank_blocked(uint32_t bank) const {
    return refreshing_ > 0 &&
           (refresh_[device_.rank_of(bank)].pending || banks_[bank].refresh_pending);
  }
  void collect_candidates();
  /// After entry `e` was queued: keeps the last choice valid where that is cheap.
  /// `offers_were_fresh`: its bank's offers were up to date before it was linked.
  void update_choice(int32_t e, bool offers_were_fresh);
  void make_offers(uint32_t bank, int dir);
  void add_offer(BankQueue& q, int32_t e, uint32_t bank, bool oldest, bool activated);
  void mark_rank_stale(uint32_t rank);
  /// The next command; refresh deadlines after `limit` are left undecided.
  Choice choose(uint64_t limit);
  Choice refresh_choice(uint32_t rank) const;
  void issue(const Choice& choice);
  void issue_request(const DdrCandidate& candidate, uint64_t cycle);
  void finish_entry(int32_t e, uint64_t done_cycle);
  bool auto_precharge(const Entry& e) const;
  void mark_refresh_stalls(uint32_t rank, int32_t only_bank);
  /// Carries out refreshes that fall due before `cycle` while the rank is idle, at once.
  void idle_refreshes(uint32_t rank, uint64_t cycle);
  /// Its per-bank part in closed form (O(bank sets), not O(refreshes)); false if it does
  /// not apply.
  bool idle_bank_refreshes(uint32_t rank, uint64_t cycle);

  const DdrConfig& config_;
  uint32_t channel_;
  DdrBurstSink& sink_;
  DdrControllerStats& stats_;
  DdrDeviceTiming device_;
  std::unique_ptr<DdrScheduler> scheduler_;
  const DdrTimingParams& t_;
  uint32_t banks_per_rank_;

  std::vector<Entry> entries_;
  int32_t free_ = kNone;
  std::vector<BankQueue> banks_;
  uint64_t pending_mask_[2] = {0, 0};  // banks with queued entries, per direction
  uint64_t activated_mask_ = 0;
  uint32_t queued_[2] = {0, 0};     // entries per direction, activated ones included
  uint32_t activated_[2] = {0, 0};  // of those, activated (in their bank's active slot)
  uint32_t capacity_[2];
  uint32_t high_mark_;
  uint32_t low_mark_;
  bool write_mode_ = false;
  bool drain_forced_ = false;
  uint64_t drain_writes_ = 0;
  std::unordered_map<uint64_t, int32_t> queued_writes_;  // line -> entry
  std::vector<RankRefresh> refresh_;
  uint32_t refreshing_ = 0;  // ranks with a refresh under way (pending or pending_bank)
  uint64_t refresh_interval_;
  // The page policy's answers (ddr_page_policy.h), indexed by whether another queued request
  // hits the row: fixed for the channel, so the hot paths read them from this table.
  bool precharge_[2] = {false, false};
  bool page_asks_queue_ = false;  // the answers differ: auto_precharge() looks at the queue
  // The longest wait one command of serve_reads_alone() can add for the next (tRP, tRCD,
  // tRRD, tCCD, tPPD, a burst on the bus).
  uint64_t alone_step_;
  std::vector<uint64_t> refresh_busy_until_;  // per bank: a refresh keeps it busy

  uint64_t now_ = 0;
  uint64_t seq_ = 0;
  uint64_t last_event_ = 0;
  uint64_t occupancy_since_ = 0;
  std::vector<DdrCandidate> candidates_;  // 3 per bank; the first candidate_count_ are set
  size_t candidate_count_ = 0;
  // Per bank group and command (ACT, RD, WR, PRE): the bound its bank group, rank and the
  // data bus set, computed at most once per decision (shared_stamp_ == decision_).
  uint64_t shared_bound(uint32_t slot) {
    return shared_stamp_[slot] == decision_ ? shared_ready_[slot] : compute_shared_bound(slot);
  }
  uint64_t compute_shared_bound(uint32_t slot);
  std::vector<uint64_t> shared_ready_;
  std::vector<uint64_t> shared_stamp_;
  uint64_t decision_ = 0;
  // The last choice, reused while nothing changed (see choose()).
  bool choice_valid_ = false;
  Choice choice_;
  uint64_t choice_deadline_ = 0;  // the earliest refresh deadline choose() left undecided
};

}  // namespace socsim
