// The DDR timing core: pure C++, no SystemC, so it is fast and unit-testable.
//
// An open-page memory controller in front of a JEDEC-style device. Each request is split
// into bursts; each burst is served in call order at the earliest memory-clock cycle that
// satisfies every constraint with the commands already scheduled: the bank's state (open
// row, tRCD, tRAS, tRC, tRP, tRTP, tWR), its bank group (tCCD_L, tRRD_L, tWTR_L), its
// channel (tCCD_S, tRRD_S, tFAW, tWTR_S, data-bus occupancy) and all-bank refresh (tRFC
// every tREFI, after closing all rows). Because activates and precharges depend only on
// their bank and on earlier activates, a request may open its row while earlier requests to
// other banks still transfer data, as a controller with a request queue does; column
// commands and data transfers keep call order. A request that arrives earlier than a
// previously served one (an initiator running ahead in time) simply waits for the resources
// it needs: results stay deterministic for a given call order. See docs/ddr.md.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "models/ddr/ddr_address.h"
#include "models/ddr/ddr_config.h"
#include "models/ddr/ddr_stats.h"

namespace socsim {

/// The answer to one request.
struct DdrResult {
  uint64_t done_ps = 0;  ///< time the last data beat has been transferred
  uint32_t bursts = 0;   ///< bursts the request was split into
  uint32_t row_hits = 0;
  uint32_t row_misses = 0;
  uint32_t row_conflicts = 0;
  bool refresh_stall = false;  ///< some burst waited for a refresh
};

class DdrTiming {
 public:
  /// `config` must be valid (validate_ddr_config()).
  explicit DdrTiming(const DdrConfig& config);

  /// Serves one request of `bytes` bytes at `addr` (offset inside the device), arriving at
  /// `arrival_ps`, from initiator `initiator` (an index into the statistics). `addr +
  /// bytes` must not exceed the capacity.
  DdrResult access(uint64_t arrival_ps, bool is_write, uint64_t addr, uint32_t bytes,
                   int initiator = 0);

  const DdrConfig& config() const { return config_; }
  DdrStats& stats() { return stats_; }
  const DdrStats& stats() const { return stats_; }

  /// Memory clock cycle <-> picoseconds (cycles are aligned to time 0).
  uint64_t cycle_to_ps(uint64_t cycle) const;
  uint64_t ps_to_cycle_ceil(uint64_t ps) const;

 private:
  struct Bank {
    static constexpr uint32_t kClosed = UINT32_MAX;
    uint32_t open_row = kClosed;
    uint64_t act_ready = 0;  // earliest ACT: last PRE + tRP, last ACT + tRC
    uint64_t col_ready = 0;  // earliest RD/WR: ACT + tRCD
    uint64_t pre_ready = 0;  // earliest PRE: ACT + tRAS, RD + tRTP, write data + tWR
  };
  struct BankGroup {
    uint64_t col_ready = 0;   // tCCD_L
    uint64_t act_ready = 0;   // tRRD_L
    uint64_t read_ready = 0;  // tWTR_L
  };
  struct Channel {
    std::vector<Bank> banks;
    std::vector<BankGroup> groups;
    uint64_t col_ready = 0;         // tCCD_S
    uint64_t act_ready = 0;         // tRRD_S
    uint64_t read_ready = 0;        // tWTR_S
    uint64_t bus_free = 0;          // data bus occupied until
    std::array<uint64_t, 4> faw{};  // last four ACT + tFAW; the oldest bounds the next ACT
    size_t faw_next = 0;
    uint64_t refresh_due = 0;
    uint64_t refresh_end = 0;  // no command before this
  };
  enum class RowOutcome { kHit, kMiss, kConflict };

  struct BurstResult {
    uint64_t done_cycle;
    RowOutcome outcome;
    bool refresh_stall;
  };

  BurstResult serve_burst(uint64_t arrival_cycle, bool is_write, uint64_t addr);
  void refresh(Channel& channel, uint64_t until_cycle);
  DdrResult access_ideal(uint64_t arrival_ps, bool is_write, uint32_t bytes, int initiator);

  DdrConfig config_;
  DdrTimingParams t_;
  DdrAddressDecoder decoder_;
  DdrStats stats_;
  uint64_t tck_fs_;
  uint32_t burst_bytes_;
  uint32_t burst_cycles_;
  uint64_t ideal_latency_ps_;
  std::vector<Channel> channels_;
};

}  // namespace socsim
