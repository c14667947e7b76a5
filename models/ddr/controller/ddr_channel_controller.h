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
//    idle or the limit is reached. The mode is a DdrRefresh (ddr_refresh.h, a file pair
//    per mode); the controller decides when a refresh starts and interleaves its commands.
//  - Page policy: open, closed (auto-precharge after every access) or closed_adaptive
//    (auto-precharge unless a queued request hits the same row): a DdrPagePolicyRule
//    (ddr_page_policy.h, a file pair per policy).
//
// Bursts are handed in with enqueue() at their acceptance cycle; run_until() and step()
// advance time; each burst's completion goes to the DdrBurstSink (reads: last data beat;
// writes: end of their data in the device). Reads alone in an idle channel may instead be
// served at once, exactly as enqueue() and step() would, through DdrDirectPath
// (ddr_direct_path.h). See docs/ddr.md.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "models/ddr/controller/ddr_device_timing.h"
#include "models/ddr/controller/ddr_page_policy.h"
#include "models/ddr/controller/ddr_refresh.h"
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
    int32_t activated = kNone;  // entry the open row was activated for
    // Offers for the direction `offers_dir`, valid until the bank changes (`stale`).
    bool stale = true;
    int8_t offers_dir = -1;
    int8_t miss_dir = -1;  // see first_miss
    uint32_t group = 0;  // flat bank group (indexes shared_ready_)
    uint8_t offer_count = 0;
    uint32_t head_bypassed = 0;
    Offer offers[3];
    // While `miss_dir` is a direction: the oldest request queued in it whose row is not
    // `miss_row` (kNone if none), which make_offers() offers a precharge for while that row
    // is open. link() and unlink() keep it, so it is searched for again only when another
    // row is open or the other direction is offered, not at every offer (the queue of a
    // bank that a stream reads is mostly row hits to walk past). Placed last, and miss_dir
    // in padding, so that the offers keep their offset and the struct grows by 8 bytes.
    int32_t first_miss = kNone;
    uint32_t miss_row = 0;
  };
  // What the next command is.
  enum class Kind : uint8_t { kRequest, kRefresh };
  struct Choice {
    Kind kind = Kind::kRequest;
    // kRefresh: the refresh command's kind (its cycle is `cycle`, its bank `bank`); kept
    // apart rather than as a DdrRefreshCommand so that a Choice stays as small as it was.
    DdrRefreshCommand::Kind refresh = DdrRefreshCommand::Kind::kNone;
    uint64_t cycle = UINT64_MAX;
    size_t candidate = 0;  // kRequest: index into candidates_
    uint32_t rank = 0;     // kRefresh
    uint32_t bank = 0;     // kRefresh
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

  friend class DdrDirectPath;  // the fast paths (ddr_direct_path.h)

  // Scheduling.
  void update_write_mode();
  void update_refresh(uint64_t cycle);
  bool bank_blocked(uint32_t bank) const { return refresh_->blocked(bank); }
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
  std::unique_ptr<DdrRefresh> refresh_;  // the refresh mode and each rank's schedule
  // The page policy's answers (ddr_page_policy.h), indexed by whether another queued request
  // hits the row: fixed for the channel, so the hot paths read them from this table.
  bool precharge_[2] = {false, false};
  bool page_asks_queue_ = false;  // the answers differ: auto_precharge() looks at the queue
  // The longest wait one command of serve_reads_alone() can add for the next (tRP, tRCD,
  // tRRD, tCCD, tPPD, a burst on the bus).
  uint64_t alone_step_;

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
