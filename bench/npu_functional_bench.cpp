// Speed of the NPU's functional model per layer type, on the layer shapes of ResNet-50 and
// MobileNetV2 at 224x224: each layer runs through the model's entry point (execute_layer) and,
// for the layers with multiply-accumulates, through the reference loops the firmware runs
// (firmware/int8/conv_loops.h) that the model used before its fast kernels. Prints the
// median wall and thread-CPU time of each, GMAC/s (or Gelem/s of output for layers without
// MACs) and the ratio of the CPU times. Outputs are compared too: a fast figure for a wrong result
// is none.
//
//   npu_functional_bench [--runs N] [--min-seconds S]
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "firmware/abi/generated/operators.h"
#include "firmware/int8/conv_loops.h"
#include "models/npu/npu_functional.h"
#include "models/npu/test/conv_layer.h"

namespace socsim {
namespace {

struct Timing {
  double wall = 0, cpu = 0;  // seconds, medians
};

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

/// Medians of at least `runs` runs and of at least `min_seconds` in all.
Timing measure(const std::function<void()>& fn, int runs, double min_seconds) {
  std::vector<double> wall, cpu;
  double total = 0;
  fn();  // warm-up: page faults, caches
  while (static_cast<int>(wall.size()) < runs || total < min_seconds) {
    const double c0 = thread_cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    const double w = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    wall.push_back(w);
    cpu.push_back(thread_cpu_seconds() - c0);
    total += w;
    if (wall.size() >= 1000) break;
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  return {median(wall), median(cpu)};
}

struct Case {
  const char* name;
  npu::LayerDescriptor d;
};

/// A convolution with "same"-style padding k / 2 (zero points 3 and -5, a fused ReLU).
Case conv(const char* name, uint32_t cin, uint32_t hw, uint32_t cout, uint32_t k, uint32_t s,
          uint32_t groups) {
  const uint32_t p = k / 2, out = (hw + 2 * p - k) / s + 1;
  const int32_t si = int32_t(s), pi = int32_t(p);
  return {name, layer_descriptor(npu::kOpConv, {1, cin, hw, hw}, {cout, cin / groups, k, k},
                                 {1, cout, out, out},
                                 {si, si, pi, pi, pi, pi, 1, 1, int32_t(groups), 3, -5, -5, 127})};
}

std::vector<Case> cases() {
  return {
      conv("conv 7x7/2 3->64 @224 (ResNet stem)", 3, 224, 64, 7, 2, 1),
      conv("conv 3x3 64->64 @56 (ResNet-50)", 64, 56, 64, 3, 1, 1),
      conv("conv 1x1 256->64 @56 (ResNet-50)", 256, 56, 64, 1, 1, 1),
      conv("conv 1x1 64->256 @56 (ResNet-50)", 64, 56, 256, 1, 1, 1),
      conv("conv 3x3/2 256->256 @28 (ResNet-50)", 256, 28, 256, 3, 2, 1),
      conv("conv 3x3 512->512 @7 (ResNet-50)", 512, 7, 512, 3, 1, 1),
      conv("conv 1x1 2048->512 @7 (ResNet-50)", 2048, 7, 512, 1, 1, 1),
      conv("conv 3x3/2 3->32 @224 (MobileNetV2 stem)", 3, 224, 32, 3, 2, 1),
      conv("conv 1x1 24->144 @56 (MobileNetV2)", 24, 56, 144, 1, 1, 1),
      conv("depthwise 3x3 144 @56 (MobileNetV2)", 144, 56, 144, 3, 1, 144),
      conv("depthwise 3x3/2 144 @56 (MobileNetV2)", 144, 56, 144, 3, 2, 144),
      conv("depthwise 3x3 960 @7 (MobileNetV2)", 960, 7, 960, 3, 1, 960),
      conv("grouped 3x3 128->128 g32 @28 (ResNeXt)", 128, 28, 128, 3, 1, 32),
      {"fully connected 2048->1000",
       layer_descriptor(npu::kOpFullyConnected, {1, 2048, 1, 1}, {1000, 2048, 1, 1},
                        {1, 1000, 1, 1}, {3, -5, -128, 127})},
      {"fully connected 1280->1000 x16 rows",
       layer_descriptor(npu::kOpFullyConnected, {16, 1280, 1, 1}, {1000, 1280, 1, 1},
                        {16, 1000, 1, 1}, {3, -5, -128, 127})},
      {"max pool 3x3/2 64 @112", layer_descriptor(npu::kOpMaxPool, {1, 64, 112, 112}, {},
                                                  {1, 64, 56, 56}, {3, 3, 2, 2, 1, 1, 1, 1, 0})},
      {"global average pool 2048 @7", layer_descriptor(npu::kOpGlobalAveragePool, {1, 2048, 7, 7},
                                                       {}, {1, 2048, 1, 1}, {3, -5, 1 << 22, 22})},
      {"add 256 @56",
       layer_descriptor(npu::kOpAdd, {1, 256, 56, 56}, {1, 256, 56, 56}, {1, 256, 56, 56},
                        {3, 1 << 20, -2, 1 << 20, 21, 0, -128, 127})},
  };
}

/// The reference loops of a layer with MACs (what the model ran before), or nullptr.
std::function<void()> reference(const npu::LayerDescriptor& d, const NpuOperands& o, int8_t* y) {
  if (d.op == npu::kOpConv) {
    const ops::QuantizedConvolution::Args a(d.args);
    const kernels::ConvGeometry g{int32_t(d.in_shape[0]),
                                  int32_t(d.in_shape[1]),
                                  int32_t(d.in_shape[2]),
                                  int32_t(d.in_shape[3]),
                                  int32_t(d.out_shape[1]),
                                  int32_t(d.out_shape[2]),
                                  int32_t(d.out_shape[3]),
                                  int32_t(d.in1_shape[2]),
                                  int32_t(d.in1_shape[3]),
                                  a.stride_h(),
                                  a.stride_w(),
                                  a.pad_top(),
                                  a.pad_left(),
                                  a.dilation_h(),
                                  a.dilation_w(),
                                  a.groups()};
    return [=] {
      kernels::conv_q8(g, o.input, o.weights, o.bias, o.requant, a.zp_in(), a.zp_out(), a.act_min(),
                       a.act_max(), y);
    };
  }
  if (d.op == npu::kOpFullyConnected) {
    const ops::QuantizedLinear::Args a(d.args);
    return [=] {
      kernels::fully_connected_i8(d.in_shape[0], d.in_shape[1], d.out_shape[1], o.input, o.weights,
                                  o.bias, o.requant, a.zp_in(), a.zp_out(), a.act_min(),
                                  a.act_max(), y);
    };
  }
  return nullptr;
}

int run(int runs, double min_seconds) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> byte(-128, 127);
  std::printf("%-42s %9s | %-22s | %-22s | %6s\n", "layer", "MMAC", "reference wall/cpu",
              "fast (model) wall/cpu", "ratio");
  std::printf("%-42s %9s | %10s %11s | %10s %11s | %6s\n", "", "", "ms", "GMAC/s", "ms", "GMAC/s",
              "cpu");
  int failures = 0;
  for (const Case& c : cases()) {
    const npu::LayerDescriptor& d = c.d;
    if (validate_layer(d) != npu::kNpuOk) {
      std::fprintf(stderr, "npu_functional_bench: %s: invalid descriptor\n", c.name);
      return 3;
    }
    const NpuOperandSizes sizes = operand_sizes(d);
    auto bytes = [&](int slot) { return static_cast<size_t>(sizes.bytes[slot]); };
    std::vector<int8_t> x(bytes(npu::kAddrInput)), w(bytes(npu::kAddrWeights));
    for (auto& v : x) v = static_cast<int8_t>(byte(rng));
    for (auto& v : w) v = static_cast<int8_t>(byte(rng));
    std::vector<int32_t> bias(bytes(npu::kAddrBias) / 4, 100);
    std::vector<int32_t> rq(bytes(npu::kAddrRequant) / 4);
    for (size_t i = 0; i + 1 < rq.size(); i += 2) {
      rq[i] = 0x50000000;
      rq[i + 1] = 31 + 13;
    }
    std::vector<int8_t> y_fast(bytes(npu::kAddrOutput)), y_ref(y_fast.size());
    NpuOperands o;
    o.input = x.data();
    o.weights = w.empty() ? nullptr : w.data();
    o.bias = bias.empty() ? nullptr : bias.data();
    o.requant = rq.empty() ? nullptr : rq.data();
    o.output = y_fast.data();
    const uint64_t macs = layer_macs(d);
    const double work = macs != 0 ? double(macs) : double(y_fast.size());
    const Timing fast = measure([&] { execute_layer(d, o); }, runs, min_seconds);
    const std::function<void()> ref = reference(d, o, y_ref.data());
    const char* unit = macs != 0 ? "GMAC/s" : "Gout/s";
    if (!ref) {
      std::printf("%-42s %9s | %22s | %10.3f %4.2f %6s | %6s\n", c.name, "-", "-", fast.wall * 1e3,
                  work / fast.cpu * 1e-9, unit, "-");
      continue;
    }
    const Timing slow = measure(ref, std::max(1, runs / 3), min_seconds / 3);
    if (y_ref != y_fast) {
      std::fprintf(stderr, "npu_functional_bench: %s: outputs differ\n", c.name);
      ++failures;
    }
    std::printf("%-42s %9.1f | %10.2f %5.2f/%5.2f | %10.3f %5.2f/%5.2f | %5.1fx\n", c.name,
                double(macs) * 1e-6, slow.wall * 1e3, work / slow.wall * 1e-9,
                work / slow.cpu * 1e-9, fast.wall * 1e3, work / fast.wall * 1e-9,
                work / fast.cpu * 1e-9, slow.cpu / fast.cpu);
  }
  std::printf("GMAC/s columns: by wall time / by thread CPU time (medians).\n");
  return failures == 0 ? 0 : 3;
}

}  // namespace
}  // namespace socsim

int main(int argc, char** argv) {
  int runs = 5;
  double min_seconds = 0.5;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) {
      runs = std::atoi(argv[++i]);
    } else if (a == "--min-seconds" && i + 1 < argc) {
      min_seconds = std::atof(argv[++i]);
    } else {
      std::fprintf(stderr,
                   "usage: npu_functional_bench [--runs N] [--min-seconds S]\n"
                   "  N runs (default 5) and at least S seconds (default 0.5) per layer and\n"
                   "  implementation; prints median times, GMAC/s and the speed-up.\n");
      return 2;
    }
  }
  if (runs < 1 || min_seconds < 0) {
    std::fprintf(stderr, "npu_functional_bench: --runs must be >= 1, --min-seconds >= 0\n");
    return 2;
  }
  return socsim::run(runs, min_seconds);
}
