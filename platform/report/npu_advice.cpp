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

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// Kh (= Kw) and the stride of a convolution from its record: the taps from the weight bytes
// (Cout x Cin/groups x Kh x Kw, square kernels), the stride from the input and output heights
// (Ho = ceil(H / S) with "same" padding, floor((H - K) / S) + 1 without: H / Ho rounded).
// False when the record does not give them (a non-square kernel).
bool kernel_and_stride(const NpuLayerRecord& l, uint64_t* k, uint64_t* stride) {
  const bool depthwise = starts_with(l.op_type, "DepthwiseConv");
  const uint64_t cin_g = depthwise ? 1 : l.in_shape[1], cout = l.out_shape[1];
  const uint64_t ho = l.out_shape[2];
  if (cin_g == 0 || cout == 0 || ho == 0) return false;
  const uint64_t taps = l.operand_bytes[npu::kAddrWeights] / (cin_g * cout);
  uint64_t kk = 1;
  while ((kk + 1) * (kk + 1) <= taps) ++kk;
  if (kk * kk != taps) return false;
  *k = kk;
  *stride = std::max<uint64_t>(1, (l.in_shape[2] + ho / 2) / ho);
  return true;
}

// Kernel smaller than the stride (RKNN2 5.2.5.2: the larger Ksize / Kstride, the higher the
// utilisation): of every S x S input pixels the windows use K x K, yet the DMA reads the
// input rows whole, so up to 1 - (K/S)^2 of the input bytes move for nothing. At stake when
// the layer is bandwidth-bound: those bytes' DMA cycles (every core reads the input), at most
// the DDR cycles above the NPU cycles. K >= S changes only the MACs per byte, which
// bandwidth_bound covers.
void kernel_stride(const NpuConfig& c, const NpuLayerRecord& l, std::vector<NpuFinding>* out) {
  uint64_t k = 0, s = 0;
  if (!starts_with(l.op_type, "Conv") && !starts_with(l.op_type, "DepthwiseConv")) return;
  if (!kernel_and_stride(l, &k, &s) || k >= s || !l.bandwidth_bound()) return;
  const double unused = 1.0 - double(k * k) / double(s * s);
  const double bytes = unused * l.operand_bytes[npu::kAddrInput] * std::max(1u, l.cores_used);
  const uint64_t stake = std::min<uint64_t>(
      l.ddr_cycles - l.npu_cycles, static_cast<uint64_t>(bytes / c.dma.bytes_per_cycle));
  if (stake == 0) return;
  out->push_back({"kernel_stride", l.name, stake,
                  "Ksize " + std::to_string(k) + " < Kstride " + std::to_string(s) + ": " +
                      pct(unused) +
                      " of the input is read and never used (at most); subsample it where it is "
                      "produced, or use Ksize >= Kstride"});
}

// A 1x1 layer under the preset's floor (pointwise_channels_per_cycle = N: ceil(M / N)
// cycles per output pixel for M aligned output channels of a core, docs/npu.md "1x1 floor"):
// the floor does not depend on Cin, so up to R x floor(ceil(M / N) / ceil(M / C)) input
// channels cost the same cycles. At stake: the cycles the floor added, as far as they show
// above the layer's DMA (NPU - max(NPU - floor, DDR)).
void pointwise_floor(const NpuConfig& c, const NpuLayerRecord& l, std::vector<NpuFinding>* out) {
  const uint64_t n = c.pointwise_channels_per_cycle;
  if (n == 0 || l.pointwise_floor_cycles == 0 || l.pointwise_floor_cycles > l.npu_cycles) return;
  const uint64_t hidden = std::max(l.npu_cycles - l.pointwise_floor_cycles, l.ddr_cycles);
  if (hidden >= l.npu_cycles) return;  // bandwidth-bound: the DMA hides the floor
  const uint64_t stake = l.npu_cycles - hidden;
  // The largest core's channels (the record's WorkLoad), aligned.
  uint64_t share = l.core_work.empty() ? l.out_shape[1] : 0;
  for (uint64_t w : l.core_work) share = std::max(share, w);
  const uint64_t m = align_up(share, c.alignment[0].conv_output);
  const uint64_t per_pixel = (m + n - 1) / n;
  const uint64_t column_folds = (m + c.columns - 1) / c.columns;
  const uint64_t fold_per_pixel = (l.in_shape[1] + c.rows - 1) / c.rows * column_folds;
  const uint64_t free_cin = c.rows * (per_pixel / column_folds);
  out->push_back({"pointwise_floor", l.name, stake,
                  "1x1 Cin " + std::to_string(l.in_shape[1]) + " -> Cout " +
                      std::to_string(l.out_shape[1]) + " at the floor of " +
                      std::to_string(per_pixel) + " cycles per output pixel (" + std::to_string(m) +
                      " aligned output channels of a core / " + std::to_string(n) +
                      "), its folds need " + std::to_string(fold_per_pixel) + ": " +
                      std::to_string(l.pointwise_floor_cycles) +
                      " cycles above the folds; up to Cin " + std::to_string(free_cin) +
                      " costs the same array cycles (widening or merging its input is free on the "
                      "array, not on the DMA)"});
}

// A lookup whose product with its own input is one lookup (RKNN2 5.2.4.2 / 5.2.5.3: fusions
// the graph missed): x * sigmoid(x) = SiLU, x * hardsigmoid(x) = HardSwish. A Mul of x and
// L(x) on the NPU, with the fused operator in the preset: the fused lookup costs what L(x)
// costs, so the Mul's whole time is at stake.
void missed_fusions(const NpuConfig& c, const std::vector<NpuLayerRecord>& frame,
                    std::vector<NpuFinding>* out) {
  struct Pattern {
    const char *lookup, *fused, *preset_name;
  };
  const Pattern patterns[] = {{"Sigmoid", "SiLU", "silu"},
                              {"HardSigmoid", "HardSwish", "hardswish"}};
  for (const NpuLayerRecord& mul : frame) {
    if (!starts_with(mul.op_type, "Mul")) continue;
    const uint32_t a = mul.addr[npu::kAddrInput], b = mul.addr[npu::kAddrWeights];
    for (const NpuLayerRecord& l : frame) {
      for (const Pattern& p : patterns) {
        if (l.op_type != p.lookup || c.operators.count(p.preset_name) == 0) continue;
        const uint32_t x = l.addr[npu::kAddrInput], y = l.addr[npu::kAddrOutput];
        if (!((a == x && b == y) || (a == y && b == x))) continue;
        out->push_back({"missed_fusion", mul.name, mul.elapsed_cycles,
                        std::string(p.lookup) + " '" + l.name + "' times its own input is " +
                            p.fused + ": one " + p.fused +
                            " lookup instead of the lookup and this Mul (check why the "
                            "compiler's fusion did not match: another consumer, a different "
                            "input)"});
      }
    }
  }
}

}  // namespace

// A DMA-bound layer (DMA cycles above its NPU cycles), with the action that fits what bounds
// it: DDR traffic (more MACs per byte where the layer has MACs; a faster DDR preset), or
// operands already in SRAM (only the DMA engine's rate would help). An elementwise layer in
// DDR cannot gain MACs per byte, so it is not told to.
namespace {

void dma_bound(const NpuConfig& c, const NpuLayerRecord& l, const std::vector<NpuDdrRegion>* ddr,
               std::vector<NpuFinding>* out) {
  const std::string bound = npu_bound(l, ddr);
  if (bound == "compute") return;
  const std::string cycles = "DMA " + std::to_string(l.ddr_cycles) + " > NPU " +
                             std::to_string(l.npu_cycles) + " cycles";
  if (bound == "on-chip-dma") {
    out->push_back({"on_chip_dma_bound", l.name, l.ddr_cycles - l.npu_cycles,
                    cycles + ": on-chip-DMA-bound (its operands lie in SRAM, little or no DDR "
                             "traffic): the DMA engine's rate sets its time (npu.dma."
                             "bytes_per_cycle = " + std::to_string(c.dma.bytes_per_cycle) +
                             "); the DDR and the array do not"});
    return;
  }
  const std::string action =
      on_array(l) ? "more MACs per byte (more output channels per input read, wider and "
                    "shorter tensors) or a faster DDR preset (memory_map.ddr.preset) would "
                    "hide the transfer"
                  : "a layer without MACs cannot gain MACs per byte; a faster DDR preset "
                    "(memory_map.ddr.preset) shortens it";
  out->push_back({"bandwidth_bound", l.name, l.ddr_cycles - l.npu_cycles,
                  cycles + ": DDR-bound; " + action});
}

}  // namespace

std::vector<NpuFinding> npu_findings(const NpuConfig& c, const std::vector<NpuLayerRecord>& frame,
                                     const std::vector<CpuOperatorRecord>& cpu_ops,
                                     double cpu_mhz, const std::vector<NpuDdrRegion>* ddr) {
  std::vector<NpuFinding> out;
  uint64_t frame_cycles = 0;
  for (const NpuLayerRecord& l : frame) frame_cycles += l.elapsed_cycles;
  for (const NpuLayerRecord& l : frame) {
    const bool busy = frame_cycles > 0 && l.elapsed_cycles >= kBusyShare * frame_cycles;
    if (on_array(l) && busy && l.mac_usage < kLowUsage) {
      out.push_back({"low_mac_usage", l.name, excess(c, l),
                     "takes " + pct(double(l.elapsed_cycles) / frame_cycles) +
                         " of the frame at MacUsage " + pct(l.mac_usage)});
    }
    if (on_array(l)) channel_alignment(c, l, &out);
    if (on_array(l)) kernel_stride(c, l, &out);
    if (on_array(l)) pointwise_floor(c, l, &out);
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
    dma_bound(c, l, ddr, &out);
  }
  missed_fusions(c, frame, &out);
  const double npu_per_cpu = cpu_mhz > 0 ? c.clock_mhz / cpu_mhz : 0;
  for (const CpuOperatorRecord& op : cpu_ops) {
    // A quantize of the model's float input: the compiler can read an integer image instead
    // and normalise it in a first NPU layer (compile_model.py --input-type, docs/compiler.md).
    const bool float_input = starts_with(op.op_type, "quantize") && op.data_type == "FLOAT32";
    const std::string text =
        float_input ? op.op_type + " (" + op.data_type +
                          ") quantises the float input on the CPU: compile with "
                          "--input-type uint8 (and --mean/--std) so the program reads the "
                          "integer image and the NPU normalises it in its first layer"
                    : op.op_type + " (" + op.data_type +
                          ") runs on the CPU: the preset's operator list (npu.operators) has no "
                          "layer for it; an equivalent NPU operator or removing it from the "
                          "graph saves its time";
    out.push_back({"cpu_operator", op.name,
                   static_cast<uint64_t>(static_cast<double>(op.cpu_cycles) * npu_per_cpu),
                   text});
  }
  std::stable_sort(out.begin(), out.end(), [](const NpuFinding& a, const NpuFinding& b) {
    return a.cycles_at_stake > b.cycles_at_stake;
  });
  // One first layer to optimise: the low-usage layer with the most cycles at stake.
  for (NpuFinding& f : out) {
    if (f.rule != "low_mac_usage") continue;
    f.text += ": the first layer to optimise";
    break;
  }
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
