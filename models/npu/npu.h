// The NPU as a SystemC TLM-2.0 device: a register target (firmware/abi/npu_registers.h) and a DMA
// initiator that reads a command list of layer descriptors and the layers' operands through
// the SoC's router, so that DDR bandwidth and contention come from the DDR model.
//
// One SC_THREAD runs a started command list layer by layer: it decodes and checks each
// descriptor, computes the layer's results with the functional model (operands fetched
// untimed at the layer's start), and plays the layer's tile schedule (mac_array_timing.h)
// against the bus: every DMA request is a timed b_transport tagged with InitiatorExtension
// "npu", issued at the DMA engine's rate with a bounded number of requests in flight, and
// the output tiles are written with the computed bytes. At the end of the list it sets the
// status register and raises its interrupt line (IrqLines::set_level), and it records
// per-layer statistics for the report.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "firmware/abi/generated/npu_descriptor.h"
#include "firmware/abi/npu_registers.h"
#include "models/common/clock.h"
#include "models/common/initiator.h"
#include "models/common/irq.h"
#include "models/npu/mac_array_timing.h"
#include "models/npu/npu_config.h"
#include "models/peripherals/register_device.h"

namespace socsim {

/// Statistics of one executed layer, in NPU cycles.
struct NpuLayerRecord {
  uint32_t run = 0;    ///< which command list (0 = the first started)
  uint32_t index = 0;  ///< position in its command list
  uint32_t list_addr = 0;  ///< address of its command list (tells a program's lists apart)
  std::string name;
  std::string op_type;     ///< "Conv", "DepthwiseConv", ... with a fused activation appended
  uint32_t in_shape[4] = {};
  uint32_t out_shape[4] = {};
  uint64_t macs = 0;
  uint32_t cores_used = 0;
  uint64_t start_cycle = 0;
  uint64_t ddr_cycles = 0;    ///< cycles the DMA engine was busy, from the bus's answers
  uint64_t npu_cycles = 0;    ///< compute cycles of the array / vector unit
  uint64_t pointwise_floor_cycles = 0;  ///< of those, added by the 1x1 floor (preset key)
  uint64_t elapsed_cycles = 0;  ///< start to completion, setup included (Time(us))
  uint64_t read_bytes = 0;
  uint64_t write_bytes = 0;
  /// DMA bytes of each stream (input, weights, output; NpuStream order), re-reads included
  uint64_t stream_bytes[3] = {};
  uint32_t addr[npu::kAddrCount] = {};            ///< operand addresses (descriptor order)
  uint64_t operand_bytes[npu::kAddrCount] = {};   ///< operand sizes
  std::vector<uint64_t> core_work;  ///< channels each core computed (WorkLoad)
  uint32_t tasks = 0;     ///< tiles the layer was cut into (TaskNumber)
  /// RKNN's MacUsage: MACs / (elapsed cycles x MACs per cycle of the cores used), 0..1
  double mac_usage = 0;
  /// RKNN's Total Cycles: the larger of DDR and NPU cycles.
  uint64_t total_cycles() const { return std::max(ddr_cycles, npu_cycles); }
  bool bandwidth_bound() const { return ddr_cycles > npu_cycles; }
};

/// One DMA transfer of a stream (a layer's descriptor, input, weights or output), in NPU
/// cycles, for the timeline.
struct NpuDmaRecord {
  uint64_t begin = 0, end = 0;
  uint64_t bytes = 0;
  bool write = false;
  uint32_t layer = 0;  ///< index in layers() of the layer it belongs to
};

/// A layer's OpType as the report shows it: the plan's operator, its fused bounds (Relu,
/// Clip), then its lookup stage (ConvSigmoid, AddReluTanh).
std::string npu_layer_op_type(const npu::LayerDescriptor& d, const LayerPlan& plan);

struct NpuOperandBuffers;  // npu.cpp
struct NpuOperandSizes;    // models/npu/npu_layer.h

class Npu : public RegisterDevice {
 public:
  /// `cpu_clock` times register accesses (the CPU's cycles); the NPU runs on its own clock.
  Npu(sc_core::sc_module_name name, const NpuConfig& config, const ClockDomain& cpu_clock,
      IrqLines& irq, unsigned irq_line, int initiator_id = 1);

  tlm_utils::simple_initiator_socket<Npu> dma_socket;

  const NpuConfig& config() const { return config_; }
  const ClockDomain& clock() const { return clock_npu_; }
  const std::vector<NpuLayerRecord>& layers() const { return layers_; }
  /// Records every DMA transfer into `log` (not owned; null: none, the default).
  void set_dma_log(std::vector<NpuDmaRecord>* log) { dma_log_ = log; }

 protected:
  bool read_reg(uint64_t offset, unsigned size, uint64_t cycle, uint32_t* value) override;
  bool write_reg(uint64_t offset, unsigned size, uint32_t value, uint64_t cycle) override;

 private:
  // A DMA stream: operand regions read or written one after the other, wrapping around.
  struct Stream {
    struct Segment {
      uint32_t addr;
      uint64_t size;
    };
    std::vector<Segment> segments;
    uint64_t total = 0;
    uint64_t cursor = 0;
    const uint8_t* write_data = nullptr;  ///< output stream: the bytes to write
    uint8_t* read_data = nullptr;         ///< if set, read bytes land here (at the cursor)
  };

  // When a layer ran, in NPU cycles: its start, its descriptor's transfer, its schedule.
  struct LayerSpan {
    uint64_t start = 0;
    NpuDmaSpan descriptor;
    ScheduleTimes times;
  };

  void run_thread();
  /// Runs the layer at `index` of the command list from NPU cycle `*now`, which it advances
  /// to the layer's end: fetch_descriptor, execute_operands, schedule_transfers, record_layer.
  npu::NpuError run_layer(uint32_t index, uint64_t* now);
  npu::NpuError fetch_descriptor(uint32_t index, uint64_t now, npu::LayerDescriptor* d,
                                 NpuDmaSpan* fetched);
  npu::NpuError execute_operands(const npu::LayerDescriptor& d, const NpuOperandSizes& sizes,
                                 NpuOperandBuffers* operands);
  ScheduleTimes schedule_transfers(const npu::LayerDescriptor& d, const NpuOperandSizes& sizes,
                                   const LayerPlan& plan, NpuOperandBuffers& operands,
                                   uint64_t now);
  void record_layer(uint32_t index, const npu::LayerDescriptor& d, const NpuOperandSizes& sizes,
                    const LayerPlan& plan, const LayerSpan& span);
  /// Untimed read of operand bytes; false if the bus refuses them.
  bool fetch(uint32_t addr, uint8_t* data, uint64_t size);
  /// Timed transfer of `bytes` of a stream, not before NPU cycle `start`.
  NpuDmaSpan transfer(uint64_t start, Stream& stream, bool write, uint64_t bytes);
  bool bus(tlm::tlm_command cmd, uint32_t addr, uint8_t* data, uint32_t size, uint64_t issue,
           uint64_t* done);
  void wait_until(uint64_t npu_cycle);
  uint64_t npu_cycle_of(const sc_core::sc_time& t) const;

  NpuConfig config_;
  ClockDomain clock_npu_;
  IrqLines& irq_;
  unsigned irq_line_;
  InitiatorExtension* initiator_;  // owned by payload_
  tlm::tlm_generic_payload payload_;

  // Registers.
  uint32_t cmd_addr_ = 0;
  uint32_t cmd_count_ = 0;
  bool irq_enable_ = false;
  bool busy_ = false;
  bool done_ = false;
  uint32_t error_ = 0;
  uint32_t error_layer_ = 0;
  uint32_t layers_done_ = 0;
  uint64_t last_cycles_ = 0;
  uint64_t busy_cycles_ = 0;

  sc_core::sc_event start_event_;
  sc_core::sc_event halted_;  ///< never notified: a layer stopped from the host waits on it
  sc_core::sc_time start_time_;
  uint32_t runs_ = 0;
  uint64_t engine_free_ = 0;  ///< NPU cycle at which the DMA engine can take a transfer
  bool bus_error_ = false;
  std::vector<NpuDmaRecord>* dma_log_ = nullptr;
  std::vector<NpuLayerRecord> layers_;
};

}  // namespace socsim
