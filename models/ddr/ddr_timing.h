// The DDR timing core: pure C++, no SystemC, so it is fast and unit-testable.
//
// Splits each request into bursts, hands them to the memory controller of their channel
// (controller/ddr_channel_controller.h: read and write queues, a scheduling policy, write
// drains, page policy, refresh, in front of the JEDEC device timing) and gathers the
// statistics and the energy of the run. Two ways in:
//
//  - access(): a blocking request, as a TLM b_transport needs it. A read returns when its
//    last data beat has been transferred; a write is posted: it returns when the write
//    queue has accepted it, and is written to the device later (in a drain). A request
//    that arrives while the controller is already busy later than its arrival (another
//    initiator ran ahead) is scheduled from then on; results are deterministic for a given
//    call order.
//  - submit() / finish(): a trace replay. submit() returns when the queues have accepted
//    the request (a full queue holds the caller back, as a front end would be), so many
//    requests wait in the queues and the scheduler can reorder them; finish() serves what
//    is left.
//
// Times are picoseconds outside and memory clock cycles (tCK, aligned to time 0) inside.
// See docs/ddr.md.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/ddr/controller/ddr_channel_controller.h"
#include "models/ddr/ddr_address.h"
#include "models/ddr/ddr_config.h"
#include "models/ddr/ddr_energy.h"
#include "models/ddr/ddr_stats.h"

namespace socsim {

/// The answer to a blocking request. How a posted write's bursts were served is known only
/// later (in the statistics): for writes the outcome counts are zero.
struct DdrResult {
  uint64_t done_ps = 0;  ///< read: last data beat; write: accepted by the write queue
  uint32_t bursts = 0;   ///< bursts the request was split into
  uint32_t row_hits = 0;
  uint32_t row_misses = 0;
  uint32_t row_conflicts = 0;
  uint32_t forwarded = 0;      ///< read bursts answered from the write queue
  bool refresh_stall = false;  ///< a refresh held a burst back
};

class DdrTiming : private DdrBurstSink {
 public:
  /// `config` must be valid (validate_ddr_config()).
  explicit DdrTiming(const DdrConfig& config);
  ~DdrTiming() override;
  DdrTiming(const DdrTiming&) = delete;
  DdrTiming& operator=(const DdrTiming&) = delete;

  /// Serves one request of `bytes` bytes at `addr` (offset inside the device), arriving at
  /// `arrival_ps`, from initiator `initiator` (an index into the statistics), blocking.
  /// `addr + bytes` must not exceed the capacity.
  DdrResult access(uint64_t arrival_ps, bool is_write, uint64_t addr, uint32_t bytes,
                   int initiator = 0);
  /// Queues one request; returns when its last burst was accepted (>= arrival_ps).
  uint64_t submit(uint64_t arrival_ps, bool is_write, uint64_t addr, uint32_t bytes,
                  int initiator = 0);
  /// Serves every queued request and completes the statistics: utilisation, energy,
  /// refreshes up to the last activity. May be called again after more requests.
  void finish();

  const DdrConfig& config() const { return config_; }
  DdrStats& stats() { return stats_; }
  const DdrStats& stats() const { return stats_; }
  /// Energy rates of the initiator named `initiator` after finish(); nullopt when the
  /// preset has no currents or the initiator moved no data.
  std::optional<DdrEnergyRates> energy_rates(const std::string& initiator) const;
  const DdrAddressDecoder& decoder() const { return decoder_; }

  /// Memory clock cycle <-> picoseconds (cycles are aligned to time 0). cycle_to_ps rounds
  /// down and ps_to_cycle_ceil up, so ps_to_cycle_ceil(cycle_to_ps(c)) == c.
  uint64_t cycle_to_ps(uint64_t cycle) const {
    // No overflow below 2^40 cycles (tCK < 16 ns).
    if (cycle >= (uint64_t{1} << 40)) return cycle_to_ps_wide(cycle);
    return tck_ps_whole_ != 0 ? cycle * tck_ps_whole_ : cycle * tck_fs_ / 1000;
  }
  uint64_t ps_to_cycle_ceil(uint64_t ps) const {
    if (ps < (uint64_t{1} << 40)) return (ps * 1000 + tck_fs_ - 1) / tck_fs_;
    return ps_to_cycle_ceil_wide(ps);
  }

 private:
  struct Request {
    uint64_t accept_cycle = 0;  // of its first burst
    uint64_t last_accept = 0;   // of its last burst
    uint64_t done_cycle = 0;
    uint32_t bytes = 0;
    uint32_t remaining = 0;  // bursts not yet done
    uint32_t bursts = 0;
    int initiator = 0;
    bool is_write = false;
    bool blocking = false;  // access() reads the result before it is freed
    bool refresh_stall = false;
    uint32_t hits = 0, misses = 0, conflicts = 0, forwarded = 0, coalesced = 0;
    uint16_t pending[kMaxDdrChannels] = {};  // bursts not yet done per channel
    int32_t next_free = -1;
  };

  uint64_t cycle_to_ps_wide(uint64_t cycle) const;
  uint64_t ps_to_cycle_ceil_wide(uint64_t ps) const;
  /// `serve_now`: the caller serves the request's bursts right after (a blocking read), so a
  /// burst alone in its channel may be served at once (DdrDirectPath::serve_alone).
  int32_t start(uint64_t arrival_ps, bool is_write, uint64_t addr, uint32_t bytes, int initiator,
                bool blocking, bool serve_now);
  enum class Alone { kServed, kDeclined, kNotTried };
  /// A blocking read of one burst, or of two in one row of one bank or in two banks of one
  /// channel, whose bursts are served at once by their idle channel (row hits:
  /// DdrDirectPath::serve_alone, serve_first_of_two; misses and conflicts:
  /// serve_reads_alone) with the same bookkeeping as start() + burst_done() but without a
  /// request-table entry (the common streaming case). kDeclined: the channel declined,
  /// nothing changed but the channel's time (start() would queue every burst); kNotTried:
  /// nothing was tried.
  Alone read_alone(uint64_t arrival_ps, uint64_t addr, uint32_t bytes, int initiator,
                   DdrResult& result);
  /// A fresh request-table entry for a request of `bytes` (reused from the free list).
  int32_t new_request(bool is_write, uint32_t bytes, int initiator, bool blocking);
  /// Waits for a blocking request's reads and answers it.
  DdrResult complete_blocking(int32_t id, uint64_t arrival_ps, bool is_write);
  [[gnu::always_inline]] static inline DdrResult result_of(const Request& r, uint64_t arrival_ps,
                                                           uint64_t done_cycle_ps);
  void release(int32_t id);
  [[gnu::always_inline]] inline void record(const Request& r);
  /// The burst's part of a request's books: completion, outcome, bank statistics.
  /// Inlined into its callers here (both on the path of every burst).
  [[gnu::always_inline]] inline void account(Request& r, const DdrBurstDone& done);
  void burst_done(const DdrBurstDone& done) override;
  DdrResult access_ideal(uint64_t arrival_ps, bool is_write, uint32_t bytes, int initiator);

  DdrConfig config_;
  DdrAddressDecoder decoder_;
  DdrStats stats_;
  DdrEnergyModel energy_;
  uint64_t tck_fs_;
  uint64_t tck_ps_whole_;  // tCK in picoseconds if a whole number (then cycle_to_ps multiplies)
  uint32_t burst_bytes_;
  size_t banks_per_channel_;  // the flat bank index of a burst is channel x this + bank
  uint64_t ideal_latency_ps_;
  std::vector<std::unique_ptr<DdrChannelController>> channels_;
  std::vector<Request> requests_;
  int32_t free_request_ = -1;
};

}  // namespace socsim
