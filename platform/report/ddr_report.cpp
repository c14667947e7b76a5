#include "platform/report/ddr_report.h"

#include <cstdio>
#include <iomanip>
#include <ostream>
#include <string>

namespace socsim {

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

nlohmann::json counters_json(const DdrCounters& c) {
  auto ns = [](double ps) { return ps / 1000.0; };
  return {
      {"reads", c.reads},
      {"writes", c.writes},
      {"bytes_read", c.bytes_read},
      {"bytes_written", c.bytes_written},
      {"row_hits", c.row_hits},
      {"row_misses", c.row_misses},
      {"row_conflicts", c.row_conflicts},
      {"refresh_stalls", c.refresh_stalls},
      {"forwarded", c.forwarded},
      {"coalesced", c.coalesced},
      {"bandwidth_gbps", c.bandwidth_bytes_per_s() / 1e9},
      {"first_arrival_ps", c.requests() ? c.first_arrival_ps : 0},
      {"last_done_ps", c.last_done_ps},
      {"latency_ns",
       {{"mean", ns(c.latency.mean_ps())},
        {"p50", ns(static_cast<double>(c.latency.quantile_ps(0.50)))},
        {"p99", ns(static_cast<double>(c.latency.quantile_ps(0.99)))},
        {"max", ns(static_cast<double>(c.latency.max_ps()))}}},
  };
}

nlohmann::json controller_json(const DdrControllerStats& c) {
  return {
      {"read_queue", {{"mean", c.mean_read_queue()}, {"max", c.max_read_queue}}},
      {"write_queue", {{"mean", c.mean_write_queue()}, {"max", c.max_write_queue}}},
      {"queue_full_waits", c.queue_full_waits},
      {"bypasses", c.bypasses},
      {"bypassed_requests", c.bypassed_requests},
      {"max_bypass", c.max_bypass},
      {"write_drains", c.write_drains},
      {"watermark_drains", c.watermark_drains},
      {"drained_writes", c.drained_writes},
      {"forwarded_reads", c.forwarded_reads},
      {"coalesced_writes", c.coalesced_writes},
      {"refreshes", c.refreshes},
      {"bank_refreshes", c.bank_refreshes},
      {"postponed_refreshes", c.postponed_refreshes},
  };
}

nlohmann::json energy_json(const DdrEnergy& e) {
  auto nj = [](double pj) { return pj / 1000.0; };
  return {{"activate_nj", nj(e.activate_pj)},     {"read_nj", nj(e.read_pj)},
          {"write_nj", nj(e.write_pj)},           {"refresh_nj", nj(e.refresh_pj)},
          {"background_nj", nj(e.background_pj)}, {"total_nj", nj(e.total_pj())}};
}

void print_controllers(std::ostream& out, const DdrStats& s) {
  char line[256];
  out << "\ncontroller    rd queue    wr queue  bypassed (max)    drains (watermark, writes)   "
         "fwd  merged  refresh (pb, postponed)\n";
  for (size_t ch = 0; ch < s.controllers().size(); ++ch) {
    const DdrControllerStats& c = s.controllers()[ch];
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
  if (s.span_cycles() == 0) return;
  out << "data bus busy per rank (bank groups):";
  const size_t groups_per_rank = s.bank_groups();
  for (size_t r = 0; r < s.measured_ranks(); ++r) {
    std::snprintf(line, sizeof line, " %s%zu %.1f %%", s.ranks() > 1 ? "r" : "ch", r,
                  100.0 * s.rank_utilisation(r));
    const bool new_channel = r % s.ranks() == 0 && s.ranks() > 1;
    out << (new_channel ? std::string(" ch") + std::to_string(r / s.ranks()) + ":" : std::string())
        << line;
    if (groups_per_rank > 1) {
      out << " (";
      for (size_t g = 0; g < groups_per_rank; ++g) {
        std::snprintf(line, sizeof line, "%s%.1f", g ? " " : "",
                      100.0 * s.group_utilisation(r * groups_per_rank + g));
        out << line;
      }
      out << ")";
    }
  }
  out << "\n";
}

void print_energy(std::ostream& out, const DdrStats& s) {
  if (!s.has_energy()) {
    out << "energy: the preset gives no IDD currents\n";
    return;
  }
  const double span_ns = s.span_cycles() * s.tck_ps() / 1000.0;
  const DdrEnergy& e = s.energy();
  char line[256];
  std::snprintf(line, sizeof line,
                "energy %.3f uJ (activate %.3f, read %.3f, write %.3f, refresh %.3f, background "
                "%.3f), mean power %.1f mW over %.3f us\n",
                e.total_pj() / 1e6, e.activate_pj / 1e6, e.read_pj / 1e6, e.write_pj / 1e6,
                e.refresh_pj / 1e6, e.background_pj / 1e6,
                span_ns > 0 ? e.total_pj() / span_ns : 0.0, span_ns / 1000.0);
  out << line;
}

}  // namespace

void print_ddr_stats(std::ostream& out, const DdrStats& s, bool banks) {
  out << "DDR " << s.device() << ": ";
  if (s.ideal()) {
    out << "ideal (fixed latency, unlimited bandwidth)";
  } else {
    out << "peak " << std::fixed << std::setprecision(2) << s.peak_bytes_per_s() / 1e9
        << " GB/s, achieved " << s.total().bandwidth_bytes_per_s() / 1e9 << " GB/s ("
        << std::setprecision(1)
        << (s.peak_bytes_per_s() > 0
                ? 100.0 * s.total().bandwidth_bytes_per_s() / s.peak_bytes_per_s()
                : 0.0)
        << " %), " << s.refreshes() << " refreshes, scheduler " << s.scheduler();
    out.unsetf(std::ios::floatfield);
  }
  out << "\nlatency in ns from acceptance to last data (writes: data in the device); "
         "hits/misses/conflicts count bursts; refresh counts stalled requests\n";
  print_header(out, "initiator");
  for (size_t i = 0; i < s.initiators().size(); ++i) {
    if (s.initiators()[i].requests() > 0) print_row(out, s.initiator_names()[i], s.initiators()[i]);
  }
  print_row(out, "total", s.total());
  if (s.ideal()) return;
  print_controllers(out, s);
  print_energy(out, s);
  if (!banks) return;
  out << "\n";
  print_header(out, "bank");
  for (size_t i = 0; i < s.banks().size(); ++i) {
    if (s.banks()[i].requests() > 0) print_row(out, s.bank_label(i), s.banks()[i]);
  }
}

nlohmann::json ddr_stats_json(const DdrStats& s) {
  nlohmann::json initiators = nlohmann::json::array();
  for (size_t i = 0; i < s.initiators().size(); ++i) {
    if (s.initiators()[i].requests() == 0) continue;
    nlohmann::json entry = counters_json(s.initiators()[i]);
    entry["id"] = i;
    entry["name"] = s.initiator_names()[i];
    initiators.push_back(entry);
  }
  nlohmann::json banks = nlohmann::json::array();
  const size_t per_rank = size_t{s.bank_groups()} * s.banks_per_group();
  const size_t per_channel = per_rank * s.ranks();
  for (size_t i = 0; i < s.banks().size() && !s.ideal(); ++i) {
    if (s.banks()[i].requests() == 0) continue;
    nlohmann::json entry = counters_json(s.banks()[i]);
    entry["channel"] = i / per_channel;
    entry["rank"] = i % per_channel / per_rank;
    entry["bank_group"] = i % per_rank / s.banks_per_group();
    entry["bank"] = i % s.banks_per_group();
    banks.push_back(entry);
  }
  nlohmann::json controllers = nlohmann::json::array();
  for (size_t ch = 0; ch < s.controllers().size(); ++ch) {
    nlohmann::json entry = controller_json(s.controllers()[ch]);
    entry["channel"] = ch;
    controllers.push_back(entry);
  }
  nlohmann::json ranks = nlohmann::json::array();
  for (size_t r = 0; r < s.measured_ranks(); ++r) {
    nlohmann::json groups = nlohmann::json::array();
    for (size_t g = 0; g < s.bank_groups(); ++g)
      groups.push_back(s.group_utilisation(r * s.bank_groups() + g));
    nlohmann::json entry = {{"channel", r / s.ranks()},
                            {"rank", r % s.ranks()},
                            {"utilisation", s.rank_utilisation(r)},
                            {"bank_group_utilisation", groups}};
    if (r < s.rank_energy().size()) entry["energy"] = energy_json(s.rank_energy()[r]);
    ranks.push_back(entry);
  }
  nlohmann::json out = {
      {"device", s.device()},
      {"model", s.ideal() ? "ideal" : "jedec"},
      {"scheduler", s.ideal() ? "none" : s.scheduler()},
      {"peak_gbps", s.peak_bytes_per_s() / 1e9},
      {"refreshes", s.refreshes()},
      {"span_ns", s.span_cycles() * s.tck_ps() / 1000.0},
      {"total", counters_json(s.total())},
      {"initiators", initiators},
      {"controllers", controllers},
      {"ranks", ranks},
      {"banks", banks},
  };
  out["energy"] = s.has_energy() ? energy_json(s.energy()) : nlohmann::json(nullptr);
  return out;
}

}  // namespace socsim
