// DDR model benchmark and validation bench (prints figures; with --check, the test of the
// model's agreement with Ramulator 2.1).
//
// 1. Host speed of the timing core: simulated requests per host CPU second (median of
//    --speed-runs runs, default 3, of --speed-requests requests, default 200,000; 4 KiB
//    requests: a sixteenth as many) for streaming and random traffic, replayed through the
//    queues (submit) and as blocking requests (access, what the TLM target does). The
//    defaults take about a minute on a quiet host; raise them for steadier figures.
// 2. Validation: generated traces (sequential, random, random 2R:1W, three streams sharing
//    their banks, strided row conflicts), saturating and at 30 % and 10 % of the peak, on
//    every preset with FCFS and FR-FCFS: bandwidth, mean and p99 latency, row-hit rate.
//    DDR4-3200 rows show the Ramulator 2.1 figures for the same traces next to them
//    (docs/ddr.md says how they were obtained).
// 3. Shared DDR: two initiators (a stream and a random one, reads only and with writes),
//    saturating and at 30 % of the peak, under each preset's mapping and a row-bank-column
//    one, both schedulers: bandwidth, read latency, and each initiator's bandwidth and latency;
//    DDR4-3200 rows again beside Ramulator 2.1's.
//
// Usage: ddr_bench [--presets DIR] [--requests N] [--speed-requests N] [--speed-runs N]
//                  [--speed-only | --validation-only] [--write-traces DIR]
//                  [--reference-only] [--check]
//   --write-traces writes every generated trace in socsim's text format (ddr_trace.h), so
//   the same traces can be converted (socsim ddr-trace --write-format) and run elsewhere.
//   --reference-only: only DDR4-3200, the preset with Ramulator 2.1's figures.
//   --check: exit status 1 (the rows named on stderr) if a row with Ramulator 2.1's figures
//   differs from them by more than 2 % in bandwidth or 5 % in mean read latency (the
//   default --requests only: the figures are of 100,000-request traces).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "models/common/config.h"
#include "models/ddr/ddr_config.h"
#include "models/ddr/ddr_timing.h"
#include "models/ddr/ddr_trace.h"

namespace {

using socsim::DdrConfig;
using socsim::DdrTiming;
using socsim::DdrTraceRecord;

using Trace = std::vector<DdrTraceRecord>;

constexpr uint32_t kLine = 64;

// ---- traces ----------------------------------------------------------------------------------

Trace sequential(size_t count, uint32_t size, bool write) {
  Trace t;
  for (size_t i = 0; i < count; ++i) t.push_back({0, write, uint64_t{i} * size, size, 0});
  return t;
}

// Random lines over the device; every `write_every`-th one a write (0: reads only).
Trace random_lines(size_t count, uint64_t capacity, unsigned write_every, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Trace t;
  for (size_t i = 0; i < count; ++i) {
    const bool write = write_every != 0 && i % write_every == write_every - 1;
    t.push_back({0, write, rng() % (capacity / kLine) * kLine, kLine, 0});
  }
  return t;
}

// Streams a and b read, c writes, one line each in turn; their bases differ only in row
// bits (rows/8 apart), so the streams go through the same banks and close each other's rows.
Trace shared_banks(const DdrTiming& ddr, size_t count) {
  socsim::DdrLocation row_step;
  row_step.row = ddr.config().geometry.rows / 8;
  const uint64_t stride = ddr.decoder().encode(row_step);
  Trace t;
  for (size_t i = 0; i < count; ++i) {
    const uint64_t stream = i % 3;
    t.push_back({0, stream == 2, stream * stride + i / 3 * kLine, kLine, 0});
  }
  return t;
}

// One line per row of one bank: every access a row conflict (tRC bound).
Trace strided(const DdrTiming& ddr, size_t count) {
  socsim::DdrLocation row_step;
  row_step.row = 1;
  const uint64_t stride = ddr.decoder().encode(row_step);
  const uint64_t capacity = ddr.config().capacity_bytes();
  Trace t;
  for (size_t i = 0; i < count; ++i) t.push_back({0, false, i * stride % capacity, kLine, 0});
  return t;
}

// Two initiators, one request each in turn: initiator 0 streams sequential lines from the
// bottom of the device, initiator 1 reads uniformly random lines over all of it; with
// `writes`, every second line of the stream is a write (a copy: read a line, write a line)
// and every third request of the random initiator.
Trace two_initiators(uint64_t capacity, size_t count, bool writes, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Trace t;
  size_t stream = 0, random = 0;
  for (size_t i = 0; i < count; ++i) {
    if (i % 2 == 0) {
      const bool write = writes && stream % 2 == 1;
      t.push_back({0, write, uint64_t{stream} * kLine % capacity, kLine, 0});
      ++stream;
    } else {
      const bool write = writes && random % 3 == 2;
      t.push_back({0, write, rng() % (capacity / kLine) * kLine, kLine, 1});
      ++random;
    }
  }
  return t;
}

// The preset's mapping with its non-channel bits reassigned row-bank-column (from the lowest
// bit: channel, column, rank, bank, bank group, row; Ramulator's RoBaRaCoCh puts the bank
// group below the bank): a stream stays in one row of one bank for a whole row instead of
// spreading over bank groups.
DdrConfig row_bank_column(DdrConfig c) {
  socsim::DdrAddressMapping& m = c.mapping;
  std::vector<uint32_t> bits;
  for (const auto* field : {&m.column, &m.rank, &m.bank, &m.bank_group, &m.row}) {
    bits.insert(bits.end(), field->begin(), field->end());
  }
  std::sort(bits.begin(), bits.end());
  size_t next = 0;
  for (auto* field : {&m.column, &m.rank, &m.bank, &m.bank_group, &m.row}) {
    const size_t n = field->size();
    field->assign(bits.begin() + next, bits.begin() + next + n);
    next += n;
  }
  return c;
}

// Spaces the requests so that they offer `load` x the peak bandwidth.
Trace at_load(Trace t, double load, double peak_bytes_per_s) {
  if (load <= 0) return t;
  const double interval_ps = kLine / (load * peak_bytes_per_s) * 1e12;
  for (size_t i = 0; i < t.size(); ++i) t[i].time_ps = static_cast<uint64_t>(i * interval_ps);
  return t;
}

// ---- replay ----------------------------------------------------------------------------------

// Through the queues: each request waits for its time and for room in the queues.
void replay_queued(DdrTiming& ddr, const Trace& trace) {
  uint64_t front = 0;
  for (const DdrTraceRecord& r : trace) {
    front = ddr.submit(std::max(front, r.time_ps), r.is_write, r.addr, r.bytes, r.initiator);
  }
  ddr.finish();
}

// One blocking request after the other, each at its own time (a TLM initiator).
void replay_blocking(DdrTiming& ddr, const Trace& trace) {
  for (const DdrTraceRecord& r : trace) ddr.access(r.time_ps, r.is_write, r.addr, r.bytes);
  ddr.finish();
}

// CPU time of this thread: on a shared build machine wall time says more about the other
// jobs than about the model.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + t.tv_nsec * 1e-9;
}

double requests_per_second(const DdrConfig& config, const Trace& trace,
                           void (*replay)(DdrTiming&, const Trace&), int runs) {
  std::vector<double> rates;
  for (int i = 0; i < runs; ++i) {
    DdrTiming ddr(config);
    const double start = cpu_seconds();
    replay(ddr, trace);
    rates.push_back(static_cast<double>(trace.size()) / (cpu_seconds() - start));
  }
  std::sort(rates.begin(), rates.end());
  return rates[rates.size() / 2];
}

// ---- reference figures -----------------------------------------------------------------------

// Ramulator 2.1 (github.com/CMU-SAFARI/ramulator2, commit c5b1c3a): DDR4_8Gb_x8,
// DDR4_3200AA, one rank, read/write queues 32, watermarks 0.2/0.8, open rows, all-bank
// refresh, these traces (100k requests) mapped with socsim's mapping. "fcfs" is Ramulator's
// FR-FCFS with the readiness test removed (the oldest eligible request); docs/ddr.md.
struct Reference {
  double gbps, mean_ns, p99_ns, hit_rate;
};
const std::map<std::string, Reference>& ramulator_ddr4() {
  static const std::map<std::string, Reference> table = {
#include "bench/ddr_bench_ramulator.inc"
  };
  return table;
}

struct Row {
  double gbps, mean_ns, p99_ns, hit_rate;
};

// Bandwidth and row hits of all requests; latency of the reads (as Ramulator reports it):
// writes are replayed as a second initiator so the two are counted apart.
Row measure(const DdrConfig& config, Trace trace) {
  for (DdrTraceRecord& r : trace) r.initiator = r.is_write ? 1 : 0;
  DdrTiming ddr(config);
  replay_queued(ddr, trace);
  const socsim::DdrCounters& total = ddr.stats().total();
  const socsim::DdrCounters& reads = ddr.stats().initiators()[0];
  const uint64_t bursts = total.row_hits + total.row_misses + total.row_conflicts;
  return {total.bandwidth_bytes_per_s() / 1e9, reads.latency.mean_ps() / 1000.0,
          reads.latency.quantile_ps(0.99) / 1000.0,
          bursts ? static_cast<double>(total.row_hits) / bursts : 0.0};
}

void write_trace(const std::string& file, const Trace& trace,
                 std::vector<std::string> initiators = {"trace"}) {
  std::ofstream out(file);
  socsim::DdrTrace t;
  t.records = trace;
  t.initiators = std::move(initiators);
  socsim::write_ddr_trace(out, t, socsim::DdrTraceContext{});
}

// The command line.
struct Options {
  std::string dir = std::string(SOCSIM_SOURCE_DIR) + "/configs/ddr";
  std::string trace_dir;
  size_t requests = 100'000;
  size_t speed_requests = 200'000;
  int speed_runs = 3;
  bool speed = true, validation = true;
  bool reference_only = false;  // only the preset with reference figures (the first)
  bool check = false;           // exit 1 when a two-initiator row misses its tolerance
};

// Reads the command line into `o`; false (with a message) on a bad one.
bool parse_options(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--presets" && i + 1 < argc) {
      o->dir = argv[++i];
    } else if (arg == "--requests" && i + 1 < argc) {
      o->requests = std::stoul(argv[++i]);
    } else if (arg == "--speed-requests" && i + 1 < argc) {
      o->speed_requests = std::stoul(argv[++i]);
    } else if (arg == "--speed-runs" && i + 1 < argc) {
      o->speed_runs = std::stoi(argv[++i]);
    } else if (arg == "--write-traces" && i + 1 < argc) {
      o->trace_dir = argv[++i];
    } else if (arg == "--speed-only") {
      o->validation = false;
    } else if (arg == "--validation-only") {
      o->speed = false;
    } else if (arg == "--reference-only") {
      o->reference_only = true;
    } else if (arg == "--check") {
      o->check = true;
    } else {
      std::fprintf(stderr,
                   "usage: ddr_bench [--presets DIR] [--requests N] [--speed-requests N] "
                   "[--speed-runs N] [--speed-only | --validation-only] [--write-traces DIR] "
                   "[--reference-only] [--check]\n");
      return false;
    }
  }
  if (o->requests == 0 || o->speed_requests < 16 || o->speed_runs < 1) {
    std::fprintf(stderr,
                 "ddr_bench: --requests must be > 0, --speed-requests >= 16, --speed-runs >= 1\n");
    return false;
  }
  if (o->check && o->requests != 100'000) {
    std::fprintf(stderr, "ddr_bench: --check compares 100,000-request traces: leave --requests\n");
    return false;
  }
  return true;
}

// The model's throughput per preset: queued and blocking (TLM) replays of streams and
// random lines.
void print_speed(const std::vector<DdrConfig>& presets, const Options& o) {
  std::printf(
      "Model throughput (simulated requests per host CPU second, median of %d runs of %zu "
      "requests; 4 KiB: %zu)\n",
      o.speed_runs, o.speed_requests, o.speed_requests / 16);
  std::printf("%-22s %14s %14s %14s %14s %14s\n", "preset", "stream 64 B", "random 64 B",
              "stream 4 KiB", "stream, TLM", "random, TLM");
  for (const DdrConfig& c : presets) {
    const Trace stream = sequential(o.speed_requests, kLine, false);
    const Trace random = random_lines(o.speed_requests, c.capacity_bytes(), 0, 1);
    const Trace large = sequential(o.speed_requests / 16, 4096, false);
    std::printf("%-22s %13.2fM %13.2fM %13.2fM %13.2fM %13.2fM\n", c.name.c_str(),
                requests_per_second(c, stream, replay_queued, o.speed_runs) / 1e6,
                requests_per_second(c, random, replay_queued, o.speed_runs) / 1e6,
                requests_per_second(c, large, replay_queued, o.speed_runs) / 1e6,
                requests_per_second(c, stream, replay_blocking, o.speed_runs) / 1e6,
                requests_per_second(c, random, replay_blocking, o.speed_runs) / 1e6);
  }
}

// Rows must agree with Ramulator 2.1 within these (bandwidth of all requests, mean read
// latency): --check fails on any row outside them.
constexpr double kBandwidthTolerance = 0.02;
constexpr double kLatencyTolerance = 0.05;

// Prints a row's Ramulator 2.1 figures (DDR4-3200 rows that have them) and the differences;
// the key of a row outside the tolerances goes to `failures`.
void print_reference(const std::string& key, double gbps, double mean_ns,
                     std::vector<std::string>* failures) {
  auto ref = ramulator_ddr4().find(key);
  if (ref == ramulator_ddr4().end()) return;
  const Reference& r = ref->second;
  const double gbps_diff = gbps / r.gbps - 1;
  const double mean_diff = mean_ns / r.mean_ns - 1;
  const bool within =
      std::fabs(gbps_diff) <= kBandwidthTolerance && std::fabs(mean_diff) <= kLatencyTolerance;
  std::printf("   %6.2f %6.1f %7.1f %4.0f%%  (%+.1f %%, %+.1f %%)%s", r.gbps, r.mean_ns, r.p99_ns,
              100 * r.hit_rate, 100 * gbps_diff, 100 * mean_diff, within ? "" : "  OUTSIDE");
  if (!within) failures->push_back(key);
}

// One validation row: a preset's trace at a load under a scheduler, with Ramulator 2.1's
// figures beside the first preset's (DDR4) rows where they are known.
void print_validation_row(const DdrConfig& preset, bool first_preset, const char* pattern,
                          const char* load, socsim::DdrSchedulerKind kind, const Trace& trace,
                          std::vector<std::string>* failures) {
  DdrConfig config = preset;
  config.controller.scheduler = kind;
  const Row row = measure(config, trace);
  std::printf("%-18s %-13s %-4s %-6s %7.2f %8.1f %8.1f %4.0f%%", preset.name.c_str(), pattern, load,
              socsim::to_string(kind), row.gbps, row.mean_ns, row.p99_ns, 100 * row.hit_rate);
  if (first_preset) {
    print_reference(std::string(pattern) + "/" + load + "/" + to_string(kind), row.gbps,
                    row.mean_ns, failures);
  }
  std::printf("\n");
}

// Bandwidth, latency and row hits of every preset, trace pattern, load and scheduler.
void print_validation(const std::vector<DdrConfig>& presets, const Options& o,
                      std::vector<std::string>* failures) {
  struct Pattern {
    const char* name;
    std::function<Trace(const DdrTiming&)> make;
  };
  const size_t requests = o.requests;
  const Pattern patterns[] = {
      {"sequential", [&](const DdrTiming&) { return sequential(requests, kLine, false); }},
      {"random",
       [&](const DdrTiming& d) {
         return random_lines(requests, d.config().capacity_bytes(), 0, 2);
       }},
      {"random 2R:1W",
       [&](const DdrTiming& d) {
         return random_lines(requests, d.config().capacity_bytes(), 3, 3);
       }},
      {"shared banks", [&](const DdrTiming& d) { return shared_banks(d, requests); }},
      {"strided", [&](const DdrTiming& d) { return strided(d, requests); }},
  };
  const struct {
    const char* name;
    double load;
  } loads[] = {{"sat", 0}, {"30%", 0.3}, {"10%", 0.1}};
  const socsim::DdrSchedulerKind schedulers[] = {socsim::DdrSchedulerKind::kFcfs,
                                                 socsim::DdrSchedulerKind::kFrFcfs};

  std::printf(
      "\nValidation: %zu 64-byte requests per trace; GB/s, latency (acceptance to last "
      "data) mean / p99 in ns, row hits\n",
      requests);
  std::printf("%-18s %-13s %-4s %-6s %7s %8s %8s %5s   %s\n", "preset", "trace", "load", "sched",
              "GB/s", "mean", "p99", "hits", "Ramulator 2.1 GB/s mean p99 hits (diff GB/s, mean)");
  for (const DdrConfig& preset : presets) {
    DdrTiming shape(preset);
    for (const Pattern& p : patterns) {
      for (const auto& load : loads) {
        const Trace trace = at_load(p.make(shape), load.load, preset.peak_bytes_per_s());
        if (!o.trace_dir.empty()) {
          std::string name = preset.name + "_" + p.name + "_" + load.name;
          for (char& ch : name) {
            if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
          }
          write_trace(o.trace_dir + "/" + name + ".trace", trace);
        }
        for (socsim::DdrSchedulerKind kind : schedulers) {
          print_validation_row(preset, &preset == &presets.front(), p.name, load.name, kind, trace,
                               failures);
        }
      }
    }
  }
}

// A two-initiator trace: all requests' bandwidth and row hits, the reads' latency (both
// initiators), and each initiator's bandwidth and mean latency (its reads and writes).
struct TwoRow {
  Row all;
  double gbps[2], mean_ns[2];
};

TwoRow measure_two(const DdrConfig& config, const Trace& trace) {
  Trace split = trace;  // reads keep their initiator (0, 1); writes are 2 + initiator
  for (DdrTraceRecord& r : split) r.initiator += r.is_write ? 2 : 0;
  DdrTiming ddr(config);
  replay_queued(ddr, split);
  const auto& in = ddr.stats().initiators();
  socsim::DdrCounters reads, of[2];
  for (size_t i = 0; i < in.size(); ++i) {
    if (i < 2) reads.merge(in[i]);
    of[i % 2].merge(in[i]);
  }
  const socsim::DdrCounters& total = ddr.stats().total();
  const uint64_t bursts = total.row_hits + total.row_misses + total.row_conflicts;
  TwoRow row;
  row.all = {total.bandwidth_bytes_per_s() / 1e9, reads.latency.mean_ps() / 1000.0,
             reads.latency.quantile_ps(0.99) / 1000.0,
             bursts ? static_cast<double>(total.row_hits) / bursts : 0.0};
  for (int i = 0; i < 2; ++i) {
    row.gbps[i] = of[i].bandwidth_bytes_per_s() / 1e9;
    row.mean_ns[i] = of[i].latency.mean_ps() / 1000.0;
  }
  return row;
}

// Shared DDR: a stream and a random initiator, reads only and with writes, saturating and at
// 30 % of the peak, under the preset's mapping and row-bank-column, both schedulers. The
// controller arbitrates between initiators only by its scheduler (docs/ddr.md, "Shared DDR").
void print_two_initiators(const std::vector<DdrConfig>& presets, const Options& o,
                          std::vector<std::string>* failures) {
  std::printf(
      "\nTwo initiators (stream + random, one request each in turn): %zu 64-byte requests per "
      "trace; GB/s, read latency mean / p99 ns, row hits; per initiator GB/s and mean ns\n",
      o.requests);
  std::printf("%-18s %-9s %-9s %-4s %-6s %7s %8s %8s %5s   %s\n", "preset", "mapping", "trace",
              "load", "sched", "GB/s", "mean", "p99", "hits",
              "stream GB/s ns   random GB/s ns"
              "   Ramulator 2.1 GB/s mean p99 hits (diff GB/s, mean)");
  const struct {
    const char* name;
    double load;
  } loads[] = {{"sat", 0}, {"30%", 0.3}};
  for (const DdrConfig& preset : presets) {
    for (const bool rbc : {false, true}) {
      const DdrConfig mapped = rbc ? row_bank_column(preset) : preset;
      for (const bool writes : {false, true}) {
        for (const auto& load : loads) {
          const Trace trace =
              at_load(two_initiators(preset.capacity_bytes(), o.requests, writes, 4), load.load,
                      preset.peak_bytes_per_s());
          const char* map_name = rbc ? "row-bank" : "preset";
          const char* trace_name = writes ? "2i rw" : "2i read";
          if (!o.trace_dir.empty()) {
            std::string name =
                preset.name + "_two_initiators_" + (writes ? "rw" : "read") + "_" + load.name;
            for (char& ch : name) {
              if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
            }
            if (!rbc) write_trace(o.trace_dir + "/" + name + ".trace", trace, {"stream", "random"});
          }
          for (socsim::DdrSchedulerKind kind :
               {socsim::DdrSchedulerKind::kFcfs, socsim::DdrSchedulerKind::kFrFcfs}) {
            DdrConfig config = mapped;
            config.controller.scheduler = kind;
            const TwoRow r = measure_two(config, trace);
            std::printf(
                "%-18s %-9s %-9s %-4s %-6s %7.2f %8.1f %8.1f %4.0f%%   %6.2f %6.1f   "
                "%6.2f %6.1f",
                preset.name.c_str(), map_name, trace_name, load.name, socsim::to_string(kind),
                r.all.gbps, r.all.mean_ns, r.all.p99_ns, 100 * r.all.hit_rate, r.gbps[0],
                r.mean_ns[0], r.gbps[1], r.mean_ns[1]);
            if (&preset == &presets.front()) {
              print_reference(std::string(trace_name) + "/" + map_name + "/" + load.name + "/" +
                                  socsim::to_string(kind),
                              r.all.gbps, r.all.mean_ns, failures);
            }
            std::printf("\n");
          }
        }
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parse_options(argc, argv, &options)) return 2;
  std::vector<DdrConfig> presets;
  try {
    for (const char* name : {"ddr4-3200.yaml", "lpddr4x-4266.yaml", "lpddr5-6400.yaml",
                             "ddr5-4800.yaml", "hbm2.yaml"}) {
      presets.push_back(socsim::load_ddr_preset(options.dir + "/" + name));
      if (options.reference_only) break;  // DDR4-3200: the preset Ramulator's figures are of
    }
  } catch (const socsim::ConfigError& e) {
    std::fprintf(stderr, "ddr_bench: %s\n", e.what());
    return 2;
  }
  if (options.speed) print_speed(presets, options);
  std::vector<std::string> failures;
  if (options.validation) print_validation(presets, options, &failures);
  if (options.validation) print_two_initiators(presets, options, &failures);
  if (options.check && !failures.empty()) {
    std::fflush(stdout);
    std::fprintf(stderr,
                 "ddr_bench: %zu rows outside %.0f %% (GB/s) / %.0f %% "
                 "(mean latency) of Ramulator 2.1:",
                 failures.size(), 100 * kBandwidthTolerance, 100 * kLatencyTolerance);
    for (const std::string& key : failures) std::fprintf(stderr, " '%s'", key.c_str());
    std::fprintf(stderr, "\n");
    return 1;
  }
  return 0;
}
