// Simulation speed of the Verilated core in the bare C++ harness (no SystemC): runs a long
// CPU-bound program several times and prints simulated cycles per second (median), per second
// of wall-clock time and per second of the process's CPU time (the latter is what to compare
// on a machine shared with other jobs).
//
//   rtl_bare_speed <elf> [--runs N]
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "models/cpu/rtl/bare_harness.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: rtl_bare_speed <elf> [--runs N]\n");
    return 2;
  }
  int runs = 3;
  for (int i = 2; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--runs") runs = std::atoi(argv[i + 1]);
  }
  std::vector<double> rates;
  std::vector<double> cpu_rates;
  uint64_t cycles = 0;
  for (int run = 0; run < runs; ++run) {
    socsim::BareHarness harness(socsim::BareHarnessOptions{});
    std::string error;
    if (!harness.load_elf(argv[1], &error)) {
      std::fprintf(stderr, "rtl_bare_speed: %s\n", error.c_str());
      return 2;
    }
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();
    const socsim::RunResult result = harness.run();
    const double cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    if (!result.exited || result.exit_value != 0) {
      std::fprintf(stderr, "rtl_bare_speed: the program did not exit with 0\n");
      return 1;
    }
    cycles = result.cycles;
    rates.push_back(static_cast<double>(result.cycles) / elapsed.count());
    cpu_rates.push_back(static_cast<double>(result.cycles) / cpu_seconds);
    std::printf("run %d: %" PRIu64 " cycles in %.3f s (%.3f s CPU): %.2f M cycles/s "
                "(%.2f M per CPU second)\n",
                run + 1, result.cycles, elapsed.count(), cpu_seconds, rates.back() / 1e6,
                cpu_rates.back() / 1e6);
  }
  std::sort(rates.begin(), rates.end());
  std::sort(cpu_rates.begin(), cpu_rates.end());
  std::printf("bare harness (Verilated rv_core, no SystemC): %.2f M cycles/s wall-clock, "
              "%.2f M cycles per CPU second (medians of %d runs, %" PRIu64 " cycles)\n",
              rates[rates.size() / 2] / 1e6, cpu_rates[cpu_rates.size() / 2] / 1e6, runs,
              cycles);
  return 0;
}
