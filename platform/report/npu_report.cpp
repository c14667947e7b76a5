#include "platform/report/npu_report.h"

#include "platform/report/npu_advice.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace socsim {

namespace {

struct Row {
  uint32_t id;
  std::string op_type, dtype, target, in_shape, out_shape, name, bound, workload;
  uint64_t ddr = 0, npu = 0, total = 0;
  uint32_t tasks = 0;
  double time_us = 0, mac_usage = 0, rw_kb = 0;
  NpuLayerEnergy energy;  // unknown parts < 0
  bool on_npu = true;
};

// RKNN's WorkLoad(0/1/2): each core's share of the layer's channels, in percent.
std::string workload(const NpuLayerRecord& l, uint32_t cores) {
  uint64_t sum = 0;
  for (uint64_t w : l.core_work) sum += w;
  std::string out;
  for (uint32_t c = 0; c < cores; ++c) {
    const uint64_t w = c < l.core_work.size() ? l.core_work[c] : 0;
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.1f%%", sum ? 100.0 * w / sum : 0.0);
    out += (c ? "/" : "") + std::string(buf);
  }
  return out;
}

std::string shape(const uint32_t* s) {
  return "(" + std::to_string(s[0]) + "," + std::to_string(s[1]) + "," + std::to_string(s[2]) +
         "," + std::to_string(s[3]) + ")";
}

// The frame of each layer: a program's command lists run in the same order at every
// execution, so a frame begins whenever the first list run (by its address) starts again.
std::vector<uint32_t> frames_of(const std::vector<NpuLayerRecord>& layers) {
  std::vector<uint32_t> frames;
  uint32_t frame = 0;
  for (size_t i = 0; i < layers.size(); ++i) {
    const bool new_run = i > 0 && layers[i].run != layers[i - 1].run;
    if (new_run && layers[i].list_addr == layers.front().list_addr) ++frame;
    frames.push_back(frame);
  }
  return frames;
}

// Whether the report has energy columns: per-operation costs in the preset or DDR figures.
bool has_energy(const NpuReportInput& in) {
  return in.npu->config().energy.known ||
         std::any_of(in.ddr.begin(), in.ddr.end(),
                     [](const NpuDdrRegion& d) { return d.rates.has_value(); });
}

bool in_region(const NpuDdrRegion& d, uint64_t addr) {
  return addr >= d.base && addr - d.base < d.size;
}

// The layer's share of the DDR energy (see NpuDdrRegion), in uJ; -1 without figures.
double ddr_energy_uj(const std::vector<NpuDdrRegion>& regions, const NpuLayerRecord& l,
                     double time_us) {
  if (std::none_of(regions.begin(), regions.end(),
                   [](const NpuDdrRegion& d) { return d.rates.has_value(); })) {
    return -1;
  }
  double pj = 0;
  for (const NpuDdrRegion& d : regions) {
    if (!d.rates) continue;
    double read = 0, written = 0;
    for (uint32_t slot = 0; slot < npu::kAddrCount; ++slot) {
      if (l.operand_bytes[slot] == 0 || !in_region(d, l.addr[slot])) continue;
      (slot == npu::kAddrOutput ? written : read) += static_cast<double>(l.operand_bytes[slot]);
    }
    pj += d.rates->energy_pj(read, written, time_us * 1000.0);
  }
  return pj / 1e6;
}

// Layers of the last frame; CPU operators after them.
std::vector<Row> rows_of(const NpuReportInput& in) {
  std::vector<Row> rows;
  const auto& layers = in.npu->layers();
  const std::vector<uint32_t> frames = frames_of(layers);
  const uint32_t last = frames.empty() ? 0 : frames.back();
  const double mhz = in.npu->config().clock_mhz;
  for (size_t i = 0; i < layers.size(); ++i) {
    const NpuLayerRecord& l = layers[i];
    if (frames[i] != last) continue;
    Row r;
    r.id = static_cast<uint32_t>(rows.size() + 1);
    r.op_type = l.op_type;
    r.dtype = "INT8";
    r.target = "NPU";
    r.in_shape = shape(l.in_shape);
    r.out_shape = shape(l.out_shape);
    r.name = l.name;
    r.ddr = l.ddr_cycles;
    r.npu = l.npu_cycles;
    r.total = l.total_cycles();
    r.time_us = l.elapsed_cycles / mhz;
    r.workload = workload(l, in.npu->config().cores);
    r.tasks = l.tasks;
    r.mac_usage = 100.0 * l.mac_usage;
    r.rw_kb = (l.read_bytes + l.write_bytes) / 1024.0;
    r.bound = npu_bound(l, &in.ddr);
    r.energy = npu_layer_energy(in.npu->config(), l, in.ddr);
    rows.push_back(r);
  }
  for (const CpuOperatorRecord& c : in.cpu_ops) {
    Row r;
    r.id = static_cast<uint32_t>(rows.size() + 1);
    r.op_type = c.op_type;
    r.dtype = c.data_type;
    r.target = "CPU";
    r.in_shape = c.in_shape;
    r.out_shape = c.out_shape;
    r.name = c.name;
    r.total = c.cpu_cycles;
    r.time_us = in.cpu_mhz > 0 ? c.cpu_cycles / in.cpu_mhz : 0;
    r.bound = "-";
    r.workload = "-";
    r.on_npu = false;
    rows.push_back(r);
  }
  return rows;
}

// The records of the last frame.
std::vector<NpuLayerRecord> last_frame_layers(const NpuReportInput& in) {
  const auto& layers = in.npu->layers();
  const std::vector<uint32_t> frames = frames_of(layers);
  std::vector<NpuLayerRecord> out;
  for (size_t i = 0; i < layers.size(); ++i) {
    if (frames[i] == frames.back()) out.push_back(layers[i]);
  }
  return out;
}

std::vector<NpuFinding> findings_of(const NpuReportInput& in) {
  return npu_findings(in.npu->config(), last_frame_layers(in), in.cpu_ops, in.cpu_mhz, &in.ddr);
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

}  // namespace

NpuDdrTraffic npu_ddr_traffic(const NpuLayerRecord& l, const std::vector<NpuDdrRegion>& regions) {
  auto in_ddr = [&](uint64_t addr) {
    return std::any_of(regions.begin(), regions.end(),
                       [&](const NpuDdrRegion& d) { return in_region(d, addr); });
  };
  // The operand slots of each stream (npu.cpp streams them in this order).
  const std::vector<uint32_t> streams[3] = {
      {npu::kAddrInput}, {npu::kAddrWeights, npu::kAddrBias, npu::kAddrRequant},
      {npu::kAddrOutput}};
  NpuDdrTraffic t;
  for (int s = 0; s < 3; ++s) {
    uint64_t total = 0, ddr = 0;
    for (uint32_t slot : streams[s]) {
      total += l.operand_bytes[slot];
      if (l.operand_bytes[slot] != 0 && in_ddr(l.addr[slot])) ddr += l.operand_bytes[slot];
    }
    if (total == 0) continue;
    // Rounded to the nearest byte: a stream wraps around its operands, so each one's share
    // of the stream's bytes is its share of the operand bytes.
    const uint64_t bytes = (l.stream_bytes[s] * ddr + total / 2) / total;
    (s == 2 ? t.written : t.read) += bytes;
  }
  if (in_ddr(l.list_addr + uint64_t{l.index} * npu::kDescriptorSize)) {
    t.read += npu::kDescriptorSize;
  }
  return t;
}

std::string npu_bound(const NpuLayerRecord& l, const std::vector<NpuDdrRegion>* regions) {
  if (!l.bandwidth_bound()) return "compute";
  if (regions == nullptr) return "ddr";
  const NpuDdrTraffic t = npu_ddr_traffic(l, *regions);
  return 2 * (t.read + t.written) >= l.read_bytes + l.write_bytes ? "ddr" : "on-chip-dma";
}

double NpuLayerEnergy::total_uj() const {
  double sum = 0;
  bool any = false;
  for (double part : {mac_uj, buffer_uj, ddr_uj}) {
    if (part < 0) continue;
    sum += part;
    any = true;
  }
  return any ? sum : -1;
}

NpuLayerEnergy npu_layer_energy(const NpuConfig& c, const NpuLayerRecord& l,
                                const std::vector<NpuDdrRegion>& regions) {
  NpuLayerEnergy e;
  if (c.energy.known) {
    e.mac_uj = static_cast<double>(l.macs) * c.energy.mac_pj[0] / 1e6;  // int8
    e.buffer_uj =
        2.0 * static_cast<double>(l.read_bytes + l.write_bytes) * c.energy.buffer_pj_per_byte / 1e6;
  }
  e.ddr_uj = ddr_energy_uj(regions, l, l.elapsed_cycles / c.clock_mhz);
  return e;
}

namespace {

// What the table's rows of the last frame add up to.
struct FrameTotals {
  double total_us = 0, npu_us = 0, cpu_us = 0;
  NpuLayerEnergy energy{0, 0, 0};
};

// The layers of the last frame (frames_of) and the command lists they came from.
struct LastFrame {
  std::vector<uint32_t> frames;  ///< frames_of(layers): each layer's frame
  uint32_t last = 0;
  std::set<uint32_t> lists;      ///< the runs (command lists) of the last frame
};

LastFrame last_frame_of(const std::vector<NpuLayerRecord>& layers) {
  LastFrame f;
  f.frames = frames_of(layers);
  f.last = f.frames.empty() ? 0 : f.frames.back();
  for (size_t i = 0; i < layers.size(); ++i) {
    if (f.frames[i] == f.last) f.lists.insert(layers[i].run);
  }
  return f;
}

// "NPU 'npu' (preset: cores x rows x columns MACs at f MHz) per-layer report, ..."
void print_report_title(std::ostream& out, const NpuReportInput& in, const LastFrame& frame) {
  const NpuConfig& c = in.npu->config();
  out << "\nNPU '" << in.npu->basename() << "' (" << c.name << ": " << c.cores << " x "
      << c.rows << "x" << c.columns << " MACs at " << fmt("%g", c.clock_mhz)
      << " MHz) per-layer report, "
      << frame.lists.size() << " command list(s)";
  if (frame.last > 0) out << ", last of " << frame.last + 1 << " frames";
  out << ":\n";
}

// The table: a header and a row per layer, RKNN's columns (and the energy's when known).
FrameTotals print_layer_table(std::ostream& out, const std::vector<Row>& rows, bool energy) {
  char line[512];
  const char* head =
      "%-4s %-18s %-8s %-6s %-18s %-18s %10s %10s %12s %10s %11s %-20s %10s %10s %s%-11s %s\n";
  std::snprintf(line, sizeof line, head, "ID", "OpType", "DataType", "Target", "InputShape",
                "OutputShape", "DDRCycles", "NPUCycles", "TotalCycles", "Time(us)",
                "MacUsage(%)", "WorkLoad(0/1/2)", "TaskNumber", "RW(KB)",
                energy ? "   MAC(uJ) Buffer(uJ)    DDR(uJ) Energy(uJ) " : "", "Bound", "FullName");
  out << line;
  FrameTotals totals;
  auto cell = [](double uj) { return uj >= 0 ? fmt("%10.3f ", uj) : std::string("         - "); };
  for (const Row& r : rows) {
    const std::string energy_cell =
        !energy ? ""
                : cell(r.energy.mac_uj) + cell(r.energy.buffer_uj) + cell(r.energy.ddr_uj) +
                      cell(r.energy.total_uj());
    std::snprintf(
        line, sizeof line,
        "%-4u %-18s %-8s %-6s %-18s %-18s %10s %10s %12s %10.1f %11s %-20s %10s %10.1f %s%-11s %s\n",
        r.id, r.op_type.c_str(), r.dtype.c_str(), r.target.c_str(), r.in_shape.c_str(),
        r.out_shape.c_str(), r.on_npu ? std::to_string(r.ddr).c_str() : "-",
        r.on_npu ? std::to_string(r.npu).c_str() : "-",
        r.on_npu ? std::to_string(r.total).c_str() : "-", r.time_us,
        r.on_npu ? fmt("%.2f", r.mac_usage).c_str() : "-", r.workload.c_str(),
        r.on_npu ? std::to_string(r.tasks).c_str() : "-", r.rw_kb, energy_cell.c_str(),
        r.bound.c_str(), r.name.c_str());
    out << line;
    if (r.energy.mac_uj > 0) totals.energy.mac_uj += r.energy.mac_uj;
    if (r.energy.buffer_uj > 0) totals.energy.buffer_uj += r.energy.buffer_uj;
    if (r.energy.ddr_uj > 0) totals.energy.ddr_uj += r.energy.ddr_uj;
    totals.total_us += r.time_us;
    (r.on_npu ? totals.npu_us : totals.cpu_us) += r.time_us;
  }
  return totals;
}

// The footer: time, memory traffic (and DDR's share) and energy per frame.
void print_frame_totals(std::ostream& out, const NpuReportInput& in, const LastFrame& frame,
                        const FrameTotals& totals, bool energy) {
  const auto& layers = in.npu->layers();
  double read_kb = 0, write_kb = 0, ddr_read_kb = 0, ddr_write_kb = 0;
  for (size_t i = 0; i < layers.size(); ++i) {
    if (frame.frames[i] != frame.last) continue;
    read_kb += layers[i].read_bytes / 1024.0;
    write_kb += layers[i].write_bytes / 1024.0;
    const NpuDdrTraffic t = npu_ddr_traffic(layers[i], in.ddr);
    ddr_read_kb += t.read / 1024.0;
    ddr_write_kb += t.written / 1024.0;
  }
  out << "Total Operator Elapsed Per Frame Time(us): " << fmt("%.1f", totals.total_us)
      << "  (NPU " << fmt("%.1f", totals.npu_us) << ", CPU " << fmt("%.1f", totals.cpu_us)
      << ")\n";
  out << "Total Memory Read/Write Per Frame (KB): " << fmt("%.1f", read_kb) << " / "
      << fmt("%.1f", write_kb) << "  (of which DDR " << fmt("%.1f", ddr_read_kb) << " / "
      << fmt("%.1f", ddr_write_kb) << ")\n";
  if (energy) {
    const NpuLayerEnergy& e = totals.energy;
    out << "Energy of the NPU layers per frame (uJ): " << fmt("%.3f", e.total_uj()) << "  (MAC "
        << fmt("%.3f", e.mac_uj) << ", buffer " << fmt("%.3f", e.buffer_uj) << ", DDR "
        << fmt("%.3f", e.ddr_uj)
        << "; DDR: operands in DDR once each at the NPU's measured energy per byte, plus DDR "
           "standby and refresh over each layer's time)\n";
  }
  if (in.cpu_ops.empty()) {
    out << "CPU operators: no probe records (the CPU's operators appear here when probes "
           "measure them)\n";
  }
}

// Operator types ranked by time.
void print_type_ranking(std::ostream& out, const std::vector<Row>& rows, double total_us) {
  struct TypeTotal {
    uint32_t count = 0;
    double cpu_us = 0, npu_us = 0;
  };
  std::map<std::string, TypeTotal> types;
  for (const Row& r : rows) {
    TypeTotal& t = types[r.op_type];
    ++t.count;
    (r.on_npu ? t.npu_us : t.cpu_us) += r.time_us;
  }
  std::vector<std::pair<std::string, TypeTotal>> ranked(types.begin(), types.end());
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.second.cpu_us + a.second.npu_us > b.second.cpu_us + b.second.npu_us;
  });
  char line[512];
  out << "\nOperator types by time:\n";
  std::snprintf(line, sizeof line, "%-18s %6s %12s %12s %12s %8s\n", "OpType", "Calls",
                "CPUTime(us)", "NPUTime(us)", "Total(us)", "Ratio(%)");
  out << line;
  for (const auto& [name, t] : ranked) {
    const double sum = t.cpu_us + t.npu_us;
    std::snprintf(line, sizeof line, "%-18s %6u %12.1f %12.1f %12.1f %8.2f\n", name.c_str(),
                  t.count, t.cpu_us, t.npu_us, sum, total_us > 0 ? 100.0 * sum / total_us : 0);
    out << line;
  }
}

// Memory the NPU's layers touched: weights (with bias and requantisation tables),
// activations, command lists; each address counted once.
void print_memory(std::ostream& out, const NpuReportInput& in, const LastFrame& frame) {
  std::map<uint32_t, uint64_t> weights, tensors;
  for (const NpuLayerRecord& l : in.npu->layers()) {
    for (uint32_t s : {npu::kAddrWeights, npu::kAddrBias, npu::kAddrRequant}) {
      if (l.operand_bytes[s] == 0) continue;
      // add/mul: the second operand is an activation, not a weight
      const bool activation = l.op_type.rfind("Add", 0) == 0 || l.op_type.rfind("Mul", 0) == 0;
      (activation ? tensors : weights)[l.addr[s]] = l.operand_bytes[s];
    }
    tensors[l.addr[npu::kAddrInput]] = l.operand_bytes[npu::kAddrInput];
    tensors[l.addr[npu::kAddrOutput]] = l.operand_bytes[npu::kAddrOutput];
  }
  auto sum = [](const std::map<uint32_t, uint64_t>& m) {
    uint64_t s = 0;
    for (const auto& e : m) s += e.second;
    return s;
  };
  const auto layers_in_frame =
      static_cast<uint32_t>(std::count(frame.frames.begin(), frame.frames.end(), frame.last));
  const double w_kb = sum(weights) / 1024.0, t_kb = sum(tensors) / 1024.0;
  const double o_kb = layers_in_frame * npu::kDescriptorSize / 1024.0;
  out << "\nMemory (KB): weights " << fmt("%.1f", w_kb) << ", internal tensors "
      << fmt("%.1f", t_kb) << " (touched, before buffer reuse), other (command list) "
      << fmt("%.1f", o_kb) << ", total " << fmt("%.1f", w_kb + t_kb + o_kb) << "\n";
}

}  // namespace

void print_npu_report(std::ostream& out, const NpuReportInput& in) {
  const std::vector<Row> rows = rows_of(in);
  const LastFrame frame = last_frame_of(in.npu->layers());
  const bool energy = has_energy(in);
  print_report_title(out, in, frame);
  const FrameTotals totals = print_layer_table(out, rows, energy);
  print_frame_totals(out, in, frame, totals, energy);
  print_type_ranking(out, rows, totals.total_us);
  print_memory(out, in, frame);
  print_npu_findings(out, findings_of(in));
}

nlohmann::json npu_report_json(const NpuReportInput& in) {
  const NpuConfig& c = in.npu->config();
  nlohmann::json layers = nlohmann::json::array();
  uint64_t bytes = 0, ddr_cycles = 0;
  const std::vector<uint32_t> frames = frames_of(in.npu->layers());
  // The last frame's energy, summed over its layers (uJ; parts no layer knows stay null).
  nlohmann::json frame_energy = {{"mac", nullptr}, {"buffer", nullptr}, {"ddr", nullptr},
                                 {"total", nullptr}};
  for (size_t i = 0; i < frames.size(); ++i) {
    const NpuLayerRecord& l = in.npu->layers()[i];
    layers.push_back({{"frame", frames[i]},
                      {"run", l.run},
                      {"index", l.index},
                      {"name", l.name},
                      {"op_type", l.op_type},
                      {"data_type", "INT8"},
                      {"target", "NPU"},
                      {"input_shape", shape(l.in_shape)},
                      {"output_shape", shape(l.out_shape)},
                      {"macs", l.macs},
                      {"cores_used", l.cores_used},
                      {"workload", workload(l, c.cores)},
                      {"task_number", l.tasks},
                      {"start_cycle", l.start_cycle},
                      {"ddr_cycles", l.ddr_cycles},
                      {"npu_cycles", l.npu_cycles},
                      {"total_cycles", l.total_cycles()},
                      {"elapsed_cycles", l.elapsed_cycles},
                      {"time_us", l.elapsed_cycles / c.clock_mhz},
                      {"mac_usage_percent", 100.0 * l.mac_usage},
                      {"rw_kb", (l.read_bytes + l.write_bytes) / 1024.0},
                      {"read_bytes", l.read_bytes},
                      {"write_bytes", l.write_bytes},
                      {"ddr_read_bytes", npu_ddr_traffic(l, in.ddr).read},
                      {"ddr_write_bytes", npu_ddr_traffic(l, in.ddr).written},
                      {"bound", npu_bound(l, &in.ddr)}});
    const NpuLayerEnergy e = npu_layer_energy(c, l, in.ddr);
    auto uj = [](double v) { return v >= 0 ? nlohmann::json(v) : nlohmann::json(nullptr); };
    layers.back()["mac_energy_uj"] = uj(e.mac_uj);
    layers.back()["buffer_energy_uj"] = uj(e.buffer_uj);
    layers.back()["ddr_energy_uj"] = uj(e.ddr_uj);
    layers.back()["energy_uj"] = uj(e.total_uj());
    if (frames[i] == frames.back()) {
      for (auto [key, part] : {std::pair{"mac", e.mac_uj}, std::pair{"buffer", e.buffer_uj},
                               std::pair{"ddr", e.ddr_uj}, std::pair{"total", e.total_uj()}}) {
        if (part < 0) continue;
        const nlohmann::json& sum = frame_energy[key];
        frame_energy[key] = (sum.is_null() ? 0.0 : sum.get<double>()) + part;
      }
    }
    bytes += l.read_bytes + l.write_bytes;
    ddr_cycles += l.ddr_cycles;
  }
  nlohmann::json cpu = nlohmann::json::array();
  for (const CpuOperatorRecord& op : in.cpu_ops) {
    cpu.push_back({{"name", op.name}, {"op_type", op.op_type}, {"data_type", op.data_type},
                   {"target", "CPU"},
                   {"cpu_cycles", op.cpu_cycles},
                   {"time_us", in.cpu_mhz > 0 ? op.cpu_cycles / in.cpu_mhz : 0.0}});
  }
  return {{"npu", in.npu->basename()},
          {"preset", c.name},
          {"clock_mhz", c.clock_mhz},
          {"cores", c.cores},
          {"rows", c.rows},
          {"columns", c.columns},
          {"peak_macs_per_cycle", c.peak_macs_per_cycle(NpuDataType::kInt8)},
          {"peak_ops_per_s", 2.0 * c.peak_macs_per_cycle(NpuDataType::kInt8) * c.clock_mhz * 1e6},
          {"dma_bytes_per_cycle", c.dma.bytes_per_cycle},
          {"measured_ddr_bytes_per_s",
           ddr_cycles ? bytes / (ddr_cycles / (c.clock_mhz * 1e6)) : 0.0},
          {"layers", layers},
          {"frame_energy_uj", frame_energy},
          {"cpu_operators", cpu},
          {"advice", npu_findings_json(findings_of(in))}};
}

void write_npu_report_csv(std::ostream& out, const NpuReportInput& in) {
  out << "ID,OpType,DataType,Target,InputShape,OutputShape,DDRCycles,NPUCycles,TotalCycles,"
         "Time(us),MacUsage(%),WorkLoad(0/1/2),TaskNumber,RW(KB),MAC(uJ),Buffer(uJ),DDR(uJ),"
         "Energy(uJ),Bound,FullName\n";
  auto uj = [](double v) { return v >= 0 ? fmt("%.4f", v) : std::string(); };
  for (const Row& r : rows_of(in)) {
    out << r.id << "," << r.op_type << "," << r.dtype << "," << r.target << ",\"" << r.in_shape
        << "\",\"" << r.out_shape << "\"," << (r.on_npu ? std::to_string(r.ddr) : "") << ","
        << (r.on_npu ? std::to_string(r.npu) : "") << ","
        << (r.on_npu ? std::to_string(r.total) : "") << "," << fmt("%.3f", r.time_us) << ","
        << (r.on_npu ? fmt("%.2f", r.mac_usage) : "") << "," << r.workload << ","
        << (r.on_npu ? std::to_string(r.tasks) : "") << "," << fmt("%.2f", r.rw_kb) << ","
        << uj(r.energy.mac_uj) << "," << uj(r.energy.buffer_uj) << "," << uj(r.energy.ddr_uj)
        << "," << uj(r.energy.total_uj()) << ","
        << r.bound << "," << r.name << "\n";
  }
}

}  // namespace socsim
