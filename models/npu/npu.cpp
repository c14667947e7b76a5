#include "models/npu/npu.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "models/common/host_stop.h"
#include "models/common/tlm_access.h"
#include "models/npu/npu_functional.h"
#include "models/npu/npu_post_op.h"

namespace socsim {

using namespace npu;

namespace {

// Bursts of one transfer issued between two synchronisations with SystemC time: small
// enough that other initiators' requests interleave with the NPU's, large enough to keep
// context switches rare.
constexpr uint64_t kSyncCycles = 256;

// How often a layer's functional execution looks for a stop request.
constexpr std::chrono::milliseconds kStopPoll{20};

// The fused activation of a layer, appended to its OpType in the report (ConvRelu, AddClip).
std::string activation_suffix(const LayerDescriptor& d) {
  NpuOutputBounds b;
  if (!find_npu_layer(d.op)->layer->output_bounds(d, &b)) return "";
  if (b.lo == std::max(b.zero_point, -128) && b.hi == 127) return "Relu";
  if (b.lo > -128 || b.hi < 127) return "Clip";
  return "";
}

}  // namespace

// A layer's operands as fetched at its start: one buffer per descriptor slot, in 32-bit
// words so that int32 operands (bias, requantisation) are aligned; the output is computed
// into its buffer and written by the output DMA.
struct NpuOperandBuffers {
  std::vector<int32_t> words[kAddrCount];

  uint8_t* bytes(uint32_t slot) { return reinterpret_cast<uint8_t*>(words[slot].data()); }
  NpuOperands operands() {
    NpuOperands ops;
    ops.input = reinterpret_cast<const int8_t*>(words[kAddrInput].data());
    ops.weights = reinterpret_cast<const int8_t*>(words[kAddrWeights].data());
    ops.bias = words[kAddrBias].data();
    ops.requant = words[kAddrRequant].data();
    ops.output = reinterpret_cast<int8_t*>(words[kAddrOutput].data());
    ops.table = reinterpret_cast<const int8_t*>(words[kAddrTable].data());
    return ops;
  }
};

namespace {

// Runs execute_layer() on a host thread while this one polls HostStop: a layer of billions of
// MACs computes for seconds inside one SystemC event, where the simulation loop cannot stop
// it. nullopt when a stop (SIGINT, SIGTERM, --max-host-seconds) came first; the thread is
// then left to finish on its own copy of the operands, which it owns with this function's.
std::optional<NpuError> execute_until_stopped(const LayerDescriptor& d,
                                              NpuOperandBuffers* buffers) {
  struct Job {
    LayerDescriptor d;
    NpuOperandBuffers buffers;
    NpuError result = kNpuOk;
    bool done = false;
    std::mutex mutex;
    std::condition_variable finished;
  };
  if (HostStop::requested()) return std::nullopt;  // stopped before the layer began
  auto job = std::make_shared<Job>();
  job->d = d;
  job->buffers = std::move(*buffers);
  std::thread worker([job] {
    const NpuError result = execute_layer(job->d, job->buffers.operands());
    const std::lock_guard<std::mutex> lock(job->mutex);
    job->result = result;
    job->done = true;
    job->finished.notify_one();
  });
  std::unique_lock<std::mutex> lock(job->mutex);
  while (!job->finished.wait_for(lock, kStopPoll, [&] { return job->done; })) {
    if (HostStop::requested()) {
      lock.unlock();
      worker.detach();
      return std::nullopt;
    }
  }
  lock.unlock();
  worker.join();
  *buffers = std::move(job->buffers);
  return job->result;
}

}  // namespace

Npu::Npu(sc_core::sc_module_name name, const NpuConfig& config, const ClockDomain& cpu_clock,
         IrqLines& irq, unsigned irq_line, int initiator_id)
    : RegisterDevice(name, cpu_clock),
      dma_socket("dma_socket"),
      config_(config),
      clock_npu_(config.clock_mhz),
      irq_(irq),
      irq_line_(irq_line),
      initiator_(new InitiatorExtension(initiator_id, "npu")) {
  payload_.set_extension(initiator_);
  SC_HAS_PROCESS(Npu);
  SC_THREAD(run_thread);
}

// ---- registers ---------------------------------------------------------------------------

bool Npu::read_reg(uint64_t offset, unsigned size, uint64_t, uint32_t* value) {
  if (size != 4 || offset % 4 != 0) return false;
  switch (offset) {
    case kRegId: *value = kIdValue; return true;
    case kRegStatus:
      *value = (busy_ ? kStatusBusy : 0) | (done_ ? kStatusDone : 0) |
               (error_ ? kStatusError : 0) | (error_ << kStatusErrorShift) |
               (error_layer_ << kStatusLayerShift);
      return true;
    case kRegIrqEnable: *value = irq_enable_ ? 1 : 0; return true;
    case kRegCmdAddr: *value = cmd_addr_; return true;
    case kRegCmdCount: *value = cmd_count_; return true;
    case kRegCyclesLo: *value = static_cast<uint32_t>(last_cycles_); return true;
    case kRegCyclesHi: *value = static_cast<uint32_t>(last_cycles_ >> 32); return true;
    case kRegLayersDone: *value = layers_done_; return true;
    case kRegTotalLo: *value = static_cast<uint32_t>(busy_cycles_); return true;
    case kRegTotalHi: *value = static_cast<uint32_t>(busy_cycles_ >> 32); return true;
    case kRegCtrl:
    case kRegIrqClear: *value = 0; return true;
    default: return false;
  }
}

bool Npu::write_reg(uint64_t offset, unsigned size, uint32_t value, uint64_t cycle) {
  if (size != 4 || offset % 4 != 0) return false;
  switch (offset) {
    case kRegCtrl:
      if ((value & kCtrlStart) == 0) return true;
      if (busy_) {
        error_ = kNpuBusy;  // the running list goes on; the error stays until cleared
        return true;
      }
      busy_ = true;
      done_ = false;
      error_ = kNpuOk;
      error_layer_ = 0;
      layers_done_ = 0;
      {
        // The CPU runs ahead of SystemC time: the list starts at the CPU's cycle.
        const sc_core::sc_time at = clock_.time_of(cycle);
        const sc_core::sc_time now = sc_core::sc_time_stamp();
        start_event_.notify(at > now ? at - now : sc_core::SC_ZERO_TIME);
      }
      return true;
    case kRegIrqEnable:
      irq_enable_ = (value & 1) != 0;
      if (!irq_enable_) irq_.set_level(irq_line_, false);
      if (irq_enable_ && (done_ || error_)) irq_.set_level(irq_line_, true);
      return true;
    case kRegIrqClear:
      if (value & 1) {
        done_ = false;
        if (!busy_) error_ = kNpuOk;
        irq_.set_level(irq_line_, false);
      }
      return true;
    case kRegCmdAddr: cmd_addr_ = value; return true;
    case kRegCmdCount: cmd_count_ = value; return true;
    case kRegId:
    case kRegStatus:
    case kRegCyclesLo:
    case kRegCyclesHi:
    case kRegLayersDone:
    case kRegTotalLo:
    case kRegTotalHi: return true;  // read-only: writes are ignored
    default: return false;
  }
}

std::string npu_layer_op_type(const LayerDescriptor& d, const LayerPlan& plan) {
  return plan.op_type + activation_suffix(d) + post_op_report_name(d);
}

// ---- execution ---------------------------------------------------------------------------

uint64_t Npu::npu_cycle_of(const sc_core::sc_time& t) const { return clock_npu_.cycles_for(t); }

void Npu::wait_until(uint64_t npu_cycle) {
  const sc_core::sc_time t = clock_npu_.time_of(npu_cycle);
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  if (t > now) wait(t - now);
}

void Npu::run_thread() {
  for (;;) {
    wait(start_event_);
    const uint64_t start = npu_cycle_of(sc_core::sc_time_stamp());
    uint64_t now = start;
    engine_free_ = std::max(engine_free_, now);
    if (cmd_count_ == 0) {
      error_ = kNpuEmptyList;
    }
    for (uint32_t i = 0; i < cmd_count_; ++i) {
      const NpuError e = run_layer(i, &now);
      if (e != kNpuOk) {
        error_ = e;
        error_layer_ = i;
        break;
      }
      ++layers_done_;
    }
    wait_until(now);
    last_cycles_ = now - start;
    busy_cycles_ += last_cycles_;
    busy_ = false;
    done_ = true;
    ++runs_;
    if (irq_enable_) irq_.set_level(irq_line_, true);
  }
}

bool Npu::fetch(uint32_t addr, uint8_t* data, uint64_t size) {
  tlm::tlm_generic_payload p;
  p.set_command(tlm::TLM_READ_COMMAND);
  p.set_address(addr);
  p.set_data_ptr(data);
  p.set_data_length(static_cast<unsigned>(size));
  p.set_streaming_width(static_cast<unsigned>(size));
  return dma_socket->transport_dbg(p) == size;
}

bool Npu::bus(tlm::tlm_command cmd, uint32_t addr, uint8_t* data, uint32_t size, uint64_t issue,
              uint64_t* done) {
  prepare_access(payload_, cmd, addr, data, size);
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  sc_core::sc_time delay = delay_until(clock_npu_.time_of(issue));
  dma_socket->b_transport(payload_, delay);
  *done = std::max(issue + 1, npu_cycle_of(now + delay));
  return payload_.is_response_ok();
}

NpuDmaSpan Npu::transfer(uint64_t start, Stream& stream, bool write, uint64_t bytes) {
  const uint64_t bytes_asked = bytes;
  const uint64_t begin = std::max(start, engine_free_);
  wait_until(begin);
  const uint32_t burst = config_.dma.burst_bytes;
  const uint32_t rate = config_.dma.bytes_per_cycle;
  std::vector<uint64_t> in_flight(config_.dma.outstanding, 0);
  uint8_t scratch[4096];
  // Issue times keep the engine's rate exact over the transfer: a burst of `chunk` bytes
  // advances the issue cycle by (chunk + carry) / rate and keeps the remainder, so 64-byte
  // bursts at 24 bytes per cycle go out at 24 B per cycle on average, not one per 3 cycles.
  uint64_t issue = begin, end = begin, synced = begin, k = 0, carry = 0;
  while (bytes > 0 && !bus_error_) {
    // Where the stream's cursor points: segment and offset.
    uint64_t offset = stream.cursor;
    size_t seg = 0;
    while (offset >= stream.segments[seg].size) offset -= stream.segments[seg++].size;
    const Stream::Segment& s = stream.segments[seg];
    const uint64_t addr = s.addr + offset;
    uint64_t chunk = std::min<uint64_t>(bytes, burst - addr % burst);
    chunk = std::min(chunk, s.size - offset);
    const uint64_t slot = k % in_flight.size();
    if (k >= in_flight.size()) issue = std::max(issue, in_flight[slot]);
    if (issue > synced + kSyncCycles) {
      wait_until(issue);
      synced = issue;
    }
    uint8_t* data = scratch;
    if (write) {
      std::memcpy(scratch, stream.write_data + stream.cursor, chunk);
    } else if (stream.read_data != nullptr) {
      data = stream.read_data + stream.cursor;
    }
    uint64_t done = 0;
    if (!bus(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND,
             static_cast<uint32_t>(addr), data, static_cast<uint32_t>(chunk), issue, &done)) {
      bus_error_ = true;
    }
    in_flight[slot] = done;
    end = std::max(end, done);
    issue += (chunk + carry) / rate;
    carry = (chunk + carry) % rate;
    stream.cursor = (stream.cursor + chunk) % stream.total;
    bytes -= chunk;
    ++k;
  }
  engine_free_ = end;
  if (dma_log_ != nullptr) {
    dma_log_->push_back({begin, end, bytes_asked, write,
                         static_cast<uint32_t>(layers_.size())});
  }
  return {begin, end};
}

// A layer: its descriptor fetched and checked, its result computed, its transfers played
// against the bus, its record kept.
NpuError Npu::run_layer(uint32_t index, uint64_t* now) {
  bus_error_ = false;
  const uint64_t layer_start = *now;
  LayerDescriptor d;
  NpuDmaSpan fetched;
  if (const NpuError e = fetch_descriptor(index, *now, &d, &fetched); e != kNpuOk) return e;
  *now = fetched.end;

  const NpuOperandSizes sizes = operand_sizes(d);
  NpuOperandBuffers operands;
  if (const NpuError e = execute_operands(d, sizes, &operands); e != kNpuOk) return e;

  const LayerPlan plan = plan_layer(config_, d);
  const ScheduleTimes times = schedule_transfers(d, sizes, plan, operands, *now);
  if (bus_error_) return kNpuBusError;

  record_layer(index, d, sizes, plan, LayerSpan{layer_start, fetched, times});
  *now = times.end;
  return kNpuOk;
}

// The descriptor, read through the DMA like any operand, and checked: a valid layer of an
// operator class (and lookup stage) that the preset lists.
NpuError Npu::fetch_descriptor(uint32_t index, uint64_t now, LayerDescriptor* d,
                               NpuDmaSpan* fetched) {
  Stream desc;
  desc.segments.push_back({cmd_addr_ + index * kDescriptorSize, kDescriptorSize});
  desc.total = kDescriptorSize;
  desc.read_data = reinterpret_cast<uint8_t*>(d);
  *fetched = transfer(now, desc, false, kDescriptorSize);
  if (bus_error_) return kNpuBusError;
  const NpuError invalid = validate_layer(*d);
  if (invalid != kNpuOk) return invalid;
  const char* operator_class_name = operator_class(*d);
  if (operator_class_name == nullptr || config_.operators.count(operator_class_name) == 0) {
    return kNpuNotInPreset;  // the preset's `operators` list: this NPU has no such layer
  }
  const char* post_op = post_op_class(*d);
  if (post_op != nullptr && config_.operators.count(post_op) == 0) {
    return kNpuNotInPreset;  // nor a lookup stage of a class it does not list
  }
  return kNpuOk;
}

// Functional results, from the operands as they are at the layer's start (untimed reads);
// the output lands in its buffer, for the output DMA to write.
NpuError Npu::execute_operands(const LayerDescriptor& d, const NpuOperandSizes& sizes,
                               NpuOperandBuffers* operands) {
  for (uint32_t slot = 0; slot < kAddrCount; ++slot) {
    operands->words[slot].resize((sizes.bytes[slot] + 3) / 4);
    if (slot == kAddrOutput || sizes.bytes[slot] == 0) continue;
    if (!fetch(d.addr[slot], operands->bytes(slot), sizes.bytes[slot])) return kNpuBusError;
  }
  const std::optional<NpuError> failed = execute_until_stopped(d, operands);
  if (!failed) {
    // Stopped from the host: the layer never ends; the simulation loop ends the run at the
    // end of its time slice, with the position and the reports of an interrupted run.
    wait(halted_);
    return kNpuOk;  // not reached: halted_ is never notified
  }
  return *failed;
}

// Timing: the tile schedule played against the bus from NPU cycle `now`, the input, weight
// (with bias, requantisation and table) and output streams each a DMA stream; outputs are
// written with their values. A refused access sets bus_error_.
ScheduleTimes Npu::schedule_transfers(const LayerDescriptor& d, const NpuOperandSizes& sizes,
                                      const LayerPlan& plan, NpuOperandBuffers& operands,
                                      uint64_t now) {
  Stream streams[3];
  streams[0].segments.push_back({d.addr[kAddrInput], sizes.bytes[kAddrInput]});
  for (uint32_t slot : {kAddrWeights, kAddrBias, kAddrRequant, kAddrTable}) {
    if (sizes.bytes[slot] != 0) streams[1].segments.push_back({d.addr[slot], sizes.bytes[slot]});
  }
  streams[2].segments.push_back({d.addr[kAddrOutput], sizes.bytes[kAddrOutput]});
  streams[2].write_data = operands.bytes(kAddrOutput);
  for (Stream& s : streams) {
    for (const Stream::Segment& seg : s.segments) s.total += seg.size;
  }
  return schedule_layer(config_, plan, now, [&](uint64_t start, NpuStream stream, uint64_t bytes) {
    const int i = static_cast<int>(stream);
    return transfer(start, streams[i], stream == NpuStream::kOutput, bytes);
  });
}

// The layer's line of the per-layer report (NpuLayerRecord).
void Npu::record_layer(uint32_t index, const LayerDescriptor& d, const NpuOperandSizes& sizes,
                       const LayerPlan& plan, const LayerSpan& span) {
  NpuLayerRecord r;
  r.run = runs_;
  r.index = index;
  r.list_addr = cmd_addr_;
  r.name.assign(d.name, strnlen(d.name, kNameSize));
  // The output stage in order: the bounds, then the lookup (ConvSigmoid, AddReluTanh).
  r.op_type = npu_layer_op_type(d, plan);
  std::memcpy(r.in_shape, d.in_shape, sizeof r.in_shape);
  std::memcpy(r.out_shape, d.out_shape, sizeof r.out_shape);
  r.macs = plan.macs;
  std::memcpy(r.addr, d.addr, sizeof r.addr);
  std::memcpy(r.operand_bytes, sizes.bytes, sizeof r.operand_bytes);
  r.cores_used = plan.cores_used;
  r.core_work = plan.core_work;
  r.tasks = static_cast<uint32_t>(plan.tiles.size());
  r.start_cycle = span.start;
  r.ddr_cycles = span.times.dma_cycles + (span.descriptor.end - span.descriptor.begin);
  r.npu_cycles = span.times.compute_cycles;
  r.pointwise_floor_cycles = plan.pointwise_floor_cycles;
  r.elapsed_cycles = span.times.end - span.start;
  r.read_bytes = plan.read_bytes + kDescriptorSize;
  r.write_bytes = plan.write_bytes;
  for (const NpuTile& t : plan.tiles) {
    r.stream_bytes[0] += t.input_bytes;
    r.stream_bytes[1] += t.weight_bytes;
    r.stream_bytes[2] += t.output_bytes;
  }
  r.mac_usage = rknn_mac_usage(config_, r.macs, plan.cores_used, r.elapsed_cycles);
  layers_.push_back(r);
}

}  // namespace socsim
