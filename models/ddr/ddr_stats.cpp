#include "models/ddr/ddr_stats.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace socsim {

// ---- LatencyHistogram ------------------------------------------------------------------
// Values below 2^kExactBits get one bucket each; above, each power of two [2^e, 2^(e+1)) is
// split into 2^(kExactBits-1) equal buckets.

size_t LatencyHistogram::bucket_of(uint64_t value) {
  constexpr uint64_t kExact = uint64_t{1} << kExactBits;
  if (value < kExact) return static_cast<size_t>(value);
  const uint32_t msb = 63 - static_cast<uint32_t>(__builtin_clzll(value));
  const uint32_t shift = msb - (kExactBits - 1);
  const uint64_t sub = (value >> shift) - (kExact / 2);
  return static_cast<size_t>(kExact + (msb - kExactBits) * (kExact / 2) + sub);
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

void LatencyHistogram::add(uint64_t value_ps) {
  const size_t bucket = bucket_of(value_ps);
  if (bucket >= buckets_.size()) buckets_.resize(bucket + 1, 0);
  ++buckets_[bucket];
  ++count_;
  sum_ += value_ps;
  min_ = std::min(min_, value_ps);
  max_ = std::max(max_, value_ps);
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

void DdrCounters::record(bool is_write, uint32_t bytes, uint64_t arrival_ps, uint64_t done_ps) {
  if (is_write) {
    ++writes;
    bytes_written += bytes;
  } else {
    ++reads;
    bytes_read += bytes;
  }
  first_arrival_ps = std::min(first_arrival_ps, arrival_ps);
  last_done_ps = std::max(last_done_ps, done_ps);
  latency.add(done_ps - arrival_ps);
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

// ---- DdrStats --------------------------------------------------------------------------

DdrStats::DdrStats(const DdrConfig& config)
    : device_(config.name),
      peak_bytes_per_s_(config.peak_bytes_per_s()),
      bank_groups_(config.model == DdrModelKind::kIdeal ? 1 : config.geometry.bank_groups),
      banks_per_group_(config.model == DdrModelKind::kIdeal ? 1 : config.geometry.banks_per_group),
      ideal_(config.model == DdrModelKind::kIdeal) {
  const size_t banks =
      ideal_ ? 1 : size_t{config.geometry.channels} * config.geometry.banks_per_channel();
  banks_.resize(banks);
}

DdrCounters& DdrStats::initiator(int id) {
  const size_t index = static_cast<size_t>(std::max(id, 0));
  if (index >= initiators_.size()) {
    for (size_t i = initiators_.size(); i <= index; ++i) {
      names_.push_back(i == 0 ? "cpu" : "initiator" + std::to_string(i));
    }
    initiators_.resize(index + 1);
  }
  return initiators_[index];
}

void DdrStats::set_initiator_name(int id, const std::string& name) {
  initiator(id);
  names_[static_cast<size_t>(std::max(id, 0))] = name;
}

std::string DdrStats::bank_label(size_t flat_index) const {
  const size_t per_channel = size_t{bank_groups_} * banks_per_group_;
  std::ostringstream out;
  out << "ch" << flat_index / per_channel;
  if (bank_groups_ > 1) out << ".bg" << flat_index % per_channel / banks_per_group_;
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
        << " GB/s, achieved " << total_.bandwidth_bytes_per_s() / 1e9 << " GB/s ("
        << std::setprecision(1)
        << (peak_bytes_per_s_ > 0 ? 100.0 * total_.bandwidth_bytes_per_s() / peak_bytes_per_s_
                                  : 0.0)
        << " %), " << refreshes_ << " refreshes";
    out.unsetf(std::ios::floatfield);
  }
  out << "\nlatency in ns; hits/misses/conflicts count bursts; refresh counts stalled "
         "requests\n";
  print_header(out, "initiator");
  for (size_t i = 0; i < initiators_.size(); ++i) {
    if (initiators_[i].requests() > 0) print_row(out, names_[i], initiators_[i]);
  }
  print_row(out, "total", total_);
  if (ideal_ || !banks) return;
  out << "\n";
  print_header(out, "bank");
  for (size_t i = 0; i < banks_.size(); ++i) {
    if (banks_[i].requests() > 0) print_row(out, bank_label(i), banks_[i]);
  }
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
  const size_t per_channel = size_t{bank_groups_} * banks_per_group_;
  for (size_t i = 0; i < banks_.size() && !ideal_; ++i) {
    if (banks_[i].requests() == 0) continue;
    nlohmann::json entry = banks_[i].to_json();
    entry["channel"] = i / per_channel;
    entry["bank_group"] = i % per_channel / banks_per_group_;
    entry["bank"] = i % banks_per_group_;
    banks.push_back(entry);
  }
  return {
      {"device", device_},
      {"model", ideal_ ? "ideal" : "jedec"},
      {"peak_gbps", peak_bytes_per_s_ / 1e9},
      {"refreshes", refreshes_},
      {"total", total_.to_json()},
      {"initiators", initiators},
      {"banks", banks},
  };
}

}  // namespace socsim
