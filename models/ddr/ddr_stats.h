// Statistics of a DDR model: per initiator (requests as issued) and per bank (the bursts a
// request is split into), printable as a text table and as JSON.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "models/ddr/ddr_config.h"

namespace socsim {

/// Latency distribution in picoseconds: exact count, mean, minimum and maximum; quantiles
/// from a log-linear histogram whose buckets are exact below 512 ps and at most 1/256 of
/// their value wide above, clamped to the observed minimum and maximum (so a constant
/// latency is reported exactly).
class LatencyHistogram {
 public:
  void add(uint64_t value_ps);
  uint64_t count() const { return count_; }
  double mean_ps() const { return count_ ? static_cast<double>(sum_) / count_ : 0.0; }
  uint64_t min_ps() const { return count_ ? min_ : 0; }
  uint64_t max_ps() const { return max_; }
  /// The smallest bucket value v with at least q * count samples <= v (q in [0, 1]).
  uint64_t quantile_ps(double q) const;

 private:
  static constexpr uint32_t kExactBits = 9;  // values below 2^9 have a bucket each
  static size_t bucket_of(uint64_t value);
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
  uint64_t first_arrival_ps = UINT64_MAX;
  uint64_t last_done_ps = 0;
  LatencyHistogram latency;  ///< arrival to last data, per request (burst)

  uint64_t requests() const { return reads + writes; }
  uint64_t bytes() const { return bytes_read + bytes_written; }
  /// Bytes moved divided by the time from the first arrival to the last completion.
  double bandwidth_bytes_per_s() const;
  void record(bool is_write, uint32_t bytes, uint64_t arrival_ps, uint64_t done_ps);
  nlohmann::json to_json() const;
};

/// All statistics of one DDR model.
class DdrStats {
 public:
  explicit DdrStats(const DdrConfig& config);

  /// Counters of initiator `id` (created on first use, named "initiator<id>", except 0,
  /// which is "cpu", until set_initiator_name()).
  DdrCounters& initiator(int id);
  void set_initiator_name(int id, const std::string& name);
  DdrCounters& bank(size_t flat_index) { return banks_[flat_index]; }
  DdrCounters& total() { return total_; }
  void add_refreshes(uint64_t count) { refreshes_ += count; }

  const std::vector<DdrCounters>& initiators() const { return initiators_; }
  const std::vector<std::string>& initiator_names() const { return names_; }
  const std::vector<DdrCounters>& banks() const { return banks_; }
  const DdrCounters& total() const { return total_; }
  uint64_t refreshes() const { return refreshes_; }

  /// Human-readable tables (totals, initiators, banks that saw traffic).
  /// The initiator table, and the per-bank table when `banks`.
  void print(std::ostream& out, bool banks = true) const;
  nlohmann::json to_json() const;

 private:
  std::string bank_label(size_t flat_index) const;

  std::string device_;
  double peak_bytes_per_s_;
  uint32_t bank_groups_;
  uint32_t banks_per_group_;
  bool ideal_;
  std::vector<std::string> names_;
  std::vector<DdrCounters> initiators_;
  std::vector<DdrCounters> banks_;
  DdrCounters total_;
  uint64_t refreshes_ = 0;
};

}  // namespace socsim
