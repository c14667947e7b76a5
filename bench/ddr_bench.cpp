// DDR model benchmark: host throughput of the timing core and the bandwidth each preset
// achieves for typical access patterns, against its peak. Prints figures; not a test.
//
// Usage: ddr_bench [configs/ddr directory]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "models/common/config.h"
#include "models/ddr/ddr_config.h"
#include "models/ddr/ddr_timing.h"

namespace {

using socsim::DdrConfig;
using socsim::DdrTiming;

struct Request {
  uint64_t time_ps;
  bool is_write;
  uint64_t addr;
  uint32_t bytes;
};
using Trace = std::vector<Request>;

Trace sequential(uint64_t bytes, uint32_t size, bool write) {
  Trace t;
  for (uint64_t a = 0; a < bytes; a += size) t.push_back({0, write, a, size});
  return t;
}

// A copy: read a line from the source stream, write one to the destination stream.
Trace copy(uint64_t bytes, uint64_t dst) {
  Trace t;
  for (uint64_t a = 0; a < bytes; a += 64) {
    t.push_back({0, false, a, 64});
    t.push_back({0, true, dst + a, 64});
  }
  return t;
}

// Random 64-byte lines; every `write_every`-th one a write (0: reads only).
Trace random_lines(size_t count, uint64_t capacity, unsigned write_every, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Trace t;
  for (size_t i = 0; i < count; ++i) {
    const bool write = write_every != 0 && i % write_every == write_every - 1;
    t.push_back({0, write, rng() % (capacity / 64) * 64, 64});
  }
  return t;
}

double replay(DdrTiming& ddr, const Trace& trace) {
  for (const Request& r : trace) ddr.access(r.time_ps, r.is_write, r.addr, r.bytes);
  return ddr.stats().total().bandwidth_bytes_per_s();
}

// Median over `runs` of simulated requests per host second.
double throughput(const DdrConfig& config, const Trace& trace, int runs) {
  std::vector<double> rates;
  for (int i = 0; i < runs; ++i) {
    DdrTiming ddr(config);
    const auto start = std::chrono::steady_clock::now();
    replay(ddr, trace);
    const std::chrono::duration<double> host = std::chrono::steady_clock::now() - start;
    rates.push_back(static_cast<double>(trace.size()) / host.count());
  }
  std::sort(rates.begin(), rates.end());
  return rates[rates.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : std::string(SOCSIM_SOURCE_DIR) + "/configs/ddr";
  std::vector<DdrConfig> presets;
  try {
    for (const char* name : {"ddr4-3200.yaml", "lpddr4x-4266.yaml"}) {
      presets.push_back(socsim::load_ddr_preset(dir + "/" + name));
    }
  } catch (const socsim::ConfigError& e) {
    std::fprintf(stderr, "ddr_bench: %s\n", e.what());
    return 2;
  }

  constexpr int kRuns = 5;
  std::printf("Model throughput (simulated requests per host second, median of %d runs)\n", kRuns);
  std::printf("%-22s %16s %16s %16s\n", "preset", "stream 64 B", "random 64 B", "stream 4 KiB");
  for (const DdrConfig& c : presets) {
    const double stream = throughput(c, sequential(64ull << 20, 64, false), kRuns);
    const double random = throughput(c, random_lines(1'000'000, c.capacity_bytes(), 0, 1), kRuns);
    const double large = throughput(c, sequential(256ull << 20, 4096, false), kRuns);
    std::printf("%-22s %15.2fM %15.2fM %15.2fM\n", c.name.c_str(), stream / 1e6, random / 1e6,
                large / 1e6);
  }

  struct Pattern {
    const char* name;
    std::function<Trace(const DdrConfig&)> make;
  };
  const Pattern patterns[] = {
      {"sequential read 64 B", [](const DdrConfig&) { return sequential(64ull << 20, 64, false); }},
      {"sequential write 64 B", [](const DdrConfig&) { return sequential(64ull << 20, 64, true); }},
      {"sequential read 4 KiB",
       [](const DdrConfig&) { return sequential(64ull << 20, 4096, false); }},
      // Source and destination differ only in row bits: every access closes the other
      // stream's row (requests are served in order, there is no write buffer).
      {"copy 64 B, same banks",
       [](const DdrConfig& c) { return copy(32ull << 20, c.capacity_bytes() / 2); }},
      // Destination shifted by 0x12080: other bank groups (or channels) and other banks.
      {"copy 64 B, other banks",
       [](const DdrConfig& c) { return copy(32ull << 20, c.capacity_bytes() / 2 + 0x12080); }},
      {"random read 64 B",
       [](const DdrConfig& c) { return random_lines(200'000, c.capacity_bytes(), 0, 2); }},
      {"random 2R:1W 64 B",
       [](const DdrConfig& c) { return random_lines(200'000, c.capacity_bytes(), 3, 3); }},
  };
  std::printf("\nAchieved bandwidth, all requests queued at time 0 (GB/s and %% of peak)\n");
  std::printf("%-24s", "pattern");
  for (const DdrConfig& c : presets) std::printf(" %22s", c.name.c_str());
  std::printf("\n%-24s", "peak");
  for (const DdrConfig& c : presets) std::printf(" %15.2f GB/s     ", c.peak_bytes_per_s() / 1e9);
  std::printf("\n");
  for (const Pattern& p : patterns) {
    std::printf("%-24s", p.name);
    for (const DdrConfig& c : presets) {
      DdrTiming ddr(c);
      const double bw = replay(ddr, p.make(c));
      std::printf(" %10.2f GB/s %5.1f %%", bw / 1e9, 100.0 * bw / c.peak_bytes_per_s());
    }
    std::printf("\n");
  }
  return 0;
}
