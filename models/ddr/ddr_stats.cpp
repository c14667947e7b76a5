#include "models/ddr/ddr_stats.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace socsim {

// ---- LatencyHistogram ------------------------------------------------------------------

void LatencyHistogram::grow(size_t bucket) {
  // Room for some longer latencies at once (empty buckets change no figure).
  buckets_.resize(std::max(bucket + 1, bucket + bucket / 2), 0);
}

void LatencyHistogram::merge(const LatencyHistogram& other) {
  if (other.count_ == 0) return;
  if (other.buckets_.size() > buckets_.size()) buckets_.resize(other.buckets_.size(), 0);
  for (size_t i = 0; i < other.buckets_.size(); ++i) buckets_[i] += other.buckets_[i];
  count_ += other.count_;
  sum_ += other.sum_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
}

uint64_t LatencyHistogram::bucket_top(size_t bucket) {
  constexpr uint64_t kExact = uint64_t{1} << kExactBits;
  if (bucket < kExact) return bucket;
  const uint64_t above = bucket - kExact;
  const uint32_t msb = static_cast<uint32_t>(above / (kExact / 2)) + kExactBits;
  const uint64_t sub = above % (kExact / 2) + kExact / 2;
  const uint32_t shift = msb - (kExactBits - 1);
  return ((sub + 1) << shift) - 1;
}

uint64_t LatencyHistogram::quantile_ps(double q) const {
  if (count_ == 0) return 0;
  const double wanted = std::max(1.0, std::ceil(q * static_cast<double>(count_)));
  uint64_t seen = 0;
  for (size_t bucket = 0; bucket < buckets_.size(); ++bucket) {
    seen += buckets_[bucket];
    if (static_cast<double>(seen) >= wanted) {
      return std::clamp(bucket_top(bucket), min_, max_);
    }
  }
  return max_;
}

// ---- DdrCounters -----------------------------------------------------------------------

double DdrCounters::bandwidth_bytes_per_s() const {
  if (requests() == 0 || last_done_ps <= first_arrival_ps) return 0.0;
  return static_cast<double>(bytes()) / ((last_done_ps - first_arrival_ps) * 1e-12);
}

void DdrCounters::merge(const DdrCounters& o) {
  reads += o.reads;
  writes += o.writes;
  bytes_read += o.bytes_read;
  bytes_written += o.bytes_written;
  row_hits += o.row_hits;
  row_misses += o.row_misses;
  row_conflicts += o.row_conflicts;
  refresh_stalls += o.refresh_stalls;
  forwarded += o.forwarded;
  coalesced += o.coalesced;
  first_arrival_ps = std::min(first_arrival_ps, o.first_arrival_ps);
  last_done_ps = std::max(last_done_ps, o.last_done_ps);
  latency.merge(o.latency);
}

// ---- DdrStats --------------------------------------------------------------------------

DdrStats::DdrStats(const DdrConfig& config)
    : device_(config.name),
      scheduler_(to_string(config.controller.scheduler)),
      peak_bytes_per_s_(config.peak_bytes_per_s()),
      tck_ps_(config.tck_ps),
      ranks_(config.model == DdrModelKind::kIdeal ? 1 : config.geometry.ranks),
      bank_groups_(config.model == DdrModelKind::kIdeal ? 1 : config.geometry.bank_groups),
      banks_per_group_(config.model == DdrModelKind::kIdeal ? 1 : config.geometry.banks_per_group),
      ideal_(config.model == DdrModelKind::kIdeal) {
  const size_t banks =
      ideal_ ? 1 : size_t{config.geometry.channels} * config.geometry.banks_per_channel();
  banks_.resize(banks);
  controllers_.resize(ideal_ ? 0 : config.geometry.channels);
}

const DdrCounters& DdrStats::total() const {
  uint64_t requests = 0;
  for (const DdrCounters& c : initiators_) requests += c.requests();
  if (requests != total_requests_) {
    total_ = DdrCounters{};
    for (const DdrCounters& c : initiators_) total_.merge(c);
    total_requests_ = requests;
  }
  return total_;
}

uint64_t DdrStats::refreshes() const {
  uint64_t n = 0;
  for (const DdrControllerStats& c : controllers_) n += c.refreshes + c.bank_refreshes;
  return n;
}

void DdrStats::set_utilisation(std::vector<uint64_t> rank_bus_cycles,
                               std::vector<uint64_t> group_bus_cycles, uint64_t span_cycles) {
  rank_bus_cycles_ = std::move(rank_bus_cycles);
  group_bus_cycles_ = std::move(group_bus_cycles);
  span_cycles_ = span_cycles;
}

void DdrStats::set_energy(const DdrEnergy& energy, std::vector<DdrEnergy> per_rank) {
  has_energy_ = true;
  energy_ = energy;
  rank_energy_ = std::move(per_rank);
}

double DdrStats::rank_utilisation(size_t flat_rank) const {
  if (span_cycles_ == 0 || flat_rank >= rank_bus_cycles_.size()) return 0.0;
  return static_cast<double>(rank_bus_cycles_[flat_rank]) / span_cycles_;
}

double DdrStats::group_utilisation(size_t flat_group) const {
  if (span_cycles_ == 0 || flat_group >= group_bus_cycles_.size()) return 0.0;
  return static_cast<double>(group_bus_cycles_[flat_group]) / span_cycles_;
}

DdrCounters& DdrStats::add_initiator(size_t index) {
  for (size_t i = initiators_.size(); i <= index; ++i) {
    names_.push_back(i == 0 ? "cpu" : "initiator" + std::to_string(i));
  }
  initiators_.resize(index + 1);
  return initiators_[index];
}

void DdrStats::set_initiator_name(int id, const std::string& name) {
  initiator(id);
  names_[static_cast<size_t>(std::max(id, 0))] = name;
}

std::string DdrStats::bank_label(size_t flat_index) const {
  const size_t per_rank = size_t{bank_groups_} * banks_per_group_;
  const size_t per_channel = per_rank * ranks_;
  std::ostringstream out;
  out << "ch" << flat_index / per_channel;
  if (ranks_ > 1) out << ".r" << flat_index % per_channel / per_rank;
  if (bank_groups_ > 1) out << ".bg" << flat_index % per_rank / banks_per_group_;
  out << ".b" << flat_index % banks_per_group_;
  return out.str();
}

}  // namespace socsim
