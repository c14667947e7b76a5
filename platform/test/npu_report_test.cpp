// The NPU report's DDR traffic per layer (what the roofline plots) and its energy per layer
// and per frame, against hand computations.
#include "platform/report/npu_report.h"

#include <gtest/gtest.h>

#include <string>

namespace socsim {
namespace {

constexpr uint64_t kDdrBase = 0x80000000, kSramBase = 0x20000000;
const std::vector<NpuDdrRegion> kDdr = {{kDdrBase, 0x10000000, std::nullopt}};

// A conv layer whose input and output lie in DDR and whose weights, bias and requantisation
// table lie in SRAM; the tiling read the input twice.
NpuLayerRecord layer(uint32_t list_addr) {
  NpuLayerRecord l;
  l.list_addr = list_addr;
  l.index = 2;
  l.addr[npu::kAddrInput] = kDdrBase + 0x1000;
  l.addr[npu::kAddrWeights] = kSramBase;
  l.addr[npu::kAddrBias] = kSramBase + 0x4000;
  l.addr[npu::kAddrRequant] = kSramBase + 0x5000;
  l.addr[npu::kAddrOutput] = kDdrBase + 0x20000;
  l.operand_bytes[npu::kAddrInput] = 4096;
  l.operand_bytes[npu::kAddrWeights] = 9216;
  l.operand_bytes[npu::kAddrBias] = 256;
  l.operand_bytes[npu::kAddrRequant] = 512;
  l.operand_bytes[npu::kAddrOutput] = 2048;
  l.stream_bytes[0] = 2 * 4096;
  l.stream_bytes[1] = 9216 + 256 + 512;
  l.stream_bytes[2] = 2048;
  l.read_bytes = l.stream_bytes[0] + l.stream_bytes[1] + npu::kDescriptorSize;
  l.write_bytes = 2048;
  return l;
}

TEST(NpuReport, DdrTrafficCountsOnlyOperandsInDdr) {
  // Command list in SRAM: the input twice and the output; the SRAM weights move no DDR byte.
  NpuDdrTraffic t = npu_ddr_traffic(layer(kSramBase + 0x8000), kDdr);
  EXPECT_EQ(t.read, 2u * 4096);
  EXPECT_EQ(t.written, 2048u);
  // Command list in DDR: its descriptor too.
  t = npu_ddr_traffic(layer(kDdrBase), kDdr);
  EXPECT_EQ(t.read, 2u * 4096 + npu::kDescriptorSize);
  // Weights in DDR, bias and table in SRAM: the weight stream's bytes shared by size. With
  // the weights re-read three times, 3 x 9,216 of the stream's 3 x 9,984 bytes.
  NpuLayerRecord l = layer(kSramBase);
  l.addr[npu::kAddrWeights] = kDdrBase + 0x40000;
  l.stream_bytes[1] = 3 * (9216 + 256 + 512);
  t = npu_ddr_traffic(l, kDdr);
  EXPECT_EQ(t.read, 2u * 4096 + 3 * 9216);
  // No DDR at all: nothing.
  t = npu_ddr_traffic(l, {});
  EXPECT_EQ(t.read + t.written, 0u);
}

// rk3588-like's per-operation costs (45 nm): 0.3 pJ per int8 MAC, 9.67 pJ per buffer byte.
TEST(NpuReport, LayerEnergyFromPerOperationCosts) {
  const NpuConfig c =
      load_npu_preset(std::string(SOCSIM_SOURCE_DIR) + "/configs/npu/rk3588-like.yaml");
  ASSERT_TRUE(c.energy.known);
  NpuLayerRecord l = layer(kSramBase);
  l.macs = 1000000;
  l.elapsed_cycles = 2000;  // 2 us at 1 GHz
  // Without DDR energy figures: MACs and buffer only.
  NpuLayerEnergy e = npu_layer_energy(c, l, kDdr);
  EXPECT_DOUBLE_EQ(e.mac_uj, 1e6 * 0.3 / 1e6);
  const double buffer_bytes = 2.0 * (l.read_bytes + l.write_bytes);  // in once, out once
  EXPECT_DOUBLE_EQ(e.buffer_uj, buffer_bytes * 9.67 / 1e6);
  EXPECT_LT(e.ddr_uj, 0);
  EXPECT_DOUBLE_EQ(e.total_uj(), e.mac_uj + e.buffer_uj);
  // With DDR rates: the input (4,096 B, read once as an operand) and the output (2,048 B)
  // lie in DDR, plus 100 mW of standby over 2 us.
  DdrEnergyRates rates;
  rates.read_pj_per_byte = 20;
  rates.write_pj_per_byte = 25;
  rates.static_mw = 100;
  e = npu_layer_energy(c, l, {{kDdrBase, 0x10000000, rates}});
  EXPECT_DOUBLE_EQ(e.ddr_uj, (4096 * 20.0 + 2048 * 25.0 + 100 * 2000.0) / 1e6);
  EXPECT_DOUBLE_EQ(e.total_uj(), e.mac_uj + e.buffer_uj + e.ddr_uj);
  // A preset without an energy section: only the DDR part is known.
  NpuConfig bare = c;
  bare.energy = NpuEnergy{};
  e = npu_layer_energy(bare, l, {{kDdrBase, 0x10000000, rates}});
  EXPECT_LT(e.mac_uj, 0);
  EXPECT_LT(e.buffer_uj, 0);
  EXPECT_DOUBLE_EQ(e.total_uj(), e.ddr_uj);
}

}  // namespace
}  // namespace socsim
