// Statistics of a DDR model: per initiator (requests as issued) and per bank (the bursts a
// request is split into); per channel, what its controller did (queue occupancy, bypasses,
// write drains, forwarding, refreshes); data-bus utilisation per rank and bank group; and
// the energy of the run. Printable as text tables and as JSON.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "models/ddr/ddr_config.h"
#include "models/ddr/ddr_energy.h"

namespace socsim {

/// Latency distribution in picoseconds: exact count, mean, minimum and maximum; quantiles
/// from a log-linear histogram whose buckets are exact below 512 ps and at most 1/256 of
/// their value wide above, clamped to the observed minimum and maximum (so a constant
/// latency is reported exactly).
class LatencyHistogram {
 public:
  void add(uint64_t value_ps) {
    const size_t bucket = bucket_of(value_ps);
    if (bucket >= buckets_.size()) grow(bucket);
    ++buckets_[bucket];
    ++count_;
    sum_ += value_ps;
    min_ = value_ps < min_ ? value_ps : min_;
    max_ = value_ps > max_ ? value_ps : max_;
  }
  uint64_t count() const { return count_; }
  double mean_ps() const { return count_ ? static_cast<double>(sum_) / count_ : 0.0; }
  uint64_t min_ps() const { return count_ ? min_ : 0; }
  uint64_t max_ps() const { return max_; }
  /// The smallest bucket value v with at least q * count samples <= v (q in [0, 1]).
  uint64_t quantile_ps(double q) const;
  void merge(const LatencyHistogram& other);

 private:
  static constexpr uint32_t kExactBits = 9;  // values below 2^9 have a bucket each
  // Values below 2^kExactBits get one bucket each; above, each power of two [2^e, 2^(e+1))
  // is split into 2^(kExactBits-1) equal buckets.
  static size_t bucket_of(uint64_t value) {
    constexpr uint64_t kExact = uint64_t{1} << kExactBits;
    if (value < kExact) return static_cast<size_t>(value);
    const uint32_t msb = 63 - static_cast<uint32_t>(__builtin_clzll(value));
    const uint32_t shift = msb - (kExactBits - 1);
    const uint64_t sub = (value >> shift) - (kExact / 2);
    return static_cast<size_t>(kExact + (msb - kExactBits) * (kExact / 2) + sub);
  }
  void grow(size_t bucket);
  static uint64_t bucket_top(size_t bucket);

  std::vector<uint64_t> buckets_;
  uint64_t count_ = 0;
  uint64_t sum_ = 0;
  uint64_t min_ = UINT64_MAX;
  uint64_t max_ = 0;
};

/// Counters of one initiator or one bank.
struct DdrCounters {
  uint64_t reads = 0;   ///< read requests (bursts, for a bank)
  uint64_t writes = 0;  ///< write requests (bursts, for a bank)
  uint64_t bytes_read = 0;
  uint64_t bytes_written = 0;
  uint64_t row_hits = 0;        ///< bursts that found their row open
  uint64_t row_misses = 0;      ///< bursts that found the bank precharged (activate only)
  uint64_t row_conflicts = 0;   ///< bursts that found another row open (precharge, activate)
  uint64_t refresh_stalls = 0;  ///< requests (bursts) delayed by a refresh
  uint64_t forwarded = 0;       ///< read bursts answered from the write queue
  uint64_t coalesced = 0;       ///< write bursts merged into a queued write of their line
  uint64_t first_arrival_ps = UINT64_MAX;
  uint64_t last_done_ps = 0;
  LatencyHistogram latency;  ///< acceptance to last data, per request (burst)

  uint64_t requests() const { return reads + writes; }
  uint64_t bytes() const { return bytes_read + bytes_written; }
  /// Adds another's counts (and latency distribution) to these.
  void merge(const DdrCounters& other);
  /// Bytes moved divided by the time from the first arrival to the last completion.
  double bandwidth_bytes_per_s() const;
  void record(bool is_write, uint32_t bytes, uint64_t arrival_ps, uint64_t done_ps) {
    if (is_write) {
      ++writes;
      bytes_written += bytes;
    } else {
      ++reads;
      bytes_read += bytes;
    }
    first_arrival_ps = arrival_ps < first_arrival_ps ? arrival_ps : first_arrival_ps;
    last_done_ps = done_ps > last_done_ps ? done_ps : last_done_ps;
    latency.add(done_ps - arrival_ps);
  }
};

/// What the controller of one channel did.
struct DdrControllerStats {
  uint64_t observed_cycles = 0;        ///< cycles the occupancy sums cover
  uint64_t read_queue_occupancy = 0;   ///< sum over cycles of queued reads
  uint64_t write_queue_occupancy = 0;  ///< sum over cycles of queued writes
  uint32_t max_read_queue = 0;
  uint32_t max_write_queue = 0;
  uint64_t queue_full_waits = 0;   ///< bursts that waited for a free queue entry
  uint64_t bypasses = 0;           ///< times a waiting burst was overtaken in its bank
  uint64_t bypassed_requests = 0;  ///< bursts overtaken at least once
  uint32_t max_bypass = 0;         ///< most times one burst was overtaken
  uint64_t write_drains = 0;       ///< write-drain episodes
  uint64_t watermark_drains = 0;   ///< of which started by the high watermark
  uint64_t drained_writes = 0;     ///< writes issued in drains
  uint64_t forwarded_reads = 0;
  uint64_t coalesced_writes = 0;
  uint64_t refreshes = 0;       ///< REFab
  uint64_t bank_refreshes = 0;  ///< REFpb
  uint64_t postponed_refreshes = 0;

  double mean_read_queue() const {
    return observed_cycles ? static_cast<double>(read_queue_occupancy) / observed_cycles : 0.0;
  }
  double mean_write_queue() const {
    return observed_cycles ? static_cast<double>(write_queue_occupancy) / observed_cycles : 0.0;
  }
};

/// All statistics of one DDR model.
class DdrStats {
 public:
  explicit DdrStats(const DdrConfig& config);

  /// Counters of initiator `id` (created on first use, named "initiator<id>", except 0,
  /// which is "cpu", until set_initiator_name()).
  DdrCounters& initiator(int id) {
    const size_t index = id > 0 ? static_cast<size_t>(id) : 0;
    return index < initiators_.size() ? initiators_[index] : add_initiator(index);
  }
  void set_initiator_name(int id, const std::string& name);
  DdrCounters& bank(size_t flat_index) { return banks_[flat_index]; }
  DdrControllerStats& controller(size_t channel) { return controllers_[channel]; }

  /// Figures known at the end of a run (DdrTiming::finish): data-bus cycles per rank and
  /// bank group (flat over channels), the cycles they are measured against, the energy.
  void set_utilisation(std::vector<uint64_t> rank_bus_cycles,
                       std::vector<uint64_t> group_bus_cycles, uint64_t span_cycles);
  void set_energy(const DdrEnergy& energy, std::vector<DdrEnergy> per_rank);

  const std::vector<DdrCounters>& initiators() const { return initiators_; }
  const std::vector<std::string>& initiator_names() const { return names_; }
  const std::vector<DdrCounters>& banks() const { return banks_; }
  /// All initiators together (merged when asked for).
  const DdrCounters& total() const;
  const std::vector<DdrControllerStats>& controllers() const { return controllers_; }
  /// REFab and REFpb commands of all channels.
  uint64_t refreshes() const;
  bool has_energy() const { return has_energy_; }
  /// Memory clock cycles the utilisation and energy cover (from time 0).
  uint64_t span_cycles() const { return span_cycles_; }
  const DdrEnergy& energy() const { return energy_; }
  /// Fraction of the span each rank's (bank group's) bursts held their channel's data bus.
  double rank_utilisation(size_t flat_rank) const;
  double group_utilisation(size_t flat_group) const;

  /// What the device is, for the reports.
  const std::string& device() const { return device_; }
  const std::string& scheduler() const { return scheduler_; }
  bool ideal() const { return ideal_; }
  double peak_bytes_per_s() const { return peak_bytes_per_s_; }
  double tck_ps() const { return tck_ps_; }
  uint32_t ranks() const { return ranks_; }
  uint32_t bank_groups() const { return bank_groups_; }
  uint32_t banks_per_group() const { return banks_per_group_; }
  /// Ranks with a data-bus figure (all of them once the run has finished).
  size_t measured_ranks() const { return rank_bus_cycles_.size(); }
  /// The energy of each rank (flat over channels; empty without IDD currents).
  const std::vector<DdrEnergy>& rank_energy() const { return rank_energy_; }
  /// "ch0.r1.bg2.b3" (rank and bank group only when the device has several).
  std::string bank_label(size_t flat_index) const;

  // The text tables and the JSON of these figures: platform/report/ddr_report.h.

 private:
  DdrCounters& add_initiator(size_t index);

  std::string device_;
  std::string scheduler_;
  double peak_bytes_per_s_;
  double tck_ps_;
  uint32_t ranks_;
  uint32_t bank_groups_;
  uint32_t banks_per_group_;
  bool ideal_;
  std::vector<std::string> names_;
  std::vector<DdrCounters> initiators_;
  std::vector<DdrCounters> banks_;
  mutable DdrCounters total_;
  mutable uint64_t total_requests_ = UINT64_MAX;  // requests total_ was merged from
  std::vector<DdrControllerStats> controllers_;
  std::vector<uint64_t> rank_bus_cycles_;
  std::vector<uint64_t> group_bus_cycles_;
  uint64_t span_cycles_ = 0;
  bool has_energy_ = false;
  DdrEnergy energy_;
  std::vector<DdrEnergy> rank_energy_;
};

}  // namespace socsim
