// NPU configuration: the plain structure that mirrors an NPU preset YAML (configs/npu/), its
// loader (preset file plus overrides from the SoC YAML's `npu:` section) and its validation.
//
// The keys are declared in one table (npu_config_keys(), documented in docs/npu.md from
// it). Every value is checked when read;
// errors name the file, line and key of the value (preset or SoC file, or the `--set`
// option that supplied it).
#pragma once

#include <array>
#include <cstdint>
#include <ostream>
#include <set>
#include <string>

#include "models/common/config.h"
#include "models/common/config_table.h"

namespace socsim {

/// Element types the MAC array can work on.
enum class NpuDataType { kInt8 = 0, kInt16 = 1, kFp16 = 2 };
constexpr size_t kNpuDataTypes = 3;
const char* to_string(NpuDataType type);

/// Which operand stays in the processing elements (SCALE-Sim's dataflows).
enum class NpuDataflow { kWeightStationary, kOutputStationary, kInputStationary };
const char* to_string(NpuDataflow dataflow);

/// How a depthwise convolution uses the array (docs/npu.md, "Depthwise").
enum class NpuDepthwiseMapping {
  kChannelLanes,    ///< R channels per pass on the array's diagonal, taps and pixels in time
  kChannelPerLayer  ///< SCALE-Sim: each channel a single-channel, single-filter layer
};
const char* to_string(NpuDepthwiseMapping mapping);

/// Channel alignment of one data type (RKNN's table): sizes are padded up to these.
struct NpuAlignment {
  uint32_t conv_input = 1;   ///< input channels of a convolution / fully connected layer
  uint32_t conv_output = 1;  ///< output channels of a convolution / fully connected layer
  uint32_t depthwise = 1;    ///< channels of a depthwise convolution
  uint32_t other = 1;        ///< channels of elementwise and pooling operators
};

/// The DMA engine of one NPU.
struct NpuDma {
  uint32_t bytes_per_cycle = 32;  ///< issue rate of the engine, bytes per NPU cycle
  uint32_t outstanding = 8;       ///< requests in flight at most
  uint32_t burst_bytes = 64;      ///< size of one bus request
};

/// Energy per operation (docs/npu.md, "Energy"): what the report's MAC and buffer energy
/// columns multiply. `known` is false when the preset has no `energy` section.
struct NpuEnergy {
  bool known = false;
  std::array<double, kNpuDataTypes> mac_pj{{0, 0, 0}};  ///< per multiply-accumulate
  double buffer_pj_per_byte = 0;  ///< per byte written into or read out of the buffer
};

/// Every operator class an NPU may run (the operator schema's: kNpuOperatorNames below).
std::set<std::string> all_npu_operators();

struct NpuConfig {
  std::string name;
  std::string description;  ///< the preset's words about itself ("" if none)
  std::string preset_file;
  double clock_mhz = 1000;
  uint32_t cores = 1;
  uint32_t rows = 16;     ///< R: processing-element rows per core
  uint32_t columns = 16;  ///< C: processing-element columns per core
  /// MACs per processing element per cycle for each data type (int8 1, int16 0.5, ...).
  std::array<double, kNpuDataTypes> throughput{{1.0, 0.5, 0.5}};
  NpuDataflow dataflow = NpuDataflow::kWeightStationary;
  /// true: the next fold's stationary operand loads while the current fold streams, so a
  /// fold costs its T cycles and the layer pays the array's fill and drain once (a pipelined
  /// array, as RK3588's NPU Cycles show); false: every fold pays them (SCALE-Sim).
  bool fold_overlap = false;
  /// true: a convolution with fewer input channels than `conv_input` packs Kh x Kw x Cin
  /// into the reduction instead of padding Cin (RK3588's first layers).
  bool small_cin_packing = false;
  NpuDepthwiseMapping depthwise_mapping = NpuDepthwiseMapping::kChannelLanes;
  /// N > 0: a 1x1 convolution takes at least ceil(Cout / N) cycles per output pixel (Cout
  /// aligned to conv_output), the floor newer RKNN firmware shows on RK3588; 0: no floor.
  uint32_t pointwise_channels_per_cycle = 0;
  bool tiling = true;  ///< false: every layer in one tile, whatever the buffer (SCALE-Sim)
  std::array<NpuAlignment, kNpuDataTypes> alignment{};
  uint64_t buffer_bytes = 256 * 1024;  ///< on-chip buffer per core
  /// N > 0: the buffer is N equal banks and a convolution tile holds its input and its
  /// weights in whole banks of their own, the output not at all (RK3588's CBUF: 12 banks of
  /// 32 KiB, data and weight banks set per task); 0: one byte budget, the output tile in it.
  uint32_t buffer_banks = 0;
  /// true: a tile's operands load while the previous tile computes (two copies in the
  /// buffer); false: one copy, the next tile loads after this one's compute.
  bool double_buffer = true;
  NpuDma dma;
  uint32_t setup_cycles = 0;      ///< per layer: descriptor decode, configuration
  uint32_t writeback_cycles = 0;  ///< per layer: output pipeline latency before the last write
  uint32_t lut_cycles = 0;        ///< per layer with a lookup table: loading it into the LUT
  NpuEnergy energy;
  bool split_output_channels = true;  ///< layers are split across cores by output channels
  std::set<std::string> operators = all_npu_operators();  ///< operator classes the NPU runs
                                                          ///< (a layer of another: an error)
  std::set<std::string> fusions;      ///< activations it applies on the output path

  /// int8 MACs per cycle of all cores.
  double peak_macs_per_cycle(NpuDataType type) const {
    return throughput[static_cast<size_t>(type)] * rows * columns * cores;
  }
};

/// Operator classes a preset may list under `operators` (the operator schema's NPU classes,
/// NULL-terminated), and activations under `fusions`.
extern const char* const* const kNpuOperatorNames;
extern const char* const kNpuFusionNames[];

/// The keys of a preset (every key but the optional `energy` map's) and of `energy`,
/// with types, ranges and documentation: what the readers below read.
const ConfigTable<NpuConfig>& npu_config_keys();
const ConfigTable<NpuEnergy>& npu_energy_keys();
/// docs/npu.md's generated tables of these keys (`socsim config --keys npu`).
void write_npu_key_docs(std::ostream& out);

/// Loads and validates a preset file (strict: unknown keys are errors).
NpuConfig load_npu_preset(const std::string& file);

/// Loads the NPU of a SoC YAML: the section's `preset` (a path relative to base_dir) merged
/// under it (ConfigNode::merge_presets; the SoC loader has done so already), so the
/// section's keys override the preset's, with the same structure. Unknown keys are errors.
/// Throws ConfigError naming file, line and key.
NpuConfig load_npu_config(const ConfigNode& section, const std::string& base_dir);

}  // namespace socsim
