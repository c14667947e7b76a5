#include "platform/report/npu_advice.h"

#include <algorithm>
#include <cstdio>

namespace socsim {

namespace {

// Thresholds of the guide: a layer is time-consuming at 5 % of the frame's NPU time, its
// MAC usage low under 30 %; outputs of fewer than 16 pixels and weights over 6 KiB per
// output channel lower the array's utilisation.
constexpr double kBusyShare = 0.05;
constexpr double kLowUsage = 0.30;
constexpr uint64_t kMinOutputPixels = 16;
constexpr uint64_t kWeightGuideBytes = 6 * 1024;

bool on_array(const NpuLayerRecord& l) { return l.macs > 0; }

// Cycles the layer's MACs need on the cores it used at full use.
uint64_t ideal_cycles(const NpuConfig& c, const NpuLayerRecord& l) {
  const double peak = c.throughput[0] * c.rows * c.columns * std::max(1u, l.cores_used);
  return static_cast<uint64_t>(static_cast<double>(l.macs) / peak + 0.999999);
}

uint64_t excess(const NpuConfig& c, const NpuLayerRecord& l) {
  const uint64_t ideal = ideal_cycles(c, l);
  return l.elapsed_cycles > ideal ? l.elapsed_cycles - ideal : 0;
}

std::string pct(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", 100.0 * v);
  return buf;
}

uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

void channel_alignment(const NpuConfig& c, const NpuLayerRecord& l,
                       std::vector<NpuFinding>* out) {
  const NpuAlignment& al = c.alignment[0];
  const bool depthwise = l.op_type.rfind("DepthwiseConv", 0) == 0;
  const uint64_t cin = l.in_shape[1], cout = l.out_shape[1];
  double real = 0, padded = 0;
  if (depthwise) {
    real = static_cast<double>(cout);
    padded = static_cast<double>(align_up(cout, al.depthwise));
  } else {
    // Kh x Kw from the weights (Cout x Cin x Kh x Kw bytes); packed: Kh*Kw*Cin padded once.
    const uint64_t taps = std::max<uint64_t>(1, l.operand_bytes[npu::kAddrWeights] /
                                                    std::max<uint64_t>(1, cin * cout));
    const bool packed = c.small_cin_packing && cin < al.conv_input;
    const uint64_t reduction = packed ? align_up(taps * cin, al.conv_input)
                                      : taps * align_up(cin, al.conv_input);
    real = static_cast<double>(taps * cin * cout);
    padded = static_cast<double>(reduction * align_up(cout, al.conv_output));
  }
  if (padded <= real) return;
  const uint64_t stake = static_cast<uint64_t>(l.npu_cycles * (1.0 - real / padded));
  if (stake == 0) return;
  const std::string what = depthwise ? std::to_string(cout) + " channels (depthwise alignment " +
                                           std::to_string(al.depthwise) + ")"
                                     : "Cin " + std::to_string(cin) + " / Cout " +
                                           std::to_string(cout) + " (alignment " +
                                           std::to_string(al.conv_input) + "/" +
                                           std::to_string(al.conv_output) + ")";
  out->push_back({"channel_alignment", l.name, stake,
                  what + ": padding wastes " + pct(1.0 - real / padded) +
                      " of the array's work; aligned channel counts cost no more cycles"});
}

}  // namespace

std::vector<NpuFinding> npu_findings(const NpuConfig& c, const std::vector<NpuLayerRecord>& frame,
                                     const std::vector<CpuOperatorRecord>& cpu_ops,
                                     double cpu_mhz) {
  std::vector<NpuFinding> out;
  uint64_t frame_cycles = 0;
  for (const NpuLayerRecord& l : frame) frame_cycles += l.elapsed_cycles;
  for (const NpuLayerRecord& l : frame) {
    const bool busy = frame_cycles > 0 && l.elapsed_cycles >= kBusyShare * frame_cycles;
    if (on_array(l) && busy && l.mac_usage < kLowUsage) {
      out.push_back({"low_mac_usage", l.name, excess(c, l),
                     "takes " + pct(double(l.elapsed_cycles) / frame_cycles) +
                         " of the frame at MacUsage " + pct(l.mac_usage) +
                         ": the first layer to optimise"});
    }
    if (on_array(l)) channel_alignment(c, l, &out);
    const uint64_t pixels = uint64_t{l.out_shape[2]} * l.out_shape[3];
    if (on_array(l) && l.out_shape[0] == 1 && pixels < kMinOutputPixels &&
        l.op_type.rfind("FullyConnected", 0) != 0) {
      out.push_back({"small_output", l.name, excess(c, l),
                     "output H x W = " + std::to_string(pixels) +
                         " < 16: the array streams too few pixels per fold"});
    }
    const uint64_t weights = l.operand_bytes[npu::kAddrWeights];
    if (on_array(l) && l.out_shape[1] > 0 && weights / l.out_shape[1] > kWeightGuideBytes) {
      out.push_back({"large_weights", l.name, excess(c, l),
                     std::to_string(weights / l.out_shape[1]) +
                         " weight bytes per output channel (Kh x Kw x Cin) > 6 KiB: "
                         "utilisation drops; split the reduction or use fewer input channels"});
    }
    if (l.bandwidth_bound()) {
      out.push_back({"bandwidth_bound", l.name, l.ddr_cycles - l.npu_cycles,
                     "DDR " + std::to_string(l.ddr_cycles) + " > NPU " +
                         std::to_string(l.npu_cycles) +
                         " cycles: bandwidth-bound; more MACs per byte (more output channels "
                         "per input read, wider and shorter tensors) would hide the transfer"});
    }
  }
  const double npu_per_cpu = cpu_mhz > 0 ? c.clock_mhz / cpu_mhz : 0;
  for (const CpuOperatorRecord& op : cpu_ops) {
    out.push_back({"cpu_operator", op.name,
                   static_cast<uint64_t>(static_cast<double>(op.cpu_cycles) * npu_per_cpu),
                   op.op_type + " (" + op.data_type +
                       ") runs on the CPU: this NPU has no layer for it (unsupported operator "
                       "for the preset's operator list); an equivalent NPU operator or "
                       "removing it from the graph saves its time"});
  }
  std::stable_sort(out.begin(), out.end(), [](const NpuFinding& a, const NpuFinding& b) {
    return a.cycles_at_stake > b.cycles_at_stake;
  });
  return out;
}

void print_npu_findings(std::ostream& out, const std::vector<NpuFinding>& findings) {
  out << "\nAdvice (" << findings.size() << " findings, NPU cycles at stake):\n";
  for (const NpuFinding& f : findings) {
    char head[160];
    std::snprintf(head, sizeof head, "  %-18s %-24s %10llu  ", f.rule.c_str(), f.layer.c_str(),
                  static_cast<unsigned long long>(f.cycles_at_stake));
    out << head << f.text << "\n";
  }
}

nlohmann::json npu_findings_json(const std::vector<NpuFinding>& findings) {
  nlohmann::json out = nlohmann::json::array();
  for (const NpuFinding& f : findings) {
    out.push_back({{"rule", f.rule},
                   {"layer", f.layer},
                   {"cycles_at_stake", f.cycles_at_stake},
                   {"text", f.text}});
  }
  return out;
}

}  // namespace socsim
