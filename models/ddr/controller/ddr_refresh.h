// The refresh of a channel controller (`controller.refresh`), DRAMSys style: one class per
// mode (all_bank_refresh.h, per_bank_refresh.h), chosen by make_ddr_refresh() on the
// configuration's enum: a new mode is one enum value, one file pair and one case.
//
// DdrRefresh holds what every mode shares, each rank's schedule (its next deadline, the
// refreshes it owes, the refresh under way) and each bank's state (waiting for a per-bank
// refresh, busy until one ends), and the hot checks the controller asks for every request
// (blocked()), inline. A mode says how a refresh starts, which command carries it out next,
// how that command is issued, and how an idle rank catches up on many at once. When a
// refresh falls due and whether it is postponed are the controller's (ddr_channel_controller.h:
// it knows the queues).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "models/ddr/controller/ddr_device_timing.h"
#include "models/ddr/ddr_config.h"
#include "models/ddr/ddr_stats.h"

namespace socsim {

/// The refresh schedule of one rank.
struct DdrRankRefresh {
  uint64_t due = 0;           ///< next deadline (all-bank: REFab; per-bank: next REFpb)
  uint32_t postponed = 0;     ///< refreshes owed beyond the schedule
  bool pending = false;       ///< all_bank: a refresh is being carried out
  int32_t pending_bank = -1;  ///< per_bank: the bank being refreshed (-1: none)
  uint32_t next_bank = 0;     ///< per_bank: round robin (bank within the rank)
  uint32_t queued = 0;        ///< the controller's entries of this rank in its queues
  bool under_way() const { return pending || pending_bank != -1; }
};

/// The next command of a refresh under way in one rank.
struct DdrRefreshCommand {
  enum class Kind : uint8_t {
    kNone,          ///< it waits (an activated request finishes first)
    kPrechargeAll,  ///< all-bank: close the rank's rows
    kRefresh,       ///< all-bank: REFab
    kPrecharge,     ///< per-bank: close the row of `bank` (changes only that bank)
    kRefreshBank,   ///< per-bank: REFpb of `bank`'s set
  };
  Kind kind = Kind::kNone;
  uint64_t cycle = UINT64_MAX;  ///< the earliest cycle the device accepts it
  uint32_t bank = 0;            ///< kPrecharge, kRefreshBank
};

/// Refreshes an idle rank caught up on at once (DdrRefresh::catch_up_idle()).
struct DdrRefreshBatch {
  uint64_t last_command = 0;  ///< cycle of the last refresh command
  uint64_t end = 0;           ///< cycle its refresh ends
};

class DdrRefresh {
 public:
  /// `config` and `device` (the channel's) must outlive it; `stats` receives the refresh
  /// counters; `interval` is the mode's cycles between two deadlines of a rank.
  DdrRefresh(const DdrConfig& config, DdrDeviceTiming& device, DdrControllerStats& stats,
             uint64_t interval);
  virtual ~DdrRefresh() = default;
  DdrRefresh(const DdrRefresh&) = delete;
  DdrRefresh& operator=(const DdrRefresh&) = delete;

  // ---- shared state --------------------------------------------------------------------
  uint32_t ranks() const { return static_cast<uint32_t>(ranks_.size()); }
  DdrRankRefresh& rank(uint32_t r) { return ranks_[r]; }
  const DdrRankRefresh& rank(uint32_t r) const { return ranks_[r]; }
  /// Every rank's schedule, in rank order.
  const std::vector<DdrRankRefresh>& schedules() const { return ranks_; }
  /// Cycles between two deadlines of a rank (tREFI, tREFIpb).
  uint64_t interval() const { return interval_; }
  /// Ranks with a refresh under way.
  uint32_t refreshing() const { return refreshing_; }
  /// A per-bank refresh owed to `bank`: no new activates.
  bool bank_pending(uint32_t bank) const { return bank_pending_[bank] != 0; }
  /// The cycle a refresh of `bank` ends.
  uint64_t busy_until(uint32_t bank) const { return busy_until_[bank]; }
  /// A refresh under way holds back new commands to `bank`.
  bool blocked(uint32_t bank) const {
    return refreshing_ > 0 && (ranks_[device_.rank_of(bank)].pending || bank_pending_[bank] != 0);
  }

  // ---- what a mode does ----------------------------------------------------------------
  /// Starts the refresh of `rank` that fell due (or is caught up); returns the bank it
  /// refreshes, or -1 for the whole rank.
  int32_t start(uint32_t rank) {
    ++refreshing_;
    return start_refresh(rank);
  }
  /// The next command of the refresh under way in `rank` at `now` or later;
  /// `activated_mask`: the banks whose open row was activated for a queued request (those
  /// requests finish first).
  virtual DdrRefreshCommand next_command(uint32_t rank, uint64_t now,
                                         uint64_t activated_mask) const = 0;
  /// Issues `command` (next_command()'s, of `rank`) at `cycle`; returns the cycle its
  /// effect ends (a refresh: its tRFC), 0 if it has none to count.
  virtual uint64_t issue(uint32_t rank, const DdrRefreshCommand& command, uint64_t cycle) = 0;
  /// With `rank` idle, no refresh under way, none owed (postponed) and a deadline before
  /// `cycle` (the controller tests these first), and its rows closed: carries out in closed form
  /// the refreshes falling due before `cycle` that would issue back to back from `now`, and
  /// returns true with the batch's last command and end; false if that does not apply.
  virtual bool catch_up_idle(uint32_t rank, uint64_t cycle, uint64_t now,
                             DdrRefreshBatch& batch) = 0;

 protected:
  virtual int32_t start_refresh(uint32_t rank) = 0;
  /// Marks the refresh of `rank` done.
  void end_refresh() { --refreshing_; }

  const DdrTimingParams& t_;
  DdrDeviceTiming& device_;
  DdrControllerStats& stats_;
  uint32_t banks_per_rank_;
  std::vector<DdrRankRefresh> ranks_;
  std::vector<uint8_t> bank_pending_;
  std::vector<uint64_t> busy_until_;

 private:
  uint64_t interval_;
  uint32_t refreshing_ = 0;
};

/// The refresh of `config.controller.refresh`.
std::unique_ptr<DdrRefresh> make_ddr_refresh(const DdrConfig& config, DdrDeviceTiming& device,
                                             DdrControllerStats& stats);

}  // namespace socsim
