// `socsim estimate`: the per-layer NPU report of a program for a SoC, computed analytically
// (platform/npu_estimate.h): no CPU, no functional compute, the DDR as bandwidth and
// latency. With --compare it sets a simulated run's layers beside the estimate's and
// attributes the difference; with --repeat it measures its own speed.
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "models/common/config.h"
#include "platform/commands.h"
#include "platform/npu_estimate.h"
#include "platform/soc_config.h"
#include "platform/usage_error.h"

namespace po = boost::program_options;

namespace socsim {

namespace {

constexpr const char* kUsage =
    R"(Usage: socsim estimate --model PROG [--config FILE] [--set key.path=value ...]
                       [--json FILE] [--compare DIR] [--repeat N]
       socsim estimate --batch FILE

Estimates the per-layer NPU report of a compiled program (compile_model.py --delegate npu)
on a SoC without simulating it: every layer of the program's npu delegate calls, in order,
planned and scheduled by the NPU model's own timing rules (alignment, tiling, double
buffering, the preset's overheads), the DMA at the lower of npu.dma.bytes_per_cycle and the
DDR preset's peak, each transfer ending one DDR row-miss latency after its last byte. No
CPU runs (CPU operators are not in the estimate) and the DDR has no banks, queues or refresh.
docs/npu.md, "Estimate mode", says what it leaves out.

--compare DIR sets the layers of a simulated run (`socsim run --report DIR` of the same
program and SoC: DIR/npu_layers.json, its last frame) beside the estimate's and attributes
each layer's difference in time to what bounds it in the run: compute, the on-chip DMA, or
the DDR (its contention, latency and refresh beyond bandwidth and latency); the run's CPU
operators are listed as time the estimate does not have.
--repeat N evaluates the program N times and prints the evaluations per minute.

--batch FILE estimates many points in one process (a sweep's estimate stage,
docs/sweeps.md "Two-stage studies"): FILE has one JSON object per line, {"id": ...,
"model": PROG, "config": FILE, "set": ["key=value", ...]} ("-": standard input); each
gives one line on standard output, {"id": ..., "estimate": <the --json object>} or
{"id": ..., "error": "<why>"} when that point's SoC or program is not valid. A program is
read once however many lines name it.

Exit status: 0; 1 when --compare's run does not have the estimate's layers; 2 for a usage,
configuration or program-file error (with --batch: a line that is not such an object).
)";

struct Options {
  std::string config, model, json, compare, batch;
  std::vector<std::string> sets;
  uint64_t repeat = 0;
};

// The report's Bound words (npu_bound): every operand of the estimate lies in DDR.
const char* bound_of(const NpuLayerRecord& l) {
  return l.bandwidth_bound() ? "ddr" : "compute";
}

void print_estimate(std::ostream& out, const NpuConfig& c,
                    const std::vector<NpuLayerRecord>& layers) {
  char line[400];
  std::snprintf(line, sizeof line, "%-4s %-18s %-18s %-18s %10s %10s %10s %-8s %s\n", "ID",
                "OpType", "InputShape", "OutputShape", "DDRCycles", "NPUCycles", "Time(us)",
                "Bound", "FullName");
  out << line;
  uint64_t total = 0;
  auto shape = [](const uint32_t* s) {
    return "(" + std::to_string(s[0]) + "," + std::to_string(s[1]) + "," + std::to_string(s[2]) +
           "," + std::to_string(s[3]) + ")";
  };
  for (size_t i = 0; i < layers.size(); ++i) {
    const NpuLayerRecord& l = layers[i];
    std::snprintf(line, sizeof line, "%-4zu %-18s %-18s %-18s %10llu %10llu %10.1f %-8s %s\n",
                  i + 1, l.op_type.c_str(), shape(l.in_shape).c_str(), shape(l.out_shape).c_str(),
                  static_cast<unsigned long long>(l.ddr_cycles),
                  static_cast<unsigned long long>(l.npu_cycles), l.elapsed_cycles / c.clock_mhz,
                  bound_of(l), l.name.c_str());
    out << line;
    total += l.elapsed_cycles;
  }
  out << "Estimated NPU time per frame: " << total / c.clock_mhz << " us (" << layers.size()
      << " layers, " << total << " NPU cycles at " << c.clock_mhz << " MHz)\n";
}

nlohmann::json estimate_json(const NpuConfig& c, const std::vector<NpuLayerRecord>& layers) {
  nlohmann::json out = nlohmann::json::array();
  for (const NpuLayerRecord& l : layers) {
    out.push_back({{"frame", 0}, {"run", l.run}, {"index", l.index}, {"name", l.name},
                   {"op_type", l.op_type}, {"macs", l.macs}, {"ddr_cycles", l.ddr_cycles},
                   {"npu_cycles", l.npu_cycles}, {"elapsed_cycles", l.elapsed_cycles},
                   {"time_us", l.elapsed_cycles / c.clock_mhz}, {"read_bytes", l.read_bytes},
                   {"write_bytes", l.write_bytes}, {"task_number", l.tasks},
                   {"bound", bound_of(l)}});
  }
  uint64_t frame = 0;
  for (const NpuLayerRecord& l : layers) frame += l.elapsed_cycles;
  return {{"preset", c.name},
          {"clock_mhz", c.clock_mhz},
          {"cores", c.cores},
          {"rows", c.rows},
          {"columns", c.columns},
          {"buffer_per_core", c.buffer_bytes},
          {"peak_macs_per_cycle", c.peak_macs_per_cycle(NpuDataType::kInt8)},
          {"frame_cycles", frame},
          {"frame_us", frame / c.clock_mhz},
          {"layers", out}};
}

// The run's last frame beside the estimate; each layer's difference in time goes to what
// bounds it in the run (the report's Bound: compute, on-chip-dma, ddr).
int compare(std::ostream& out, const NpuConfig& c, const std::vector<NpuLayerRecord>& est,
            const std::string& dir) {
  const std::string path = dir + "/npu_layers.json";
  std::ifstream in(path);
  if (!in) throw ConfigError(path + ": cannot open file");
  nlohmann::json report;
  try {
    report = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError(path + ": not JSON (" + std::string(e.what()) + ")");
  }
  std::vector<nlohmann::json> sim;
  uint64_t last = 0;
  for (const auto& l : report.at("layers")) last = std::max<uint64_t>(last, l.at("frame"));
  for (const auto& l : report.at("layers")) {
    if (l.at("frame") == last) sim.push_back(l);
  }
  if (sim.size() != est.size()) {
    std::cerr << "socsim estimate: " << path << ": " << sim.size()
              << " layers in the run's last frame, " << est.size()
              << " in the program: not the same program\n";
    return 1;
  }
  const double mhz = c.clock_mhz;
  double by_bound[3] = {0, 0, 0};  // compute, on-chip-dma, ddr (us)
  double sim_total = 0, est_total = 0;
  char line[400];
  std::snprintf(line, sizeof line, "\n%-4s %-18s %10s %10s %8s %10s %10s %-11s %s\n", "ID",
                "OpType", "sim(us)", "est(us)", "diff(%)", "dNPU(cyc)", "dDMA(cyc)", "run bound",
                "FullName");
  out << line;
  for (size_t i = 0; i < est.size(); ++i) {
    const nlohmann::json& s = sim[i];
    const NpuLayerRecord& e = est[i];
    const double s_us = s.at("elapsed_cycles").get<double>() / mhz;
    const double e_us = e.elapsed_cycles / mhz;
    const std::string bound = s.value("bound", "compute");
    const int k = bound == "compute" ? 0 : bound == "on-chip-dma" ? 1 : 2;
    by_bound[k] += s_us - e_us;
    sim_total += s_us;
    est_total += e_us;
    std::snprintf(line, sizeof line, "%-4zu %-18s %10.1f %10.1f %+8.1f %+10lld %+10lld %-11s %s\n",
                  i + 1, e.op_type.c_str(), s_us, e_us, e_us > 0 ? 100.0 * (s_us / e_us - 1) : 0,
                  static_cast<long long>(s.at("npu_cycles").get<int64_t>() - int64_t(e.npu_cycles)),
                  static_cast<long long>(s.at("ddr_cycles").get<int64_t>() - int64_t(e.ddr_cycles)),
                  bound.c_str(), e.name.c_str());
    out << line;
  }
  double cpu_us = 0;
  for (const auto& op : report.value("cpu_operators", nlohmann::json::array())) {
    cpu_us += op.value("time_us", 0.0);
  }
  std::snprintf(line, sizeof line,
                "\nNPU per frame: simulated %.1f us, estimated %.1f us, difference %+.1f us "
                "(%+.1f %%)\n  in compute-bound layers %+.1f us, on-chip-DMA-bound %+.1f us, "
                "DDR-bound (DDR contention, latency, refresh) %+.1f us\n"
                "CPU operators of the run (not estimated): %.1f us\n",
                sim_total, est_total, sim_total - est_total,
                est_total > 0 ? 100.0 * (sim_total / est_total - 1) : 0.0, by_bound[0],
                by_bound[1], by_bound[2], cpu_us);
  out << line;
  return 0;
}

// The estimate of one program on one SoC (its first npu and ddr regions).
std::vector<NpuLayerRecord> estimate_soc(const SocConfig& soc, const NpuProgramLayers& program,
                                         const NpuConfig** npu_out) {
  const RegionConfig* npu_region = soc.first_of_type("npu");
  const RegionConfig* ddr_region = soc.first_of_type("ddr");
  if (npu_region == nullptr) throw ConfigError(soc.file + ": the SoC has no npu region");
  const NpuConfig& npu = npu_region->model_as<NpuConfig>();
  const NpuEstimateDdr ddr =
      ddr_region ? npu_estimate_ddr(ddr_region->model_as<DdrConfig>()) : NpuEstimateDdr{};
  *npu_out = &npu;
  return estimate_npu_layers(npu, ddr, program);
}

// --batch: one estimate per input line, one JSON line out per point; a point whose SoC or
// program is not valid gets its error and the others go on.
int run_batch(const std::string& path) {
  std::ifstream file;
  if (path != "-") {
    file.open(path);
    if (!file) throw ConfigError(path + ": cannot open file");
  }
  std::istream& in = path == "-" ? std::cin : file;
  std::map<std::string, NpuProgramLayers> programs;
  std::string text;
  for (uint64_t number = 1; std::getline(in, text); ++number) {
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = path + ":" + std::to_string(number);
    nlohmann::json point;
    try {
      point = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
      throw ConfigError(where + ": not a JSON object");
    }
    if (!point.is_object() || !point.contains("model") || !point["model"].is_string() ||
        !point.value("config", nlohmann::json()).is_string() ||
        !point.value("set", nlohmann::json::array()).is_array()) {
      throw ConfigError(where +
                        ": expected {\"id\": ..., \"model\": PROG, \"config\": FILE, "
                        "\"set\": [\"key=value\", ...]}");
    }
    std::vector<std::string> sets;
    for (const auto& s : point.value("set", nlohmann::json::array())) {
      if (!s.is_string()) throw ConfigError(where + ": set: expected strings key=value");
      sets.push_back(s.get<std::string>());
    }
    nlohmann::json out = {{"id", point.value("id", nlohmann::json())}};
    try {
      const std::string model = point["model"].get<std::string>();
      auto it = programs.find(model);
      if (it == programs.end()) it = programs.emplace(model, read_npu_program_layers(model)).first;
      const SocConfig soc = load_soc_config(point["config"].get<std::string>(), sets);
      const NpuConfig* npu = nullptr;
      const std::vector<NpuLayerRecord> layers = estimate_soc(soc, it->second, &npu);
      out["estimate"] = estimate_json(*npu, layers);
    } catch (const ConfigError& e) {
      out["error"] = e.what();
    }
    std::cout << out.dump() << "\n";
  }
  std::cout.flush();
  if (!std::cout) throw ConfigError("standard output: cannot write");
  return 0;
}

int run(const Options& o) {
  if (!o.batch.empty()) return run_batch(o.batch);
  const SocConfig soc = load_soc_config(o.config, o.sets);
  const NpuProgramLayers program = read_npu_program_layers(o.model);
  const NpuConfig* npu_ptr = nullptr;
  std::vector<NpuLayerRecord> layers = estimate_soc(soc, program, &npu_ptr);
  const NpuConfig& npu = *npu_ptr;
  if (o.repeat > 0) {
    // The program is read once (a sweep evaluates one program on many SoCs); each
    // evaluation plans, tiles and schedules every layer again.
    const RegionConfig* ddr_region = soc.first_of_type("ddr");
    const NpuEstimateDdr ddr =
        ddr_region ? npu_estimate_ddr(ddr_region->model_as<DdrConfig>()) : NpuEstimateDdr{};
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();
    for (uint64_t i = 0; i < o.repeat; ++i) layers = estimate_npu_layers(npu, ddr, program);
    const double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%llu evaluations in %.3f s CPU (%.3f s wall): %.0f evaluations per minute of "
                "CPU time (%zu layers each)\n",
                static_cast<unsigned long long>(o.repeat), cpu, wall, 60.0 * o.repeat / cpu,
                layers.size());
    return 0;
  }
  print_estimate(std::cout, npu, layers);
  if (!o.json.empty()) {
    std::ofstream out(o.json);
    out << estimate_json(npu, layers).dump(1) << "\n";
    if (!out) throw ConfigError(o.json + ": cannot write file");
  }
  if (!o.compare.empty()) return compare(std::cout, npu, layers, o.compare);
  return 0;
}

}  // namespace

int cmd_estimate(const std::vector<std::string>& args) {
  po::options_description options(kUsage);
  Options o;
  o.config = default_soc_config();
  // clang-format off
  options.add_options()
      ("help,h", "print this help")
      ("model", po::value(&o.model)->value_name("PROG"), "program file (required)")
      ("config,c", po::value(&o.config)->value_name("FILE"), "SoC description (YAML)")
      ("set", po::value(&o.sets)->composing()->value_name("KEY=VALUE"),
       "override a config value (repeatable), e.g. --set npu.cores=1")
      ("json", po::value(&o.json)->value_name("FILE"), "also write the layers as JSON")
      ("compare", po::value(&o.compare)->value_name("DIR"),
       "a `socsim run --report DIR` of the same program and SoC to set beside the estimate")
      ("repeat", po::value(&o.repeat)->value_name("N"),
       "evaluate N times and print the evaluations per minute")
      ("batch", po::value(&o.batch)->value_name("FILE"),
       "estimate the points of FILE (JSON lines), one JSON line out each");
  // clang-format on
  po::variables_map vm;
  try {
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    po::store(po::command_line_parser(rest).options(options).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << usage_error("estimate", e, options);
    return kExitUsage;
  }
  if (vm.count("help")) {
    std::cout << options << "\n";
    return 0;
  }
  if (o.model.empty() && o.batch.empty()) {
    std::cerr << "socsim estimate: --model is required\n\n" << options << "\n";
    return kExitUsage;
  }
  try {
    return run(o);
  } catch (const ConfigError& e) {
    std::cerr << "socsim estimate: " << e.what() << "\n";
    return kExitUsage;
  } catch (const nlohmann::json::exception& e) {
    std::cerr << "socsim estimate: --compare: " << e.what() << "\n";
    return kExitUsage;
  }
}

}  // namespace socsim
