// MAC-array timing: SCALE-Sim's no-stall formula exactly, alignment padding, the split
// across cores, tiling into the buffer, double-buffered overlap and the bound of a layer.
#include "models/npu/mac_array_timing.h"

#include <gtest/gtest.h>

#include <cstring>

#include "models/npu/npu_functional.h"
#include "models/npu/test/conv_layer.h"

namespace socsim {
namespace {

const std::string kConfigs = std::string(SOCSIM_SOURCE_DIR) + "/configs";

NpuConfig one_core() {
  NpuConfig c = load_npu_preset(kConfigs + "/npu/rk3588-like.yaml");
  c.cores = 1;
  c.setup_cycles = 100;
  return c;
}

npu::LayerDescriptor conv(uint32_t cin, uint32_t h, uint32_t w, uint32_t cout, uint32_t k,
                          uint32_t stride = 1, uint32_t groups = 1) {
  const npu::LayerDescriptor d = conv_layer(cin, h, w, cout, k, stride, groups);
  EXPECT_EQ(validate_layer(d), npu::kNpuOk);
  return d;
}

TEST(SystolicCycles, ScaleSimFormula) {
  // (2R + C + T - 2) * ceil(S_R / R) * ceil(S_C / C)
  EXPECT_EQ(systolic_cycles(32, 32, 64, 64, 64), (64u + 32 + 64 - 2) * 2 * 2);
  EXPECT_EQ(systolic_cycles(16, 8, 17, 9, 5), (32u + 8 + 5 - 2) * 2 * 2);
  EXPECT_EQ(systolic_cycles(32, 32, 32, 32, 1), 95u);
  EXPECT_EQ(systolic_cycles(32, 32, 0, 32, 1), 0u);
}

TEST(MacArrayTiming, NoStallConvIsExactlyTheFormula) {
  const NpuConfig c = one_core();
  // 1x1, 64 -> 64 channels, 8x8: weight stationary S_R = 64, S_C = 64, T = 64.
  const LayerPlan p = plan_layer(c, conv(64, 8, 8, 64, 1));
  ASSERT_EQ(p.tiles.size(), 1u);
  EXPECT_EQ(p.s_r, 64u);
  EXPECT_EQ(p.s_c, 64u);
  EXPECT_EQ(p.t, 64u);
  EXPECT_EQ(p.compute_cycles, (2u * 32 + 32 + 64 - 2) * 2 * 2);
  EXPECT_EQ(p.macs, 64ull * 64 * 64);
  EXPECT_EQ(p.read_bytes, 64u * 64 + 64 * 64 + 12 * 64);  // input, weights, bias + requant
  EXPECT_EQ(p.write_bytes, 64u * 64);

  // 3x3, 32 -> 32, 16x16: S_R = 9 * 32 = 288, S_C = 32, T = 256.
  const LayerPlan q = plan_layer(c, conv(32, 16, 16, 32, 3));
  ASSERT_EQ(q.tiles.size(), 1u);
  EXPECT_EQ(q.compute_cycles, (2u * 32 + 32 + 256 - 2) * 9 * 1);

  // Output stationary: S_R = Npix, S_C = M, T = Wconv.
  NpuConfig os = c;
  os.dataflow = NpuDataflow::kOutputStationary;
  EXPECT_EQ(plan_layer(os, conv(32, 16, 16, 32, 3)).compute_cycles,
            (2u * 32 + 32 + 288 - 2) * 8 * 1);
}

TEST(MacArrayTiming, SingleTileScheduleWithIdealDma) {
  const NpuConfig c = one_core();  // 64 bytes per cycle
  const LayerPlan p = plan_layer(c, conv(64, 8, 8, 64, 1));
  const ScheduleTimes t = schedule_layer(c, p, 1000, ideal_dma(c));
  // setup, input (4096 B), weights (4096 + 768 B), compute, output (4096 B): no overlap.
  const uint64_t load = 4096 / 64 + (4096 + 768) / 64;
  EXPECT_EQ(t.end, 1000 + 100 + load + p.compute_cycles + 4096 / 64);
  EXPECT_EQ(t.dma_cycles, load + 4096 / 64);
  EXPECT_EQ(t.compute_cycles, p.compute_cycles);
}

TEST(MacArrayTiming, AlignmentPadsChannels) {
  const NpuConfig c = one_core();
  const LayerPlan p33 = plan_layer(c, conv(32, 16, 16, 33, 3));
  const LayerPlan p64 = plan_layer(c, conv(32, 16, 16, 64, 3));
  const LayerPlan p32 = plan_layer(c, conv(32, 16, 16, 32, 3));
  EXPECT_EQ(p33.compute_cycles, p64.compute_cycles);  // 33 output channels cost 64
  EXPECT_GT(p33.compute_cycles, p32.compute_cycles);
  const double use33 = double(p33.macs) / (p33.compute_cycles * 1024.0);
  const double use64 = double(p64.macs) / (p64.compute_cycles * 1024.0);
  EXPECT_LT(use33, use64);
  EXPECT_NEAR(use33 / use64, 33.0 / 64.0, 1e-12);
  // Input channels: 20 pad to 32.
  EXPECT_EQ(plan_layer(c, conv(20, 16, 16, 32, 3)).compute_cycles, p32.compute_cycles);
  // Depthwise channels pad to 64 (RK3588 int8).
  const LayerPlan dw40 = plan_layer(c, conv(40, 16, 16, 40, 3, 1, 40));
  const LayerPlan dw64 = plan_layer(c, conv(64, 16, 16, 64, 3, 1, 64));
  EXPECT_EQ(dw40.op_type, "DepthwiseConv");
  EXPECT_EQ(dw40.compute_cycles, dw64.compute_cycles);
  EXPECT_EQ(dw64.compute_cycles, (2u * 32 + 32 + 256 - 2) * 1 * 2);  // S_R 9, S_C 64, T 256
}

TEST(MacArrayTiming, CoresSplitOutputChannels) {
  NpuConfig c = one_core();
  c.cores = 3;
  const LayerPlan p = plan_layer(c, conv(64, 8, 8, 96, 1));
  EXPECT_EQ(p.cores_used, 3u);
  EXPECT_EQ(p.s_c, 32u);
  EXPECT_EQ(p.compute_cycles, (2u * 32 + 32 + 64 - 2) * 2 * 1);
  // Every core reads the whole input: three times the input bytes.
  EXPECT_EQ(p.read_bytes, 3u * 4096 + 96 * 64 + 12 * 96);
  // Fewer blocks than cores: only as many cores as 32-channel blocks.
  EXPECT_EQ(plan_layer(c, conv(64, 8, 8, 40, 1)).cores_used, 2u);
  c.split_output_channels = false;
  EXPECT_EQ(plan_layer(c, conv(64, 8, 8, 96, 1)).cores_used, 1u);
}

TEST(MacArrayTiming, LargeLayersAreTiledIntoTheBuffer) {
  const NpuConfig c = one_core();
  // 3x3, 256 -> 512 on 28x28: weights alone are 1.1 MiB, more than the 384 KiB buffer.
  const LayerPlan p = plan_layer(c, conv(256, 28, 28, 512, 3));
  EXPECT_GT(p.tiles.size(), 1u);
  EXPECT_LE(p.buffer_bytes, c.buffer_bytes);
  uint64_t weights = 0, outputs = 0, compute = 0;
  for (const NpuTile& t : p.tiles) {
    weights += t.weight_bytes;
    outputs += t.output_bytes;
    compute += t.compute_cycles;
  }
  EXPECT_GE(weights, 512ull * 256 * 9 + 12 * 512);  // every weight at least once
  EXPECT_EQ(outputs, 512ull * 28 * 28);             // every output exactly once
  EXPECT_EQ(compute, p.compute_cycles);
  // The tiles together cost at least the untiled formula (more fills and drains).
  EXPECT_GE(p.compute_cycles, systolic_cycles(32, 32, 9 * 256, 512, 784));
  // Double buffering: the schedule is shorter than loading and computing in turn.
  const ScheduleTimes t = schedule_layer(c, p, 0, ideal_dma(c));
  EXPECT_LT(t.end, c.setup_cycles + t.dma_cycles + t.compute_cycles);
  EXPECT_GE(t.end, c.setup_cycles + std::max(t.dma_cycles, t.compute_cycles));
}

TEST(MacArrayTiming, BandwidthBoundAndComputeBound) {
  NpuConfig c = one_core();
  c.dma.bytes_per_cycle = 4;  // a narrow bus
  // 1x1, 1024 -> 1024 on 7x7: 1 MiB of weights for 51 M MACs.
  const LayerPlan wide = plan_layer(c, conv(1024, 7, 7, 1024, 1));
  const ScheduleTimes tw = schedule_layer(c, wide, 0, ideal_dma(c));
  EXPECT_GT(tw.dma_cycles, tw.compute_cycles);
  // 3x3, 8 -> 8 on 56x56: 50 KB of activations, the padded array does the work.
  const LayerPlan few = plan_layer(c, conv(8, 56, 56, 8, 3));
  const ScheduleTimes tf = schedule_layer(c, few, 0, ideal_dma(c));
  EXPECT_LT(tf.dma_cycles, tf.compute_cycles);
}

TEST(MacArrayTiming, VectorOperators) {
  const NpuConfig c = one_core();
  npu::LayerDescriptor d;
  std::memset(&d, 0, sizeof d);
  d.op = npu::kOpAdd;
  d.dtype = npu::kDtypeInt8;
  const uint32_t shape[4] = {1, 24, 10, 10};
  std::memcpy(d.in_shape, shape, sizeof shape);
  std::memcpy(d.in1_shape, shape, sizeof shape);
  std::memcpy(d.out_shape, shape, sizeof shape);
  const int32_t args[8] = {0, 1 << 20, 0, 1 << 20, 21, 0, -128, 127};
  std::memcpy(d.args, args, sizeof args);
  d.arg_count = 8;
  ASSERT_EQ(validate_layer(d), npu::kNpuOk);
  const LayerPlan p = plan_layer(c, d);
  EXPECT_EQ(p.op_type, "Add");
  EXPECT_FALSE(p.uses_array);
  EXPECT_EQ(p.macs, 0u);
  // 24 channels pad to 32 ("other" alignment 16): 32 * 100 elements, 32 per cycle.
  EXPECT_EQ(p.compute_cycles, 100u);
  EXPECT_EQ(p.read_bytes, 2u * 2400);
  EXPECT_EQ(p.write_bytes, 2400u);
}

}  // namespace
}  // namespace socsim
