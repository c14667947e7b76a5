// Timing of the vector path's per-channel operand and lookup stage: the bytes each moves and
// the cycles each costs, by hand from the rules of docs/npu.md ("Timing model").
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "models/npu/mac_array_timing.h"
#include "models/npu/npu_functional.h"
#include "models/npu/test/conv_layer.h"

namespace socsim {
namespace {

// The shipped rk3588-like preset on one core (its DMA, setup and alignment).
NpuConfig one_core() {
  const std::string path = std::string(SOCSIM_SOURCE_DIR) + "/configs/npu/rk3588-like.yaml";
  NpuConfig preset = load_npu_preset(path);
  preset.cores = 1;
  return preset;
}

npu::LayerDescriptor mul(std::vector<uint32_t> in, std::vector<uint32_t> in1) {
  npu::LayerDescriptor d;
  std::memset(&d, 0, sizeof d);
  d.op = npu::kOpMul;
  d.dtype = npu::kDtypeInt8;
  for (int i = 0; i < 4; ++i) {
    d.in_shape[i] = d.out_shape[i] = in[i];
    d.in1_shape[i] = in1[i];
  }
  const int32_t args[7] = {0, -128, 1 << 30, 38, 0, -128, 127};
  std::memcpy(d.args, args, sizeof args);
  d.arg_count = 7;
  EXPECT_EQ(validate_layer(d), npu::kNpuOk);
  return d;
}

// Squeeze-and-excitation's x * scale: the elementwise cost of a same-shape mul (elements over
// `columns` per cycle, channels aligned to `other`), but the second operand is C bytes, read
// with the first row tile of each channel tile, instead of a second C x H x W stream.
TEST(VectorStageTiming, PerChannelOperandReadsOneValuePerPlane) {
  const NpuConfig c = one_core();
  const LayerPlan same = plan_layer(c, mul({1, 24, 10, 10}, {1, 24, 10, 10}));
  const LayerPlan bc = plan_layer(c, mul({1, 24, 10, 10}, {1, 24, 1, 1}));
  EXPECT_EQ(bc.op_type, "Mul");
  // 24 channels pad to 32: 32 x 100 elements at 32 per cycle.
  EXPECT_EQ(bc.compute_cycles, 100u);
  EXPECT_EQ(same.compute_cycles, bc.compute_cycles);
  EXPECT_EQ(same.read_bytes, 2u * 2400);
  EXPECT_EQ(bc.read_bytes, 2400u + 24);
  EXPECT_EQ(bc.write_bytes, 2400u);

  // Tiled (EfficientNet-B0's 112 x 112 x 32 excitation does not fit 384 KiB at once): each
  // channel tile reads its channels' values once, whatever its row tiles.
  const LayerPlan big = plan_layer(c, mul({1, 32, 112, 112}, {1, 32, 1, 1}));
  ASSERT_GT(big.tiles.size(), 1u);
  uint64_t operand = 0;
  for (const NpuTile& t : big.tiles) operand += t.weight_bytes;
  EXPECT_EQ(operand, 32u);
  EXPECT_EQ(big.tiles[0].weight_bytes, uint64_t{big.tile_m});
  EXPECT_EQ(big.read_bytes, 32u * 112 * 112 + 32);
  EXPECT_EQ(big.compute_cycles, 32u * 112 * 112 / 32);
}

// A lookup stage after a convolution or an add: its table is read once per core with the
// first tile and `lut_cycles` load it; the lookup is pipelined behind the requantisation.
TEST(VectorStageTiming, PostOpLookupCostsTheTableAndLutCycles) {
  NpuConfig c = one_core();
  c.lut_cycles = 256;
  for (uint32_t cores : {1u, 3u}) {
    c.cores = cores;
    npu::LayerDescriptor conv = conv_layer(32, 28, 28, 96, 3);
    const LayerPlan plain = plan_layer(c, conv);
    conv.post_op = npu::kOpSigmoid;
    ASSERT_EQ(validate_layer(conv), npu::kNpuOk);
    const LayerPlan fused = plan_layer(c, conv);
    EXPECT_EQ(fused.op_type, "Conv");  // the device's record appends the stage (Sigmoid)
    EXPECT_EQ(fused.cores_used, plain.cores_used);
    EXPECT_EQ(fused.compute_cycles, plain.compute_cycles + 256);
    EXPECT_EQ(fused.read_bytes, plain.read_bytes + 256 * plain.cores_used);
    EXPECT_EQ(fused.write_bytes, plain.write_bytes);
    EXPECT_EQ(fused.tiles.size(), plain.tiles.size());
    EXPECT_EQ(fused.tiles[0].compute_cycles, plain.tiles[0].compute_cycles + 256);
    for (size_t i = 1; i < fused.tiles.size(); ++i) {
      EXPECT_EQ(fused.tiles[i].compute_cycles, plain.tiles[i].compute_cycles);
      EXPECT_EQ(fused.tiles[i].weight_bytes, plain.tiles[i].weight_bytes);
    }
  }
  // The same as a stand-alone lookup layer's table load, without its pass over the data.
  c.cores = 1;
  npu::LayerDescriptor add = mul({1, 24, 10, 10}, {1, 24, 10, 10});
  add.op = npu::kOpAdd;
  const int32_t args[8] = {0, 1 << 20, 0, 1 << 20, 21, 0, -128, 127};
  std::memcpy(add.args, args, sizeof args);
  add.arg_count = 8;
  add.post_op = npu::kOpHardSwish;
  ASSERT_EQ(validate_layer(add), npu::kNpuOk);
  const LayerPlan p = plan_layer(c, add);
  EXPECT_EQ(p.op_type, "Add");
  EXPECT_EQ(p.compute_cycles, 100u + 256);
  EXPECT_EQ(p.read_bytes, 2u * 2400 + 256);
}

// A descriptor of `op` with the three shapes and arguments, which must validate.
npu::LayerDescriptor layer(uint8_t op, std::vector<uint32_t> in, std::vector<uint32_t> in1,
                           std::vector<uint32_t> out, std::vector<int32_t> args) {
  const npu::LayerDescriptor d = layer_descriptor(op, in, in1, out, args);
  EXPECT_EQ(validate_layer(d), npu::kNpuOk);
  return d;
}

// A resize by integer factors: each input row is read once (by the row tile holding its
// repeats), the index table once with the first tile and no LUT load; the copy costs the
// output elements over `columns` per cycle, like any elementwise layer.
TEST(VectorStageTiming, ResizeReadsEachInputRowOnceAndItsIndexTable) {
  const NpuConfig c = one_core();
  const LayerPlan p =
      plan_layer(c, layer(npu::kOpResize, {1, 24, 10, 10}, {1, 1, 1, 50}, {1, 24, 20, 30}, {}));
  EXPECT_EQ(p.op_type, "Resize");
  EXPECT_EQ(p.macs, 0u);
  EXPECT_EQ(p.read_bytes, 2400u + 4 * 50);
  EXPECT_EQ(p.write_bytes, 24u * 600);
  EXPECT_EQ(p.compute_cycles, 32u * 600 / 32);  // 24 channels pad to 32

  // Tiled: 64 x 112 x 112 repeated to 224 x 224 does not fit 384 KiB at once.
  const LayerPlan big = plan_layer(
      c, layer(npu::kOpResize, {1, 64, 112, 112}, {1, 1, 1, 448}, {1, 64, 224, 224}, {}));
  ASSERT_GT(big.tiles.size(), 1u);
  EXPECT_EQ(big.tiles[0].weight_bytes, 4u * 448);
  uint64_t later = 0;
  for (size_t i = 1; i < big.tiles.size(); ++i) later += big.tiles[i].weight_bytes;
  EXPECT_EQ(later, 0u);
  EXPECT_EQ(big.read_bytes, 64u * 112 * 112 + 4 * 448);
  EXPECT_EQ(big.write_bytes, 64u * 224 * 224);
}

// A MatMul of two activations: matrix after matrix, each the fully connected layer of M rows,
// K inputs and N outputs it is (the same cycles), its weights b's K x N bytes without the
// fully connected layer's 12 bytes of bias and requantisation per output.
TEST(VectorStageTiming, MatmulIsAFullyConnectedLayerPerMatrixWithoutChannelWords) {
  const NpuConfig c = one_core();
  const std::vector<int32_t> args = {0, 0, 1 << 30, 40, 0, -128, 127};
  const LayerPlan p =
      plan_layer(c, layer(npu::kOpMatMul, {1, 4, 16, 16}, {1, 4, 16, 32}, {1, 4, 16, 32}, args));
  const LayerPlan one = plan_layer(c, layer(npu::kOpFullyConnected, {16, 16, 1, 1}, {32, 16, 1, 1},
                                            {16, 32, 1, 1}, {0, 0, -128, 127}));
  EXPECT_EQ(p.op_type, "MatMul");
  EXPECT_TRUE(p.uses_array);
  EXPECT_EQ(p.macs, 4u * 16 * 32 * 16);
  EXPECT_EQ(p.compute_cycles, 4 * one.compute_cycles);
  EXPECT_EQ(p.tiles.size(), 4 * one.tiles.size());
  EXPECT_EQ(one.read_bytes, 16u * 16 + 32 * 16 + 12 * 32);
  EXPECT_EQ(p.read_bytes, 4u * (16 * 16 + 16 * 32));
  EXPECT_EQ(p.write_bytes, 4u * 16 * 32);
  // b broadcast over the batch is loaded again for every matrix.
  const LayerPlan shared =
      plan_layer(c, layer(npu::kOpMatMul, {1, 4, 16, 16}, {1, 1, 16, 32}, {1, 4, 16, 32}, args));
  EXPECT_EQ(shared.read_bytes, p.read_bytes);
}

// A requantisation is an elementwise layer of one input: the output elements over `columns`
// per cycle, one read and one write of the tensor.
TEST(VectorStageTiming, RequantizeCostsOneElementwisePass) {
  const NpuConfig c = one_core();
  const LayerPlan p = plan_layer(
      c, layer(npu::kOpRequantize, {1, 24, 10, 10}, {0, 0, 0, 0}, {1, 24, 10, 10},
               {0, 3, 1 << 30, 31}));
  EXPECT_EQ(p.op_type, "Requantize");
  EXPECT_EQ(p.compute_cycles, 100u);  // 24 channels pad to 32: 3200 elements at 32 a cycle
  EXPECT_EQ(p.read_bytes, 2400u);
  EXPECT_EQ(p.write_bytes, 2400u);
}

}  // namespace
}  // namespace socsim
