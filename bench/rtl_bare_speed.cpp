// Simulation speed of the Verilated core in the bare C++ harness (no SystemC): runs a long
// CPU-bound program several times and prints simulated cycles per second (median).
//
//   rtl_bare_speed <elf> [--runs N]
#include <algorithm>
#include <chrono>
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
  uint64_t cycles = 0;
  for (int run = 0; run < runs; ++run) {
    socsim::BareHarness harness(socsim::BareHarnessOptions{});
    std::string error;
    if (!harness.load_elf(argv[1], &error)) {
      std::fprintf(stderr, "rtl_bare_speed: %s\n", error.c_str());
      return 2;
    }
    const auto start = std::chrono::steady_clock::now();
    const socsim::RunResult result = harness.run();
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    if (!result.exited || result.exit_value != 0) {
      std::fprintf(stderr, "rtl_bare_speed: the program did not exit with 0\n");
      return 1;
    }
    cycles = result.cycles;
    rates.push_back(static_cast<double>(result.cycles) / elapsed.count());
    std::printf("run %d: %" PRIu64 " cycles in %.3f s: %.2f M cycles/s\n", run + 1,
                result.cycles, elapsed.count(), rates.back() / 1e6);
  }
  std::sort(rates.begin(), rates.end());
  std::printf("bare harness (Verilated rv_core, no SystemC): %.2f M cycles/s "
              "(median of %d runs, %" PRIu64 " cycles)\n",
              rates[rates.size() / 2] / 1e6, runs, cycles);
  return 0;
}
