// `socsim ddr-trace`: replays a memory trace through a DDR preset and prints the model's
// statistics, or converts a trace between socsim's, Ramulator 2's and DRAMSys' formats
// (docs/ddr.md).
#include <boost/program_options.hpp>
#include <fstream>
#include <iostream>

#include "models/common/config.h"
#include "models/ddr/ddr_config.h"
#include "models/ddr/ddr_timing.h"
#include "models/ddr/ddr_trace.h"
#include "platform/commands.h"
#include "platform/report/ddr_report.h"
#include "platform/usage_error.h"

namespace socsim {

namespace po = boost::program_options;

namespace {

constexpr const char* kUsage = R"(Usage: socsim ddr-trace --ddr PRESET.yaml [options] TRACE

Replays a memory trace through a DDR model and prints its statistics: bandwidth, row
hits/misses/conflicts, latency mean/p50/p99/max and refresh stalls per initiator and per
bank, what each channel's controller did (queue occupancy, bypasses, write drains,
forwarding, refreshes), data-bus utilisation per rank and bank group, and the energy.

Requests enter the controller's queues in file order, each not before its time; a full
queue holds the following requests back (--mode queued, default). With --mode blocking
each request is served on its own before the next is looked at, as a blocking bus
initiator sees it. With --write-trace the trace is converted instead of replayed.

Trace formats (--format, --write-format):
  socsim        <time> <R|W> <address> <bytes> [initiator]   (# comments; time: number
                with optional unit ps, ns or us, no unit: ns; address: offset inside the
                DDR device, decimal or 0x-hex; initiator: optional name, default "trace")
  ramulator-ls  LD|ST <address>                 Ramulator 2 LoadStoreTrace (no times)
  ramulator-rw  R|W ch,rank,bg,bank,row,column  Ramulator 2 ReadWriteTrace (no times)
  dramsys       <cycle>: [(<bytes>)] read|write <hex address>   DRAMSys .stl; cycles of
                a player clock of --trace-clock-mhz

Options)";

struct Options {
  std::string preset;
  std::string trace_file;
  std::string json_file;
  std::string format = "socsim";
  std::string write_file;
  std::string write_format = "socsim";
  std::string mode = "queued";
  double clock_mhz = 1000;
  std::vector<std::string> overrides;
};

void replay(DdrTiming& ddr, const DdrTrace& trace, bool blocking) {
  for (size_t i = 0; i < trace.initiators.size(); ++i) {
    ddr.stats().set_initiator_name(static_cast<int>(i), trace.initiators[i]);
  }
  uint64_t front = 0;  // the front end issues in file order
  for (const DdrTraceRecord& r : trace.records) {
    if (blocking) {
      ddr.access(r.time_ps, r.is_write, r.addr, r.bytes, r.initiator);
    } else {
      front = ddr.submit(std::max(front, r.time_ps), r.is_write, r.addr, r.bytes, r.initiator);
    }
  }
  ddr.finish();
}

int run(const Options& o) {
  const DdrConfig config = load_ddr_preset(o.preset, o.overrides);
  DdrTraceContext in{parse_ddr_trace_format(o.format, "--format"), &config, o.clock_mhz};
  const DdrTrace trace = load_ddr_trace(o.trace_file, config.capacity_bytes(), in);
  if (!o.write_file.empty()) {
    DdrTraceContext out_context{parse_ddr_trace_format(o.write_format, "--write-format"), &config,
                                o.clock_mhz};
    std::ofstream out(o.write_file);
    write_ddr_trace(out, trace, out_context);
    if (!out) throw ConfigError(o.write_file + ": cannot write file");
    std::cout << "trace " << o.trace_file << ": " << trace.records.size() << " requests written to "
              << o.write_file << " (" << o.write_format << ")\n";
    return 0;
  }
  if (o.mode != "queued" && o.mode != "blocking") {
    throw ConfigError("--mode: expected 'queued' or 'blocking', got '" + o.mode + "'");
  }
  DdrTiming ddr(config);
  replay(ddr, trace, o.mode == "blocking");
  std::cout << "trace " << o.trace_file << ": " << trace.records.size() << " requests, " << o.mode
            << "\n";
  print_ddr_stats(std::cout, ddr.stats());
  if (!o.json_file.empty()) {
    std::ofstream out(o.json_file);
    nlohmann::json report = ddr_stats_json(ddr.stats());
    report["trace"] = o.trace_file;
    report["mode"] = o.mode;
    out << report.dump(2) << "\n";
    if (!out) throw ConfigError(o.json_file + ": cannot write file");
  }
  return 0;
}

}  // namespace

int cmd_ddr_trace(const std::vector<std::string>& args) {
  po::options_description options(kUsage);
  Options o;
  options.add_options()("help,h", "print this help")(
      "ddr", po::value(&o.preset)->value_name("FILE"), "DDR preset YAML (configs/ddr/...)")(
      "set", po::value(&o.overrides)->composing()->value_name("KEY=VALUE"),
      "override a preset field, e.g. --set timing.tRCD=24 or --set controller.scheduler=fcfs "
      "(repeatable)")("format", po::value(&o.format)->value_name("FMT"),
                      "format of TRACE: socsim (default), ramulator-ls, ramulator-rw, dramsys")(
      "mode", po::value(&o.mode)->value_name("MODE"), "queued (default) or blocking")(
      "json", po::value(&o.json_file)->value_name("FILE"), "also write the statistics as JSON")(
      "write-trace", po::value(&o.write_file)->value_name("FILE"),
      "convert TRACE into FILE instead of replaying it")(
      "write-format", po::value(&o.write_format)->value_name("FMT"),
      "format of --write-trace (default socsim)")(
      "trace-clock-mhz", po::value(&o.clock_mhz)->value_name("MHZ"),
      "dramsys traces: the player clock (default 1000)");
  po::options_description hidden;
  hidden.add_options()("trace", po::value(&o.trace_file));
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
    std::cerr << usage_error("ddr-trace", e, options);
    return kExitUsage;
  }
  if (vm.count("help")) {
    std::cout << options << "\n";
    return 0;
  }
  if (o.preset.empty() || o.trace_file.empty()) {
    std::cerr << "socsim ddr-trace: " << (o.preset.empty() ? "--ddr" : "a trace file")
              << " is required\n\n"
              << options << "\n";
    return kExitUsage;
  }
  try {
    return run(o);
  } catch (const ConfigError& e) {
    std::cerr << "socsim ddr-trace: " << e.what() << "\n";
    return kExitUsage;
  }
}

}  // namespace socsim
