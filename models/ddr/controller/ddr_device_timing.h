// The JEDEC timing state of one DDR channel: which row each bank has open and, for every
// command, the earliest memory-clock cycle the device accepts it, given the commands issued
// so far. Pure device rules, no policy: the channel controller (ddr_channel_controller.h)
// decides what to issue, this class answers "when may it" and records "it was".
//
// Constraints (all in tCK, names as in the JEDEC tables; docs/ddr.md lists them):
//   bank:       ACT-ACT tRC, ACT-RD tRCD, ACT-WR tRCDWR, ACT-PRE tRAS, PRE-ACT tRP,
//               RD-PRE tRTP, end of write data-PRE tWR, REFpb-ACT tRFCpb
//   bank group: RD-RD tCCD_L, WR-WR tCCD_L_WR, end of write data-RD tWTR_L, ACT-ACT tRRD_L
//   rank:       RD-RD tCCD_S, WR-WR tCCD_S_WR, RD-WR CL + burst + 2 - CWL, end of write
//               data-RD tWTR_S, ACT-ACT tRRD_S, four ACTs per tFAW, PRE-PRE tPPD,
//               REF-anything tRFC (after all banks are closed: PREA, tRPab),
//               REFpb-REFpb tPBR2PBR, REFpb-ACT tPBR2ACT
//   channel:    one data bus (a burst holds it burst_cycles), tRTRS between bursts of
//               different ranks, one command per cycle (kept by the controller).
// Commands must be recorded in non-decreasing cycle order.
//
// The class also counts what the energy model needs (commands per rank, cycles with a bank
// open) and the data-bus cycles per rank and bank group for the utilisation statistics.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <queue>
#include <vector>

#include "models/ddr/ddr_config.h"

namespace socsim {

/// Commands of one rank, as the energy model (ddr_energy.h) needs them.
struct DdrRankActivity {
  uint64_t activates = 0;
  uint64_t precharges = 0;      ///< banks closed (PRE, PREA per open bank, auto-precharge)
  uint64_t reads = 0;           ///< read bursts
  uint64_t writes = 0;          ///< write bursts
  uint64_t refreshes = 0;       ///< REFab
  uint64_t bank_refreshes = 0;  ///< REFpb
  uint64_t active_cycles = 0;   ///< cycles with at least one bank open (up to the last event)
};

class DdrDeviceTiming {
 public:
  static constexpr uint64_t max3(uint64_t a, uint64_t b, uint64_t c) {
    return std::max(std::max(a, b), c);
  }
  static constexpr uint32_t kClosed = UINT32_MAX;

  /// `config` must be valid (a jedec model).
  explicit DdrDeviceTiming(const DdrConfig& config);

  uint32_t banks() const { return static_cast<uint32_t>(banks_.size()); }
  uint32_t ranks() const { return static_cast<uint32_t>(ranks_.size()); }
  uint32_t rank_of(uint32_t bank) const { return banks_[bank].rank; }
  uint32_t group_of(uint32_t bank) const { return banks_[bank].group; }
  /// Flat bank index in the channel of (rank, bank group, bank in group).
  uint32_t bank_index(uint32_t rank, uint32_t group, uint32_t bank) const {
    return (rank * groups_per_rank_ + group) * banks_per_group_ + bank;
  }
  uint32_t open_row(uint32_t bank) const { return banks_[bank].open_row; }
  /// Banks of `rank` with a row open.
  uint32_t open_banks(uint32_t rank) const { return ranks_[rank].open_banks; }

  // ---- earliest cycle >= `now` the device accepts a command ------------------------------
  // Each bound is the bank's own one (bank_*) combined with what its bank group, rank and
  // the channel's data bus allow (shared_*): the controller caches the first per bank and
  // computes the second once per bank group for all its banks.
  uint64_t bank_activate_ready(uint32_t bank) const { return banks_[bank].act_ready; }
  uint64_t bank_precharge_ready(uint32_t bank) const { return banks_[bank].pre_ready; }
  uint64_t bank_column_ready(uint32_t bank, bool is_write) const {
    return is_write ? banks_[bank].wr_ready : banks_[bank].rd_ready;
  }
  /// `group` is the flat bank-group index (group_of()).
  uint64_t shared_activate_ready(uint32_t group) const {
    const Rank& r = ranks_[group / groups_per_rank_];
    return max3(groups_[group].act_ready, r.act_ready, r.faw[r.faw_next]);
  }
  uint64_t shared_precharge_ready(uint32_t rank) const { return ranks_[rank].pre_ready; }
  uint64_t shared_column_ready(uint32_t group, bool is_write) const {
    const uint32_t rank = group / groups_per_rank_;
    const Group& g = groups_[group];
    const Rank& r = ranks_[rank];
    const uint64_t delay = is_write ? t_.cwl : t_.cl;
    uint64_t bus = bus_free_ + (rank != bus_rank_ ? t_.t_rtrs : 0);
    bus = bus > delay ? bus - delay : 0;
    return is_write ? max3(g.wr_ready, r.wr_ready, bus) : max3(g.rd_ready, r.rd_ready, bus);
  }
  uint64_t earliest_precharge(uint32_t bank, uint64_t now) const {
    return max3(now, bank_precharge_ready(bank), shared_precharge_ready(banks_[bank].rank));
  }
  /// The latest cycle any bound of a read, activate or precharge to `bank` names so far (its
  /// bank's, bank group's and rank's, the four-activate window's and the data bus'):
  /// commands issued after it wait only for those issued after it.
  uint64_t latest_read_bound(uint32_t bank) const {
    const Bank& b = banks_[bank];
    const Group& g = groups_[b.group];
    const Rank& r = ranks_[b.rank];
    const uint64_t faw = std::max(std::max(r.faw[0], r.faw[1]), std::max(r.faw[2], r.faw[3]));
    return std::max({b.act_ready, b.rd_ready, b.pre_ready, g.act_ready, g.rd_ready, r.act_ready,
                     r.rd_ready, r.pre_ready, faw, bus_free_ + t_.t_rtrs});
  }
  uint32_t groups() const { return static_cast<uint32_t>(groups_.size()); }
  uint64_t earliest_precharge_all(uint32_t rank, uint64_t now) const;
  /// All banks of the rank must be closed.
  uint64_t earliest_refresh(uint32_t rank, uint64_t now) const;
  /// REFpb of `bank` refreshes it and banks_per_refpb - 1 more of its rank, `refpb_stride()`
  /// apart; all must be closed.
  uint64_t earliest_refresh_bank(uint32_t bank, uint64_t now) const;
  uint32_t refpb_banks() const { return refpb_banks_; }
  uint32_t refpb_stride() const { return refpb_stride_; }

  // ---- record an issued command ----------------------------------------------------------
  void activate(uint32_t bank, uint32_t row, uint64_t cycle);
  void precharge(uint32_t bank, uint64_t cycle);
  /// A read or write burst; with `auto_precharge` the bank closes as soon as it may.
  /// Returns the cycle its last data beat has been transferred.
  uint64_t column(uint32_t bank, bool is_write, bool auto_precharge, uint64_t cycle);
  void precharge_all(uint32_t rank, uint64_t cycle);
  /// `count` refreshes, the last at `cycle` (an idle rank catching up at once).
  void refresh(uint32_t rank, uint64_t cycle, uint64_t count = 1);
  /// `count` counts as that many REFpb in the energy books (an idle rank catching up at
  /// once: the last REFpb of each bank set is recorded, the others only counted).
  void refresh_bank(uint32_t bank, uint64_t cycle, uint64_t count = 1);

  /// Closes the books at `cycle` (>= every recorded command): banks still open count as
  /// active up to it. Called before reading activity().
  void settle(uint64_t cycle);
  const DdrRankActivity& activity(uint32_t rank) const { return ranks_[rank].activity; }
  /// Data-bus cycles spent on bursts of each rank / of each bank group (rank-major).
  const std::vector<uint64_t>& rank_bus_cycles() const { return rank_bus_cycles_; }
  const std::vector<uint64_t>& group_bus_cycles() const { return group_bus_cycles_; }

 private:
  struct Bank {
    uint32_t open_row = kClosed;
    uint32_t rank = 0;
    uint32_t group = 0;  // flat over ranks
    uint64_t act_ready = 0;
    uint64_t rd_ready = 0;
    uint64_t wr_ready = 0;
    uint64_t pre_ready = 0;
  };
  struct Group {
    uint64_t act_ready = 0;
    uint64_t rd_ready = 0;
    uint64_t wr_ready = 0;
  };
  struct Rank {
    uint64_t act_ready = 0;
    uint64_t rd_ready = 0;
    uint64_t wr_ready = 0;
    uint64_t pre_ready = 0;
    uint64_t ref_ready = 0;         // REFab: tRFC after the last one
    uint64_t refpb_ready = 0;       // REFpb: tPBR2PBR after the last one
    std::array<uint64_t, 4> faw{};  // last four ACT + tFAW; the oldest bounds the next ACT
    size_t faw_next = 0;
    uint32_t open_banks = 0;     // banks with open_row set (what scheduling sees)
    uint32_t powered_banks = 0;  // banks not yet precharged (what the energy model sees)
    uint64_t active_since = 0;   // first cycle of the current stretch with a bank open
    // Auto-precharges decided ahead of time close their bank later: (cycle, bank).
    std::priority_queue<std::pair<uint64_t, uint32_t>, std::vector<std::pair<uint64_t, uint32_t>>,
                        std::greater<>>
        closing;
    DdrRankActivity activity;
  };

  void open(Rank& rank, uint64_t cycle);
  void close(Rank& rank, uint64_t cycle);
  /// Applies the auto-precharges of `rank` that took effect up to `cycle`.
  void apply_closes(Rank& rank, uint64_t cycle);

  DdrTimingParams t_;
  uint32_t groups_per_rank_;
  uint32_t banks_per_group_;
  uint32_t burst_cycles_;
  uint32_t refpb_banks_;
  uint32_t refpb_stride_;
  std::vector<Bank> banks_;
  std::vector<Group> groups_;
  std::vector<Rank> ranks_;
  uint64_t bus_free_ = 0;
  uint32_t bus_rank_ = 0;
  std::vector<uint64_t> rank_bus_cycles_;
  std::vector<uint64_t> group_bus_cycles_;
};

}  // namespace socsim
