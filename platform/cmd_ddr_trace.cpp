// `socsim ddr-trace`: replays a text memory trace through a DDR preset and prints the
// model's statistics (format of the trace: docs/ddr.md).
#include <boost/program_options.hpp>
#include <fstream>
#include <iostream>

#include "models/common/config.h"
#include "models/ddr/ddr_config.h"
#include "models/ddr/ddr_timing.h"
#include "models/ddr/ddr_trace.h"
#include "platform/commands.h"

namespace socsim {

namespace po = boost::program_options;

namespace {

constexpr const char* kUsage = R"(Usage: socsim ddr-trace --ddr PRESET.yaml [options] TRACE

Replays a memory trace through a DDR model and prints its statistics: bandwidth, row
hits/misses/conflicts, latency mean/p50/p99/max and refresh stalls, per initiator and per
bank. Requests are issued in file order, each at its own time.

Trace lines (# starts a comment):
  <time> <R|W> <address> <bytes> [initiator]
  time: number with optional unit ps, ns or us (no unit: ns); address: offset inside the
  DDR device, decimal or 0x-hex; initiator: optional name (default "trace").

Options)";

}  // namespace

int cmd_ddr_trace(const std::vector<std::string>& args) {
  po::options_description options(kUsage);
  std::string preset;
  std::string json_file;
  std::string trace_file;
  std::vector<std::string> overrides;
  options.add_options()("help,h", "print this help")("ddr", po::value(&preset)->value_name("FILE"),
                                                     "DDR preset YAML (configs/ddr/...)")(
      "set", po::value(&overrides)->composing()->value_name("KEY=VALUE"),
      "override a preset field, e.g. --set timing.tRCD=24 (repeatable)")(
      "json", po::value(&json_file)->value_name("FILE"), "also write the statistics as JSON");
  po::options_description hidden;
  hidden.add_options()("trace", po::value(&trace_file));
  po::options_description all;
  all.add(options).add(hidden);
  po::positional_options_description positional;
  positional.add("trace", 1);

  po::variables_map vm;
  try {
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    po::store(po::command_line_parser(rest).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "socsim ddr-trace: " << e.what() << "\n\n" << options << "\n";
    return kExitUsage;
  }
  if (vm.count("help")) {
    std::cout << options << "\n";
    return 0;
  }
  if (preset.empty() || trace_file.empty()) {
    std::cerr << "socsim ddr-trace: " << (preset.empty() ? "--ddr" : "a trace file")
              << " is required\n\n"
              << options << "\n";
    return kExitUsage;
  }

  try {
    const DdrConfig config = load_ddr_preset(preset, overrides);
    const DdrTrace trace = load_ddr_trace(trace_file, config.capacity_bytes());
    DdrTiming ddr(config);
    for (size_t i = 0; i < trace.initiators.size(); ++i) {
      ddr.stats().set_initiator_name(static_cast<int>(i), trace.initiators[i]);
    }
    for (const DdrTraceRecord& r : trace.records) {
      ddr.access(r.time_ps, r.is_write, r.addr, r.bytes, r.initiator);
    }
    std::cout << "trace " << trace_file << ": " << trace.records.size() << " requests\n";
    ddr.stats().print(std::cout);
    if (!json_file.empty()) {
      std::ofstream out(json_file);
      nlohmann::json report = ddr.stats().to_json();
      report["trace"] = trace_file;
      out << report.dump(2) << "\n";
      if (!out) throw ConfigError(json_file + ": cannot write file");
    }
  } catch (const ConfigError& e) {
    std::cerr << "socsim ddr-trace: " << e.what() << "\n";
    return kExitUsage;
  }
  return 0;
}

}  // namespace socsim
