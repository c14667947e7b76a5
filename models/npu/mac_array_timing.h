// Timing of one NPU layer on the MAC array: alignment padding, the split across cores,
// tiling into the on-chip buffer, the array's compute cycles per tile (SCALE-Sim's no-stall
// formula) and the DMA traffic of each tile. Pure C++; the SystemC device (npu.h) plays the
// resulting schedule against the real bus, and `schedule_layer` with an ideal DMA gives the
// stand-alone estimate. docs/npu.md explains the model.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "firmware/abi/generated/npu_descriptor.h"
#include "models/npu/npu_config.h"

namespace socsim {

/// The operand sizes of SCALE-Sim's mapping: S_R x S_C spatial, T temporal.
struct ArrayOperands {
  uint64_t s_r = 0, s_c = 0, t = 0;
};

/// SCALE-Sim's table: a convolution of `window` (Kh x Kw x Cin) products per output,
/// `filters` output channels and `pixels` output pixels, for a dataflow.
ArrayOperands array_operands(NpuDataflow dataflow, uint64_t window, uint64_t filters,
                             uint64_t pixels);

/// The fill and drain of one fold on an R x C array (SCALE-Sim v3): 2R + C - 2 for weight
/// and input stationary (R cycles to load the stationary operand, R + C - 2 of skew), R + C
/// - 2 for output stationary (nothing preloaded).
uint64_t fold_fill_cycles(NpuDataflow dataflow, uint64_t rows, uint64_t cols);

/// SCALE-Sim's cycles of an R x C systolic array, without stalls:
/// (fold_fill_cycles + T) * ceil(S_R / R) * ceil(S_C / C). SCALE-Sim v3 reports one less
/// (the index of the last cycle).
uint64_t systolic_cycles(NpuDataflow dataflow, uint64_t rows, uint64_t cols,
                         const ArrayOperands& op);

inline uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

/// One step of a layer's schedule: all cores working on one tile each, in lockstep.
struct NpuTile {
  uint64_t input_bytes = 0;    ///< read from the input stream before the tile starts
  uint64_t weight_bytes = 0;   ///< read from the weight stream (weights, bias, requant)
  uint64_t compute_cycles = 0; ///< slowest core
  uint64_t output_bytes = 0;   ///< written after the tile ends (0 while partial sums stay)
};

/// The plan of one layer.
struct LayerPlan {
  std::string op_type;          ///< "Conv", "DepthwiseConv", "FullyConnected", "Add", ...
  bool uses_array = false;      ///< true for convolutions and fully connected layers
  uint64_t macs = 0;            ///< real multiply-accumulates
  uint32_t cores_used = 1;
  std::vector<uint64_t> core_work;  ///< channels of each core used
  // Array mapping of the largest core share (for reports and tests).
  uint64_t s_r = 0, s_c = 0, t = 0;  ///< SCALE-Sim operand sizes, aligned, whole layer
  uint32_t tile_m = 0, tile_n = 0, tile_rows = 0;  ///< output channels, input channels, rows
  bool rows_outer = false;      ///< loop order: row tiles outside channel tiles
  uint64_t compute_cycles = 0;  ///< sum of the tiles' compute cycles
  uint64_t pointwise_floor_cycles = 0;  ///< of those, what the 1x1 floor adds to the folds
  uint64_t read_bytes = 0;      ///< DMA reads of all cores
  uint64_t write_bytes = 0;     ///< DMA writes
  uint64_t buffer_bytes = 0;    ///< on-chip buffer the largest tile needs (double-buffered)
  std::vector<NpuTile> tiles;
};

/// Plans a layer (the descriptor must pass validate_layer()): its layer entry's plan, with
/// the report name of its opcode.
LayerPlan plan_layer(const NpuConfig& config, const npu::LayerDescriptor& d);

/// A convolution as the planner sees it: N x Cin x Hin x Win in, Cout x Ho x Wo out, Kh x Kw
/// windows with a vertical stride, top padding and dilation, groups. A fully connected layer
/// is a 1x1 convolution over a (rows x 1) image, which moves the same bytes and MACs.
struct NpuConvView {
  uint64_t n, cin, hin, win, cout, ho, wo, kh, kw, stride, pad_t, dil, groups;
  bool depthwise;
  /// Weight-stream bytes per output channel besides the weights: int32 bias, multiplier and
  /// shift (a matrix product of two activations has one scale for the layer: 0).
  uint64_t channel_bytes = 12;
};

/// Plans a layer on the MAC array (layer entries' plan functions call it).
void plan_array_layer(const NpuConfig& config, const NpuConvView& v, LayerPlan* plan);

/// An elementwise or pooling layer as the vector path sees it: N x C planes of Hin x Win in,
/// Ho x Wo out, windows of Kh x Kw with a vertical stride and top padding; `binary` layers
/// stream a second input of the input's size; `table_bytes` are read once, with the first
/// tile (a lookup table); `channel_operand_bytes` per plane are read with each channel tile's
/// first row tile (a per-channel second operand). A resize (`row_repeat` > 1) makes
/// `row_repeat` output rows of each input row, and reads `index_bytes` (its index table) once
/// per core with the first tile, without the lookup's `lut_cycles`.
struct NpuVectorView {
  uint64_t n, ch, hin, win, ho, wo, kh, kw, stride, pad_t;
  bool binary;
  uint64_t table_bytes;
  uint64_t channel_operand_bytes = 0;  ///< per (batch, channel) plane, with its first row tile
  uint64_t row_repeat = 1;             ///< output rows per input row (a resize)
  uint64_t index_bytes = 0;            ///< a resize's index table
};

/// The vector view of an elementwise layer: the descriptor's shapes, 1 x 1 windows, one input.
NpuVectorView vector_view(const npu::LayerDescriptor& d);

/// Plans a layer on the vector path of `columns` elements per cycle.
void plan_vector_layer(const NpuConfig& config, const NpuVectorView& v, LayerPlan* plan);

/// The result of playing a schedule.
struct ScheduleTimes {
  uint64_t end = 0;          ///< completion cycle of the layer
  uint64_t dma_cycles = 0;   ///< cycles the DMA engine was busy (loads and stores)
  uint64_t compute_cycles = 0;
};

/// When a DMA transfer occupied the engine: from `begin` to the completion of its last
/// request, in NPU cycles.
struct NpuDmaSpan {
  uint64_t begin = 0;
  uint64_t end = 0;
};

/// DMA streams of a layer.
enum class NpuStream { kInput = 0, kWeights = 1, kOutput = 2 };

/// A DMA transfer of `bytes` of a stream, not before cycle `start`. The engine is
/// sequential: the callee queues the transfer behind earlier ones.
using NpuDmaFn = std::function<NpuDmaSpan(uint64_t start, NpuStream stream, uint64_t bytes)>;

/// Plays a plan from cycle `start`: setup, first load, then double-buffered tiles (tile
/// i+1 loads while tile i computes; tile i's output is stored when it ends).
ScheduleTimes schedule_layer(const NpuConfig& config, const LayerPlan& plan, uint64_t start,
                             const NpuDmaFn& dma);

/// RKNN's MacUsage (0..1): MACs / (elapsed cycles x MACs per cycle of the cores used).
double rknn_mac_usage(const NpuConfig& config, uint64_t macs, uint32_t cores_used,
                      uint64_t elapsed_cycles);

/// A DMA limited only by the engine's issue rate (bytes_per_cycle), zero latency: the
/// stand-alone estimate when there is no bus.
NpuDmaFn ideal_dma(const NpuConfig& config);

}  // namespace socsim
