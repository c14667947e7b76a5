// The advice rules, each triggered by a small model built to trigger it (layers timed by the
// stand-alone model on one rk3588-like core), and an aligned compute-bound layer that
// triggers none of the layer rules.
#include "platform/report/npu_advice.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "models/npu/mac_array_timing.h"
#include "models/npu/npu_functional.h"
#include "models/npu/test/conv_layer.h"

namespace socsim {
namespace {

NpuConfig core() {
  NpuConfig c = load_npu_preset(std::string(SOCSIM_SOURCE_DIR) + "/configs/npu/rk3588-like.yaml");
  c.cores = 1;
  return c;
}

NpuLayerRecord record(const NpuConfig& c, const npu::LayerDescriptor& d, const char* name) {
  EXPECT_EQ(validate_layer(d), npu::kNpuOk) << name;
  const LayerPlan p = plan_layer(c, d);
  const ScheduleTimes t = schedule_layer(c, p, 0, ideal_dma(c));
  NpuLayerRecord r;
  r.name = name;
  r.op_type = p.op_type;
  std::memcpy(r.in_shape, d.in_shape, sizeof r.in_shape);
  std::memcpy(r.out_shape, d.out_shape, sizeof r.out_shape);
  r.macs = p.macs;
  r.cores_used = p.cores_used;
  r.ddr_cycles = t.dma_cycles;
  r.npu_cycles = t.compute_cycles;
  r.pointwise_floor_cycles = p.pointwise_floor_cycles;
  r.core_work = p.core_work;
  r.elapsed_cycles = t.end;
  const NpuOperandSizes sizes = operand_sizes(d);
  std::memcpy(r.operand_bytes, sizes.bytes, sizeof r.operand_bytes);
  r.mac_usage = rknn_mac_usage(c, r.macs, r.cores_used, r.elapsed_cycles);
  return r;
}

// The findings of `rule` on `layer`.
std::vector<NpuFinding> of(const std::vector<NpuFinding>& all, const std::string& rule,
                           const std::string& layer) {
  std::vector<NpuFinding> out;
  for (const NpuFinding& f : all) {
    if (f.rule == rule && f.layer == layer) out.push_back(f);
  }
  return out;
}

TEST(NpuAdvice, LowMacUsageAndChannelAlignment) {
  const NpuConfig c = core();
  // 8 -> 8 channels, 3x3: 72 packed products pad to 96, 8 filters to 32: 576 of 3072.
  const std::vector<NpuLayerRecord> model = {record(c, conv_layer(8, 56, 56, 8, 3), "narrow"),
                                             record(c, conv_layer(64, 28, 28, 64, 3), "wide")};
  const auto all = npu_findings(c, model, {}, 0);
  const auto low = of(all, "low_mac_usage", "narrow");
  ASSERT_EQ(low.size(), 1u);
  EXPECT_EQ(low[0].cycles_at_stake,
            model[0].elapsed_cycles - (model[0].macs + 1023) / 1024);
  const auto pad = of(all, "channel_alignment", "narrow");
  ASSERT_EQ(pad.size(), 1u);
  EXPECT_EQ(pad[0].cycles_at_stake,
            static_cast<uint64_t>(model[0].npu_cycles * (1.0 - 576.0 / 3072.0)));
  // The aligned, compute-bound layer: no layer rule fires.
  for (const char* rule : {"low_mac_usage", "channel_alignment", "small_output",
                           "large_weights", "bandwidth_bound"}) {
    EXPECT_TRUE(of(all, rule, "wide").empty()) << rule;
  }
  // Largest stake first.
  for (size_t i = 1; i < all.size(); ++i) {
    EXPECT_GE(all[i - 1].cycles_at_stake, all[i].cycles_at_stake);
  }
}

TEST(NpuAdvice, SmallOutputAndLargeWeights) {
  const NpuConfig c = core();
  // 3x3 over 1024 input channels: 9 KiB of weights per output channel, on a 3 x 3 output.
  const std::vector<NpuLayerRecord> model = {record(c, conv_layer(1024, 3, 3, 64, 3), "tail")};
  const auto all = npu_findings(c, model, {}, 0);
  ASSERT_EQ(of(all, "small_output", "tail").size(), 1u);
  const auto big = of(all, "large_weights", "tail");
  ASSERT_EQ(big.size(), 1u);
  EXPECT_NE(big[0].text.find("9216 weight bytes"), std::string::npos) << big[0].text;
}

TEST(NpuAdvice, BandwidthBound) {
  NpuConfig c = core();
  c.dma.bytes_per_cycle = 2;  // a narrow port
  const std::vector<NpuLayerRecord> model = {record(c, conv_layer(32, 64, 64, 32, 1), "pw")};
  ASSERT_GT(model[0].ddr_cycles, model[0].npu_cycles);
  const auto bw = of(npu_findings(c, model, {}, 0), "bandwidth_bound", "pw");
  ASSERT_EQ(bw.size(), 1u);
  EXPECT_EQ(bw[0].cycles_at_stake, model[0].ddr_cycles - model[0].npu_cycles);
}

// The 1x1 floor (pointwise_channels_per_cycle: 8): 64 -> 64 at 40x40 takes 8 cycles per
// pixel where its 2 x 2 folds need 4; the floor added 6,400 cycles, of which what shows
// above the DMA is at stake.
TEST(NpuAdvice, PointwiseFloor) {
  NpuConfig c = core();
  c.pointwise_channels_per_cycle = 8;
  const std::vector<NpuLayerRecord> model = {record(c, conv_layer(64, 40, 40, 64, 1), "pw"),
                                             record(c, conv_layer(256, 40, 40, 256, 1), "wide")};
  ASSERT_EQ(model[0].npu_cycles, 1600u * 8 + 94);
  ASSERT_EQ(model[0].pointwise_floor_cycles, 6400u);
  ASSERT_LT(model[0].ddr_cycles, model[0].npu_cycles);
  const auto all = npu_findings(c, model, {}, 0);
  const auto pf = of(all, "pointwise_floor", "pw");
  ASSERT_EQ(pf.size(), 1u);
  EXPECT_EQ(pf[0].cycles_at_stake,
            model[0].npu_cycles - std::max<uint64_t>(1600 * 4 + 94, model[0].ddr_cycles));
  EXPECT_NE(pf[0].text.find(
                "8 cycles per output pixel (64 aligned output channels of a core / 8), its folds "
                "need 4"),
            std::string::npos)
      << pf[0].text;
  EXPECT_NE(pf[0].text.find("up to Cin 128 costs the same"), std::string::npos) << pf[0].text;
  // 256 -> 256: the folds (64 per pixel) exceed the floor (32): no finding.
  EXPECT_TRUE(of(all, "pointwise_floor", "wide").empty());
  // Floor off: no finding.
  const NpuConfig off = core();
  EXPECT_TRUE(of(npu_findings(off, {record(off, conv_layer(64, 40, 40, 64, 1), "pw")}, {}, 0),
                 "pointwise_floor", "pw")
                  .empty());
  // Bandwidth-bound (2 bytes per cycle): the DMA hides the floor, nothing at stake.
  NpuConfig narrow = c;
  narrow.dma.bytes_per_cycle = 2;
  const NpuLayerRecord slow = record(narrow, conv_layer(64, 40, 40, 64, 1), "pw");
  ASSERT_GT(slow.ddr_cycles, slow.npu_cycles);
  EXPECT_TRUE(of(npu_findings(narrow, {slow}, {}, 0), "pointwise_floor", "pw").empty());
}

TEST(NpuAdvice, KernelSmallerThanStride) {
  NpuConfig c = core();
  c.dma.bytes_per_cycle = 4;  // a narrow port: the layers are bandwidth-bound
  // 1x1 stride 2, 64 -> 64 on 32x32: the windows use 1 of every 4 input pixels.
  const std::vector<NpuLayerRecord> model = {record(c, conv_layer(64, 32, 32, 64, 1, 2), "s2"),
                                             record(c, conv_layer(64, 32, 32, 64, 3, 2), "k3")};
  ASSERT_TRUE(model[0].bandwidth_bound());
  ASSERT_TRUE(model[1].bandwidth_bound());
  const auto all = npu_findings(c, model, {}, 0);
  const auto ks = of(all, "kernel_stride", "s2");
  ASSERT_EQ(ks.size(), 1u);
  // 3/4 of the 65,536 input bytes at 4 bytes per cycle, below the DDR excess.
  EXPECT_EQ(ks[0].cycles_at_stake,
            std::min<uint64_t>(model[0].ddr_cycles - model[0].npu_cycles, 49152 / 4));
  EXPECT_NE(ks[0].text.find("Ksize 1 < Kstride 2"), std::string::npos) << ks[0].text;
  // 3x3 stride 2 uses every input pixel: no finding.
  EXPECT_TRUE(of(all, "kernel_stride", "k3").empty());
  // Compute-bound (a port of 1024 bytes per cycle): nothing at stake, no finding.
  NpuConfig wide = core();
  wide.dma.bytes_per_cycle = 1024;
  const NpuLayerRecord fast = record(wide, conv_layer(64, 32, 32, 64, 1, 2), "s2");
  ASSERT_FALSE(fast.bandwidth_bound());
  EXPECT_TRUE(of(npu_findings(wide, {fast}, {}, 0), "kernel_stride", "s2").empty());
}

// x * sigmoid(x) as a Sigmoid layer and a Mul of its input and output, and a Mul of two other
// tensors: only the first is a missed SiLU.
TEST(NpuAdvice, MissedSiluFusion) {
  const NpuConfig c = core();
  const uint32_t shape[4] = {1, 32, 20, 20}, table[4] = {1, 1, 1, 256};
  NpuLayerRecord s = record(c, elementwise_layer(npu::kOpSigmoid, shape, table), "sigmoid");
  s.op_type = "Sigmoid";
  s.addr[npu::kAddrInput] = 0x1000;
  s.addr[npu::kAddrOutput] = 0x5000;
  // The Mul's timing: an elementwise layer of two inputs of this shape (the vector path).
  npu::LayerDescriptor add = elementwise_layer(npu::kOpAdd, shape, shape);
  const int32_t args[8] = {0, 1 << 20, 0, 1 << 20, 21, 0, -128, 127};
  std::memcpy(add.args, args, sizeof args);
  add.arg_count = 8;
  NpuLayerRecord m = record(c, add, "mul");
  m.op_type = "Mul";
  m.addr[npu::kAddrInput] = 0x5000;  // sigmoid(x) * x
  m.addr[npu::kAddrWeights] = 0x1000;
  NpuLayerRecord other = m;
  other.name = "other";
  other.addr[npu::kAddrWeights] = 0x9000;  // sigmoid(x) * y
  const auto all = npu_findings(c, {s, m, other}, {}, 0);
  const auto f = of(all, "missed_fusion", "mul");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].cycles_at_stake, m.elapsed_cycles);
  EXPECT_GT(f[0].cycles_at_stake, 0u);
  EXPECT_NE(f[0].text.find("SiLU"), std::string::npos) << f[0].text;
  EXPECT_TRUE(of(all, "missed_fusion", "other").empty());
  // A preset without a SiLU lookup cannot fuse it.
  NpuConfig no_silu = c;
  no_silu.operators.erase("silu");
  EXPECT_TRUE(of(npu_findings(no_silu, {s, m}, {}, 0), "missed_fusion", "mul").empty());
}

TEST(NpuAdvice, CpuOperators) {
  const NpuConfig c = core();  // 1000 MHz
  CpuOperatorRecord q;
  q.name = "op 0 quantize";
  q.op_type = "quantize";
  q.data_type = "FLOAT32";
  q.cpu_cycles = 5000;
  const auto cpu = of(npu_findings(c, {}, {q}, 100.0), "cpu_operator", "op 0 quantize");
  ASSERT_EQ(cpu.size(), 1u);
  EXPECT_EQ(cpu[0].cycles_at_stake, 50000u);  // 5000 CPU cycles at 100 MHz = 50 us
  EXPECT_NE(cpu[0].text.find("FLOAT32"), std::string::npos);
  // The float input's quantise names the compiler flag that removes it.
  EXPECT_NE(cpu[0].text.find("--input-type uint8"), std::string::npos) << cpu[0].text;
  CpuOperatorRecord softmax = q;
  softmax.name = "op 9 softmax";
  softmax.op_type = "softmax";
  softmax.data_type = "INT8";
  const auto other = of(npu_findings(c, {}, {softmax}, 100.0), "cpu_operator", "op 9 softmax");
  ASSERT_EQ(other.size(), 1u);
  EXPECT_EQ(other[0].text.find("--input-type"), std::string::npos) << other[0].text;
}

// A record's DMA bytes as the device keeps them: each stream its operands once.
void set_stream_bytes(NpuLayerRecord* r) {
  r->stream_bytes[0] = r->operand_bytes[npu::kAddrInput];
  r->stream_bytes[1] = r->operand_bytes[npu::kAddrWeights] + r->operand_bytes[npu::kAddrBias] +
                       r->operand_bytes[npu::kAddrRequant];
  r->stream_bytes[2] = r->operand_bytes[npu::kAddrOutput];
  r->read_bytes = r->stream_bytes[0] + r->stream_bytes[1];
  r->write_bytes = r->stream_bytes[2];
}

// DMA-bound layers: DDR-bound when their bytes are DDR traffic, on-chip-DMA-bound when their
// operands lie in SRAM; an elementwise layer is never told to add MACs per byte.
TEST(NpuAdvice, DdrBoundAndOnChipDmaBound) {
  NpuConfig c = core();
  c.dma.bytes_per_cycle = 4;  // a narrow port: the layers are DMA-bound
  const std::vector<NpuDdrRegion> ddr = {{0x80000000u, 0x10000000u, std::nullopt}};
  const uint32_t shape[4] = {1, 64, 20, 20};
  NpuLayerRecord pw = record(c, conv_layer(64, 20, 20, 64, 1), "pw");
  npu::LayerDescriptor add_d = elementwise_layer(npu::kOpAdd, shape, shape);
  const int32_t args[8] = {0, 1 << 20, 0, 1 << 20, 21, 0, -128, 127};
  std::memcpy(add_d.args, args, sizeof args);
  add_d.arg_count = 8;
  NpuLayerRecord add = record(c, add_d, "add");
  NpuLayerRecord sram_add = add;
  sram_add.name = "sram_add";
  for (NpuLayerRecord* r : {&pw, &add, &sram_add}) {
    set_stream_bytes(r);
    ASSERT_TRUE(r->bandwidth_bound()) << r->name;
    for (uint32_t slot = 0; slot < npu::kAddrCount; ++slot) {
      if (r->operand_bytes[slot] != 0) {
        r->addr[slot] = (r == &sram_add ? 0x1000u : 0x80000000u) + 0x100000u * slot;
      }
    }
  }
  EXPECT_EQ(npu_bound(pw, &ddr), "ddr");
  EXPECT_EQ(npu_bound(add, &ddr), "ddr");
  EXPECT_EQ(npu_bound(sram_add, &ddr), "on-chip-dma");
  EXPECT_EQ(npu_bound(sram_add, nullptr), "ddr");  // no regions known: all DMA is DDR
  const auto all = npu_findings(c, {pw, add, sram_add}, {}, 0, &ddr);
  const auto f_pw = of(all, "bandwidth_bound", "pw");
  ASSERT_EQ(f_pw.size(), 1u);
  EXPECT_EQ(f_pw[0].cycles_at_stake, pw.ddr_cycles - pw.npu_cycles);
  EXPECT_NE(f_pw[0].text.find("more output channels per input read"), std::string::npos);
  const auto f_add = of(all, "bandwidth_bound", "add");
  ASSERT_EQ(f_add.size(), 1u);
  EXPECT_EQ(f_add[0].text.find("output channels"), std::string::npos) << f_add[0].text;
  EXPECT_NE(f_add[0].text.find("memory_map.ddr.preset"), std::string::npos) << f_add[0].text;
  EXPECT_TRUE(of(all, "bandwidth_bound", "sram_add").empty());
  const auto f_sram = of(all, "on_chip_dma_bound", "sram_add");
  ASSERT_EQ(f_sram.size(), 1u);
  EXPECT_NE(f_sram[0].text.find("npu.dma.bytes_per_cycle = 4"), std::string::npos);
}

// Several layers at low MAC usage: only the one with the most at stake is the first to
// optimise.
TEST(NpuAdvice, OneFirstLayerToOptimise) {
  const NpuConfig c = core();
  const std::vector<NpuLayerRecord> model = {record(c, conv_layer(8, 56, 56, 8, 3), "a"),
                                             record(c, conv_layer(8, 80, 80, 8, 3), "b"),
                                             record(c, conv_layer(8, 40, 40, 8, 3), "c")};
  const auto all = npu_findings(c, model, {}, 0);
  int low = 0, first = 0;
  std::string first_layer;
  for (const NpuFinding& f : all) {
    if (f.rule != "low_mac_usage") continue;
    ++low;
    if (f.text.find("the first layer to optimise") != std::string::npos) {
      ++first;
      first_layer = f.layer;
    }
  }
  EXPECT_GE(low, 2);
  EXPECT_EQ(first, 1);
  EXPECT_EQ(first_layer, "b");  // the largest: 80x80
}

}  // namespace
}  // namespace socsim
