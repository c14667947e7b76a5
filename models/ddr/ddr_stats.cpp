#include "models/ddr/ddr_stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <ostream>
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

nlohmann::json DdrCounters::to_json() const {
  auto ns = [](double ps) { return ps / 1000.0; };
  return {
      {"reads", reads},
      {"writes", writes},
      {"bytes_read", bytes_read},
      {"bytes_written", bytes_written},
      {"row_hits", row_hits},
      {"row_misses", row_misses},
      {"row_conflicts", row_conflicts},
      {"refresh_stalls", refresh_stalls},
      {"forwarded", forwarded},
      {"coalesced", coalesced},
      {"bandwidth_gbps", bandwidth_bytes_per_s() / 1e9},
      {"first_arrival_ps", requests() ? first_arrival_ps : 0},
      {"last_done_ps", last_done_ps},
      {"latency_ns",
       {{"mean", ns(latency.mean_ps())},
        {"p50", ns(static_cast<double>(latency.quantile_ps(0.50)))},
        {"p99", ns(static_cast<double>(latency.quantile_ps(0.99)))},
        {"max", ns(static_cast<double>(latency.max_ps()))}}},
  };
}

// ---- DdrControllerStats ----------------------------------------------------------------

nlohmann::json DdrControllerStats::to_json() const {
  return {
      {"read_queue", {{"mean", mean_read_queue()}, {"max", max_read_queue}}},
      {"write_queue", {{"mean", mean_write_queue()}, {"max", max_write_queue}}},
      {"queue_full_waits", queue_full_waits},
      {"bypasses", bypasses},
      {"bypassed_requests", bypassed_requests},
      {"max_bypass", max_bypass},
      {"write_drains", write_drains},
      {"watermark_drains", watermark_drains},
      {"drained_writes", drained_writes},
      {"forwarded_reads", forwarded_reads},
      {"coalesced_writes", coalesced_writes},
      {"refreshes", refreshes},
      {"bank_refreshes", bank_refreshes},
      {"postponed_refreshes", postponed_refreshes},
  };
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

namespace {

void print_header(std::ostream& out, const char* first) {
  out << std::left << std::setw(12) << first << std::right << ' ' << std::setw(9) << "reads" << ' '
      << std::setw(9) << "writes" << ' ' << std::setw(10) << "MiB rd" << ' ' << std::setw(10)
      << "MiB wr" << ' ' << std::setw(8) << "GB/s" << ' ' << std::setw(9) << "hits" << ' '
      << std::setw(8) << "misses" << ' ' << std::setw(9) << "conflicts" << ' ' << std::setw(8)
      << "refresh" << ' ' << std::setw(9) << "lat mean" << ' ' << std::setw(8) << "p50" << ' '
      << std::setw(8) << "p99" << ' ' << std::setw(8) << "max"
      << "\n";
}

void print_row(std::ostream& out, const std::string& name, const DdrCounters& c) {
  auto ns = [](double ps) { return ps / 1000.0; };
  out << std::left << std::setw(12) << name << std::right << ' ' << std::setw(9) << c.reads << ' '
      << std::setw(9) << c.writes << std::fixed << std::setprecision(2) << ' ' << std::setw(10)
      << c.bytes_read / 1048576.0 << ' ' << std::setw(10) << c.bytes_written / 1048576.0 << ' '
      << std::setw(8) << c.bandwidth_bytes_per_s() / 1e9 << ' ' << std::setw(9) << c.row_hits << ' '
      << std::setw(8) << c.row_misses << ' ' << std::setw(9) << c.row_conflicts << ' '
      << std::setw(8) << c.refresh_stalls << std::setprecision(1) << ' ' << std::setw(9)
      << ns(c.latency.mean_ps()) << ' ' << std::setw(8)
      << ns(static_cast<double>(c.latency.quantile_ps(0.50))) << ' ' << std::setw(8)
      << ns(static_cast<double>(c.latency.quantile_ps(0.99))) << ' ' << std::setw(8)
      << ns(static_cast<double>(c.latency.max_ps())) << "\n";
  out.unsetf(std::ios::floatfield);
}

}  // namespace

void DdrStats::print(std::ostream& out, bool banks) const {
  out << "DDR " << device_ << ": ";
  if (ideal_) {
    out << "ideal (fixed latency, unlimited bandwidth)";
  } else {
    out << "peak " << std::fixed << std::setprecision(2) << peak_bytes_per_s_ / 1e9
        << " GB/s, achieved " << total().bandwidth_bytes_per_s() / 1e9 << " GB/s ("
        << std::setprecision(1)
        << (peak_bytes_per_s_ > 0 ? 100.0 * total().bandwidth_bytes_per_s() / peak_bytes_per_s_
                                  : 0.0)
        << " %), " << refreshes() << " refreshes, scheduler " << scheduler_;
    out.unsetf(std::ios::floatfield);
  }
  out << "\nlatency in ns from acceptance to last data (writes: data in the device); "
         "hits/misses/conflicts count bursts; refresh counts stalled requests\n";
  print_header(out, "initiator");
  for (size_t i = 0; i < initiators_.size(); ++i) {
    if (initiators_[i].requests() > 0) print_row(out, names_[i], initiators_[i]);
  }
  print_row(out, "total", total());
  if (ideal_) return;
  print_controllers(out);
  print_energy(out);
  if (!banks) return;
  out << "\n";
  print_header(out, "bank");
  for (size_t i = 0; i < banks_.size(); ++i) {
    if (banks_[i].requests() > 0) print_row(out, bank_label(i), banks_[i]);
  }
}

void DdrStats::print_controllers(std::ostream& out) const {
  char line[256];
  out << "\ncontroller    rd queue    wr queue  bypassed (max)    drains (watermark, writes)   "
         "fwd  merged  refresh (pb, postponed)\n";
  for (size_t ch = 0; ch < controllers_.size(); ++ch) {
    const DdrControllerStats& c = controllers_[ch];
    std::snprintf(
        line, sizeof line,
        "ch%-10zu %5.1f/%-4u %5.1f/%-4u %8llu (%3u) %9llu (%llu, %llu) %*s %5llu %7llu %7llu "
        "(%llu, %llu)\n",
        ch, c.mean_read_queue(), c.max_read_queue, c.mean_write_queue(), c.max_write_queue,
        static_cast<unsigned long long>(c.bypassed_requests), c.max_bypass,
        static_cast<unsigned long long>(c.write_drains),
        static_cast<unsigned long long>(c.watermark_drains),
        static_cast<unsigned long long>(c.drained_writes), 1, "",
        static_cast<unsigned long long>(c.forwarded_reads),
        static_cast<unsigned long long>(c.coalesced_writes),
        static_cast<unsigned long long>(c.refreshes + c.bank_refreshes),
        static_cast<unsigned long long>(c.bank_refreshes),
        static_cast<unsigned long long>(c.postponed_refreshes));
    out << line;
  }
  if (span_cycles_ == 0) return;
  out << "data bus busy per rank (bank groups):";
  const size_t groups_per_rank = bank_groups_;
  for (size_t r = 0; r < rank_bus_cycles_.size(); ++r) {
    std::snprintf(line, sizeof line, " %s%zu %.1f %%", ranks_ > 1 ? "r" : "ch", r,
                  100.0 * rank_utilisation(r));
    out << (r % ranks_ == 0 && ranks_ > 1 ? std::string(" ch") + std::to_string(r / ranks_) + ":"
                                          : std::string())
        << line;
    if (groups_per_rank > 1) {
      out << " (";
      for (size_t g = 0; g < groups_per_rank; ++g) {
        std::snprintf(line, sizeof line, "%s%.1f", g ? " " : "",
                      100.0 * group_utilisation(r * groups_per_rank + g));
        out << line;
      }
      out << ")";
    }
  }
  out << "\n";
}

void DdrStats::print_energy(std::ostream& out) const {
  if (!has_energy_) {
    out << "energy: the preset gives no IDD currents\n";
    return;
  }
  const double span_ns = span_cycles_ * tck_ps_ / 1000.0;
  char line[256];
  std::snprintf(line, sizeof line,
                "energy %.3f uJ (activate %.3f, read %.3f, write %.3f, refresh %.3f, background "
                "%.3f), mean power %.1f mW over %.3f us\n",
                energy_.total_pj() / 1e6, energy_.activate_pj / 1e6, energy_.read_pj / 1e6,
                energy_.write_pj / 1e6, energy_.refresh_pj / 1e6, energy_.background_pj / 1e6,
                span_ns > 0 ? energy_.total_pj() / span_ns : 0.0, span_ns / 1000.0);
  out << line;
}

nlohmann::json DdrStats::to_json() const {
  nlohmann::json initiators = nlohmann::json::array();
  for (size_t i = 0; i < initiators_.size(); ++i) {
    if (initiators_[i].requests() == 0) continue;
    nlohmann::json entry = initiators_[i].to_json();
    entry["id"] = i;
    entry["name"] = names_[i];
    initiators.push_back(entry);
  }
  nlohmann::json banks = nlohmann::json::array();
  const size_t per_rank = size_t{bank_groups_} * banks_per_group_;
  const size_t per_channel = per_rank * ranks_;
  for (size_t i = 0; i < banks_.size() && !ideal_; ++i) {
    if (banks_[i].requests() == 0) continue;
    nlohmann::json entry = banks_[i].to_json();
    entry["channel"] = i / per_channel;
    entry["rank"] = i % per_channel / per_rank;
    entry["bank_group"] = i % per_rank / banks_per_group_;
    entry["bank"] = i % banks_per_group_;
    banks.push_back(entry);
  }
  nlohmann::json controllers = nlohmann::json::array();
  for (size_t ch = 0; ch < controllers_.size(); ++ch) {
    nlohmann::json entry = controllers_[ch].to_json();
    entry["channel"] = ch;
    controllers.push_back(entry);
  }
  nlohmann::json ranks = nlohmann::json::array();
  for (size_t r = 0; r < rank_bus_cycles_.size(); ++r) {
    nlohmann::json groups = nlohmann::json::array();
    for (size_t g = 0; g < bank_groups_; ++g)
      groups.push_back(group_utilisation(r * bank_groups_ + g));
    nlohmann::json entry = {{"channel", r / ranks_},
                            {"rank", r % ranks_},
                            {"utilisation", rank_utilisation(r)},
                            {"bank_group_utilisation", groups}};
    if (r < rank_energy_.size()) entry["energy"] = rank_energy_[r].to_json();
    ranks.push_back(entry);
  }
  nlohmann::json out = {
      {"device", device_},
      {"model", ideal_ ? "ideal" : "jedec"},
      {"scheduler", ideal_ ? "none" : scheduler_},
      {"peak_gbps", peak_bytes_per_s_ / 1e9},
      {"refreshes", refreshes()},
      {"span_ns", span_cycles_ * tck_ps_ / 1000.0},
      {"total", total().to_json()},
      {"initiators", initiators},
      {"controllers", controllers},
      {"ranks", ranks},
      {"banks", banks},
  };
  out["energy"] = has_energy_ ? energy_.to_json() : nlohmann::json(nullptr);
  return out;
}

}  // namespace socsim
