// Per-layer NPU figures of convolution layers given as a SCALE-Sim topology CSV, from the
// stand-alone timing model (mac_array_timing.h with the DMA at its issue rate), for
// comparisons with other simulators (bench/npu_vs_scalesim.py) and calibration tables.
// Prints CSV: name, MACs, NPU (compute) cycles, DDR cycles, elapsed cycles.
//
// Usage: npu_layer_cycles --preset FILE [--dataflow ws|os|is] [--cores N] TOPOLOGY.csv
// Topology rows: name, ifmap height, ifmap width, filter height, filter width, channels,
// filters, stride (SCALE-Sim's columns; the ifmap already padded, outputs
// ceil((H - K + S) / S) as SCALE-Sim computes them). A name containing "DP" is a depthwise
// layer of `channels` channels. Exit status 2 for a bad argument, file or row.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "models/common/config.h"
#include "models/npu/mac_array_timing.h"
#include "models/npu/npu_config.h"
#include "models/npu/npu_functional.h"
#include "models/npu/test/conv_layer.h"

namespace {

using namespace socsim;

struct TopologyRow {
  std::string name;
  uint32_t h, w, kh, kw, c, m, stride;
};

[[noreturn]] void fail(const std::string& message) {
  std::cerr << "npu_layer_cycles: " << message << "\n";
  std::exit(2);
}

std::vector<TopologyRow> read_topology(const std::string& path) {
  std::ifstream in(path);
  if (!in) fail(path + ": cannot open");
  std::vector<TopologyRow> rows;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (n == 1 || line.find_first_not_of(" \t\r,") == std::string::npos) continue;
    std::stringstream ss(line);
    std::vector<std::string> cells;
    for (std::string cell; std::getline(ss, cell, ',');) cells.push_back(cell);
    if (cells.size() < 8) fail(path + ":" + std::to_string(n) + ": expected 8 columns");
    TopologyRow r;
    r.name = cells[0].substr(cells[0].find_first_not_of(' '));
    uint32_t* fields[] = {&r.h, &r.w, &r.kh, &r.kw, &r.c, &r.m, &r.stride};
    for (size_t i = 0; i < 7; ++i) {
      try {
        const long v = std::stol(cells[i + 1]);
        if (v < 1 || v > 65535) throw std::out_of_range("range");
        *fields[i] = static_cast<uint32_t>(v);
      } catch (const std::exception&) {
        fail(path + ":" + std::to_string(n) + ": column " + std::to_string(i + 2) +
             " is not a size in [1, 65535]: '" + cells[i + 1] + "'");
      }
    }
    if (r.kh > r.h || r.kw > r.w) fail(path + ":" + std::to_string(n) + ": filter > ifmap");
    rows.push_back(r);
  }
  return rows;
}

npu::LayerDescriptor descriptor(const TopologyRow& r) {
  return scalesim_conv_layer(r.h, r.w, r.kh, r.kw, r.c, r.m, r.stride,
                             r.name.find("DP") != std::string::npos);
}

}  // namespace

int main(int argc, char** argv) {
  std::string preset, dataflow, topology;
  int cores = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) fail(a + " needs a value");
      return argv[++i];
    };
    if (a == "--preset") {
      preset = value();
    } else if (a == "--dataflow") {
      dataflow = value();
    } else if (a == "--cores") {
      cores = std::atoi(value().c_str());
    } else if (a == "-h" || a == "--help") {
      std::cout << "usage: npu_layer_cycles --preset FILE [--dataflow ws|os|is] [--cores N] "
                   "TOPOLOGY.csv\n";
      return 0;
    } else if (topology.empty()) {
      topology = a;
    } else {
      fail("unexpected argument '" + a + "'");
    }
  }
  if (preset.empty() || topology.empty()) fail("usage: --preset FILE TOPOLOGY.csv");
  NpuConfig config;
  try {
    config = load_npu_preset(preset);
  } catch (const ConfigError& e) {
    fail(e.what());
  }
  if (dataflow == "ws") {
    config.dataflow = NpuDataflow::kWeightStationary;
  } else if (dataflow == "os") {
    config.dataflow = NpuDataflow::kOutputStationary;
  } else if (dataflow == "is") {
    config.dataflow = NpuDataflow::kInputStationary;
  } else if (!dataflow.empty()) {
    fail("--dataflow: expected ws, os or is, got '" + dataflow + "'");
  }
  if (cores > 0) config.cores = static_cast<uint32_t>(cores);
  std::cout << "name,macs,npu_cycles,ddr_cycles,elapsed_cycles\n";
  for (const TopologyRow& r : read_topology(topology)) {
    const npu::LayerDescriptor d = descriptor(r);
    if (validate_layer(d) != npu::kNpuOk) fail(topology + ": layer " + r.name + " is invalid");
    const LayerPlan plan = plan_layer(config, d);
    const ScheduleTimes t = schedule_layer(config, plan, 0, ideal_dma(config));
    std::cout << r.name << "," << plan.macs << "," << plan.compute_cycles << "," << t.dma_cycles
              << "," << t.end << "\n";
  }
  return 0;
}
