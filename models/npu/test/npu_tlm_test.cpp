// The NPU device in a small SoC: a router, SRAM for command lists, a DDR model for operands,
// and a SystemC initiator standing in for the CPU (and a second one streaming through DDR).
#include "models/npu/npu.h"

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstring>
#include <functional>
#include <random>

#include "models/bus/router.h"
#include "models/common/host_stop.h"
#include "models/ddr/ddr.h"
#include "models/memory/sram.h"
#include "models/npu/npu_functional.h"
#include "models/npu/test/conv_layer.h"

namespace socsim {
namespace {

constexpr uint64_t kSramBase = 0x0, kSramSize = 1 << 20;
constexpr uint64_t kNpuBase = 0x30000000, kNpuSize = 0x1000;
constexpr uint64_t kDdrBase = 0x80000000, kDdrSize = 64 << 20;
constexpr unsigned kIrqLine = 16;

const std::string kConfigs = std::string(SOCSIM_SOURCE_DIR) + "/configs";

// A thread with a bus socket: registers and memory, timed.
class Host : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Host> socket{"socket"};
  std::function<void(Host&)> body;
  InitiatorExtension* ext = nullptr;

  SC_HAS_PROCESS(Host);
  Host(sc_core::sc_module_name name, std::function<void(Host&)> fn)
      : sc_core::sc_module(name), body(std::move(fn)) {
    SC_THREAD(run);
  }
  bool access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, uint32_t size) {
    tlm::tlm_generic_payload p;
    p.set_command(cmd);
    p.set_address(addr);
    p.set_data_ptr(data);
    p.set_data_length(size);
    p.set_streaming_width(size);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    if (ext) p.set_extension(ext);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(p, delay);
    if (ext) p.clear_extension(ext);
    wait(delay);
    return p.is_response_ok();
  }
  void write32(uint64_t addr, uint32_t v) {
    ASSERT_TRUE(access(tlm::TLM_WRITE_COMMAND, addr, reinterpret_cast<uint8_t*>(&v), 4));
  }
  uint32_t read32(uint64_t addr) {
    uint32_t v = 0;
    EXPECT_TRUE(access(tlm::TLM_READ_COMMAND, addr, reinterpret_cast<uint8_t*>(&v), 4));
    return v;
  }

 private:
  void run() {
    if (body) body(*this);
  }
};

struct Layout {
  uint64_t next = kDdrBase;
  uint64_t take(uint64_t bytes) {
    const uint64_t at = next;
    next += (bytes + 63) / 64 * 64;
    return at;
  }
};

class NpuTlmTest : public ::testing::Test {
 protected:
  ClockDomain cpu_clock{400};
  IrqLines irq;
  NpuConfig npu_config = load_npu_preset(kConfigs + "/npu/rk3588-like.yaml");
  DdrConfig ddr_config = load_ddr_preset(kConfigs + "/ddr/ddr4-3200.yaml");
  std::unique_ptr<Router> router;
  std::unique_ptr<Sram> sram;
  std::unique_ptr<Ddr> ddr;
  std::unique_ptr<Npu> npu;
  std::vector<std::unique_ptr<Host>> hosts;
  Layout layout;
  std::vector<npu::LayerDescriptor> descriptors;
  std::mt19937 rng{7};

  void build() {
    router = std::make_unique<Router>("router");
    Sram::Config sc;
    sc.size = kSramSize;
    sram = std::make_unique<Sram>("sram", sc, cpu_clock);
    ddr = std::make_unique<Ddr>("ddr", ddr_config, kDdrSize);
    npu = std::make_unique<Npu>("npu", npu_config, cpu_clock, irq, kIrqLine);
    router->initiator_socket.bind(sram->target_socket);
    router->initiator_socket.bind(ddr->target_socket);
    router->initiator_socket.bind(npu->target_socket);
    router->add_region({"sram", kSramBase, kSramSize, 0, 0});
    router->add_region({"ddr", kDdrBase, kDdrSize, 1, 0});
    router->add_region({"npu", kNpuBase, kNpuSize, 2, 0});
    npu->dma_socket.bind(router->target_socket);
  }
  Host& add_host(const char* name, std::function<void(Host&)> fn) {
    hosts.push_back(std::make_unique<Host>(name, std::move(fn)));
    hosts.back()->socket.bind(router->target_socket);
    return *hosts.back();
  }
  uint8_t* ddr_at(uint64_t addr) { return ddr->data() + (addr - kDdrBase); }

  void fill_random(uint64_t addr, uint64_t bytes) {
    std::uniform_int_distribution<int> dist(-128, 127);
    for (uint64_t i = 0; i < bytes; ++i) ddr_at(addr)[i] = static_cast<uint8_t>(dist(rng));
  }

  // A conv layer with random operands in DDR; the output follows the input in DDR.
  npu::LayerDescriptor& add_conv(uint32_t cin, uint32_t h, uint32_t w, uint32_t cout, uint32_t k,
                                 uint32_t stride = 1, uint32_t groups = 1) {
    npu::LayerDescriptor d = conv_layer(cin, h, w, cout, k, stride, groups, /*act_min=*/0);
    std::snprintf(d.name, sizeof d.name, "conv%zu", descriptors.size());
    const NpuOperandSizes sizes = operand_sizes(d);
    for (uint32_t slot = 0; slot < npu::kAddrCount; ++slot) {
      d.addr[slot] = static_cast<uint32_t>(layout.take(sizes.bytes[slot]));
    }
    fill_random(d.addr[npu::kAddrInput], sizes.bytes[npu::kAddrInput]);
    fill_random(d.addr[npu::kAddrWeights], sizes.bytes[npu::kAddrWeights]);
    int32_t* bias = reinterpret_cast<int32_t*>(ddr_at(d.addr[npu::kAddrBias]));
    int32_t* rq = reinterpret_cast<int32_t*>(ddr_at(d.addr[npu::kAddrRequant]));
    for (uint32_t c = 0; c < cout; ++c) {
      bias[c] = static_cast<int32_t>(c * 37) - 500;
      rq[2 * c] = 1 << 30;
      rq[2 * c + 1] = 40;
    }
    EXPECT_EQ(validate_layer(d), npu::kNpuOk);
    descriptors.push_back(d);
    return descriptors.back();
  }

  // A layer of any type with random data in DDR for its input operands (input and second
  // input); its operands get their own places in DDR.
  npu::LayerDescriptor& add_layer(npu::LayerDescriptor d, const char* name) {
    std::snprintf(d.name, sizeof d.name, "%s", name);
    EXPECT_EQ(validate_layer(d), npu::kNpuOk) << name;
    const NpuOperandSizes sizes = operand_sizes(d);
    for (uint32_t slot = 0; slot < npu::kAddrCount; ++slot) {
      d.addr[slot] = sizes.bytes[slot] ? static_cast<uint32_t>(layout.take(sizes.bytes[slot])) : 0;
    }
    fill_random(d.addr[npu::kAddrInput], sizes.bytes[npu::kAddrInput]);
    if (sizes.bytes[npu::kAddrWeights]) {
      fill_random(d.addr[npu::kAddrWeights], sizes.bytes[npu::kAddrWeights]);
    }
    descriptors.push_back(d);
    return descriptors.back();
  }

  void store_descriptors() {
    std::memcpy(sram->data(), descriptors.data(), descriptors.size() * npu::kDescriptorSize);
  }

  // Stores the descriptors, runs them as one list from a host and expects it to stop with
  // kNpuNotInPreset at its last layer.
  void expect_last_layer_not_in_preset() {
    store_descriptors();
    uint32_t status = 0;
    const uint32_t count = static_cast<uint32_t>(descriptors.size());
    add_host("cpu", [&](Host& h) { status = run_list(h, count); });
    sc_core::sc_start();
    EXPECT_EQ((status >> npu::kStatusErrorShift) & 0xFF, npu::kNpuNotInPreset);
    EXPECT_EQ(status >> npu::kStatusLayerShift, count - 1);
    EXPECT_EQ(npu->layers().size(), count - 1);
  }

  // The expected output of a layer, from the operands now in DDR.
  std::vector<int8_t> expected(const npu::LayerDescriptor& d) {
    const NpuOperandSizes sizes = operand_sizes(d);
    auto operand = [&](uint32_t slot) -> const uint8_t* {
      return sizes.bytes[slot] ? ddr_at(d.addr[slot]) : nullptr;
    };
    NpuOperands ops;
    ops.input = reinterpret_cast<const int8_t*>(operand(npu::kAddrInput));
    ops.weights = reinterpret_cast<const int8_t*>(operand(npu::kAddrWeights));
    ops.bias = reinterpret_cast<const int32_t*>(operand(npu::kAddrBias));
    ops.requant = reinterpret_cast<const int32_t*>(operand(npu::kAddrRequant));
    std::vector<int8_t> out(sizes.bytes[npu::kAddrOutput]);
    ops.output = out.data();
    EXPECT_EQ(execute_layer(d, ops), npu::kNpuOk);
    return out;
  }

  // Starts the stored list from `host` and waits for the interrupt; returns the status.
  uint32_t run_list(Host& host, uint32_t count, uint32_t addr = kSramBase) {
    host.write32(kNpuBase + npu::kRegCmdAddr, addr);
    host.write32(kNpuBase + npu::kRegCmdCount, count);
    host.write32(kNpuBase + npu::kRegIrqEnable, 1);
    host.write32(kNpuBase + npu::kRegCtrl, npu::kCtrlStart);
    EXPECT_NE(host.read32(kNpuBase + npu::kRegStatus) & npu::kStatusBusy, 0u);
    while ((irq.pending(0) & (1u << kIrqLine)) == 0) sc_core::wait(irq.changed);
    return host.read32(kNpuBase + npu::kRegStatus);
  }
};

TEST_F(NpuTlmTest, RunsAListThroughRegistersAndInterrupt) {
  build();
  add_conv(16, 12, 12, 24, 3);
  add_conv(24, 12, 12, 40, 1);
  descriptors[1].addr[npu::kAddrInput] = descriptors[0].addr[npu::kAddrOutput];  // chained
  store_descriptors();
  const std::vector<int8_t> first = expected(descriptors[0]);
  uint32_t status = 0, cycles = 0, layers_done = 0;
  sc_core::sc_time finished;
  add_host("cpu", [&](Host& h) {
    EXPECT_EQ(h.read32(kNpuBase + npu::kRegId), npu::kIdValue);
    status = run_list(h, 2);
    finished = sc_core::sc_time_stamp();
    cycles = h.read32(kNpuBase + npu::kRegCyclesLo);
    layers_done = h.read32(kNpuBase + npu::kRegLayersDone);
    h.write32(kNpuBase + npu::kRegIrqClear, 1);
    EXPECT_EQ(irq.pending(0) & (1u << kIrqLine), 0u);
    EXPECT_EQ(h.read32(kNpuBase + npu::kRegStatus) & npu::kStatusDone, 0u);
  });
  sc_core::sc_start();
  EXPECT_EQ(status & (npu::kStatusDone | npu::kStatusError | npu::kStatusBusy), npu::kStatusDone);
  EXPECT_EQ(layers_done, 2u);

  // Functional: both outputs in DDR equal the functional model's (itself bit-exact with the
  // CPU kernels), the second computed from the first's output.
  const npu::LayerDescriptor& d0 = descriptors[0];
  EXPECT_EQ(0, std::memcmp(ddr_at(d0.addr[npu::kAddrOutput]), first.data(), first.size()));
  const std::vector<int8_t> second = expected(descriptors[1]);
  EXPECT_EQ(0, std::memcmp(ddr_at(descriptors[1].addr[npu::kAddrOutput]), second.data(),
                           second.size()));

  // Statistics.
  ASSERT_EQ(npu->layers().size(), 2u);
  const NpuLayerRecord& r = npu->layers()[0];
  EXPECT_EQ(r.name, "conv0");
  EXPECT_EQ(r.op_type, "ConvRelu");
  EXPECT_EQ(r.macs, 24ull * 144 * 16 * 9);
  const LayerPlan plan = plan_layer(npu_config, d0);
  EXPECT_EQ(r.npu_cycles, plan.compute_cycles);
  EXPECT_EQ(r.read_bytes, plan.read_bytes + npu::kDescriptorSize);
  EXPECT_EQ(r.write_bytes, 24u * 144);
  EXPECT_GT(r.ddr_cycles, 0u);
  EXPECT_GE(r.elapsed_cycles, npu_config.setup_cycles + r.npu_cycles);
  EXPECT_EQ(cycles, npu->layers()[0].elapsed_cycles + npu->layers()[1].elapsed_cycles);
  EXPECT_EQ(npu->layers()[1].start_cycle, r.start_cycle + r.elapsed_cycles);
  // The interrupt came when the list ended (the CPU clock is slower: within one CPU cycle).
  const sc_core::sc_time end = npu->clock().time_of(r.start_cycle + cycles);
  EXPECT_GE(finished, end);
  EXPECT_LE(finished, end + cpu_clock.period() * 2);
  // The DDR model saw the NPU as its own initiator (its writes are posted: serve the ones
  // still queued, as the end of a run does).
  ddr->timing().finish();
  bool seen = false;
  for (size_t i = 0; i < ddr->stats().initiator_names().size(); ++i) {
    if (ddr->stats().initiator_names()[i] == "npu") {
      seen = true;
      EXPECT_EQ(ddr->stats().initiators()[i].bytes_written, 24u * 144 + 40u * 144);
    }
  }
  EXPECT_TRUE(seen);
}

TEST_F(NpuTlmTest, ReportsErrorsInTheStatusRegister) {
  build();
  add_conv(8, 8, 8, 8, 3);
  add_conv(8, 8, 8, 8, 3);
  descriptors[1].op = 42;  // unknown operator in the second layer
  store_descriptors();
  uint32_t bad_op = 0, bad_bus = 0, empty = 0;
  add_host("cpu", [&](Host& h) {
    bad_op = run_list(h, 2);
    h.write32(kNpuBase + npu::kRegIrqClear, 1);
    bad_bus = run_list(h, 1, 0x40000000);  // unmapped command list
    h.write32(kNpuBase + npu::kRegIrqClear, 1);
    empty = run_list(h, 0);
  });
  sc_core::sc_start();
  EXPECT_NE(bad_op & npu::kStatusError, 0u);
  EXPECT_EQ((bad_op >> npu::kStatusErrorShift) & 0xFF, npu::kNpuBadOpcode);
  EXPECT_EQ(bad_op >> npu::kStatusLayerShift, 1u);
  EXPECT_EQ((bad_bus >> npu::kStatusErrorShift) & 0xFF, npu::kNpuBusError);
  EXPECT_EQ((empty >> npu::kStatusErrorShift) & 0xFF, npu::kNpuEmptyList);
  EXPECT_EQ(npu->layers().size(), 1u);  // only the first layer of the first list ran
}

// The preset's `operators` list is the NPU's: a layer of a class it does not list stops the
// command list with kNpuNotInPreset at that layer (a depthwise convolution here, while plain
// convolutions still run).
TEST_F(NpuTlmTest, RefusesOperatorsThePresetDoesNotList) {
  npu_config.operators.erase("depthwise_conv2d");
  build();
  add_conv(8, 8, 8, 8, 3);
  add_conv(8, 8, 8, 8, 3, 1, 8);
  EXPECT_STREQ(operator_class(descriptors[0]), "conv2d");
  EXPECT_STREQ(operator_class(descriptors[1]), "depthwise_conv2d");
  expect_last_layer_not_in_preset();
  EXPECT_STREQ(npu::npu_error_name(npu::kNpuNotInPreset),
               "operator not in the NPU's operators list");
}

// A layer's lookup stage is an operator too: a tanh after a convolution needs `tanh` listed.
TEST_F(NpuTlmTest, RefusesALookupStageThePresetDoesNotList) {
  npu_config.operators.erase("tanh");
  build();
  add_conv(8, 8, 8, 8, 3);
  add_conv(8, 8, 8, 8, 3);
  descriptors[0].post_op = npu::kOpSigmoid;
  descriptors[1].post_op = npu::kOpTanh;
  for (npu::LayerDescriptor& d : descriptors) d.addr[npu::kAddrTable] = d.addr[npu::kAddrWeights];
  expect_last_layer_not_in_preset();
  ASSERT_EQ(npu->layers().size(), 1u);
  EXPECT_EQ(npu->layers()[0].op_type, "ConvReluSigmoid");  // bounds, then the lookup
}

// Layers without weights, bias or requantisation (add, pooling) run through the device: their
// empty operand slots are neither fetched nor copied (the UBSan build of this test,
// ubsan.NpuTlmTest.*, fails on a null pointer passed to memcpy), and their outputs equal the
// functional model's.
TEST_F(NpuTlmTest, RunsLayersWithoutWeights) {
  build();
  npu::LayerDescriptor add{}, pool{}, global{};
  add.op = npu::kOpAdd;
  add.dtype = pool.dtype = global.dtype = npu::kDtypeInt8;
  const uint32_t shape[4] = {1, 16, 6, 6}, pooled[4] = {1, 16, 3, 3}, one[4] = {1, 16, 1, 1};
  std::memcpy(add.in_shape, shape, sizeof shape);
  std::memcpy(add.in1_shape, shape, sizeof shape);
  std::memcpy(add.out_shape, shape, sizeof shape);
  const int32_t add_args[] = {0, 1 << 29, 0, 1 << 29, 30, 0, 0, 127};  // with a fused ReLU
  std::memcpy(add.args, add_args, sizeof add_args);
  add.arg_count = 8;
  pool.op = npu::kOpMaxPool;
  std::memcpy(pool.in_shape, shape, sizeof shape);
  std::memcpy(pool.out_shape, pooled, sizeof pooled);
  const int32_t pool_args[] = {2, 2, 2, 2, 0, 0, 0, 0, 0};
  std::memcpy(pool.args, pool_args, sizeof pool_args);
  pool.arg_count = 9;
  global.op = npu::kOpGlobalAveragePool;
  std::memcpy(global.in_shape, pooled, sizeof pooled);
  std::memcpy(global.out_shape, one, sizeof one);
  const int32_t global_args[] = {0, 0, 1 << 22, 22};
  std::memcpy(global.args, global_args, sizeof global_args);
  global.arg_count = 4;
  add_layer(add, "add");
  add_layer(pool, "pool");
  add_layer(global, "gap");
  store_descriptors();
  uint32_t status = 0;
  add_host("cpu", [&](Host& h) { status = run_list(h, 3); });
  sc_core::sc_start();
  EXPECT_EQ(status & (npu::kStatusDone | npu::kStatusError), npu::kStatusDone);
  ASSERT_EQ(npu->layers().size(), 3u);
  EXPECT_EQ(npu->layers()[0].op_type, "AddRelu");
  EXPECT_EQ(npu->layers()[1].op_type, "MaxPool");
  EXPECT_EQ(npu->layers()[2].op_type, "GlobalAveragePool");
  for (const npu::LayerDescriptor& d : descriptors) {
    const std::vector<int8_t> want = expected(d);
    EXPECT_EQ(0, std::memcmp(ddr_at(d.addr[npu::kAddrOutput]), want.data(), want.size())) << d.name;
  }
}

// A stop requested from the host (SIGINT, SIGTERM, --max-host-seconds) cuts a long layer's
// computation short: the layer never completes (no record, no interrupt), so the simulation
// loop ends the run within a poll period instead of after the layer's host time (issue 18:
// a layer of 2^36 MACs computed for minutes, out of reach of the signals and limits).
TEST_F(NpuTlmTest, AHostStopCutsALongLayerShort) {
  build();
  // 4.26 x 10^9 MACs, just under the per-layer cap: even the NPU model's fast kernels take
  // several poll periods of host time over it. A stop already requested when the layer
  // starts ends it there; one arriving during the computation at the next poll.
  add_conv(256, 85, 85, 256, 3);
  store_descriptors();
  bool started = false;
  add_host("cpu", [&](Host& h) {
    h.write32(kNpuBase + npu::kRegCmdAddr, kSramBase);
    h.write32(kNpuBase + npu::kRegCmdCount, 1);
    h.write32(kNpuBase + npu::kRegIrqEnable, 1);
    h.write32(kNpuBase + npu::kRegCtrl, npu::kCtrlStart);
    started = true;
  });
  HostStop::reset();
  HostStop::set_deadline(HostStop::Clock::now());  // already passed
  sc_core::sc_start();
  HostStop::reset();
  EXPECT_TRUE(started);
  EXPECT_TRUE(npu->layers().empty());
  EXPECT_EQ(irq.pending(0) & (1u << kIrqLine), 0u);
}

// A DDR made slow (DDR4 timings at a quarter of the clock: 6.4 GB/s) for bound tests.
DdrConfig slow_ddr(DdrConfig c) {
  c.tck_ps *= 4;
  return c;
}

TEST_F(NpuTlmTest, WideOneByOneIsBandwidthBoundFewChannelFiveByFiveComputeBound) {
  ddr_config = slow_ddr(ddr_config);
  build();
  add_conv(1024, 4, 4, 1024, 1);  // 1 MiB of weights for 16 M MACs
  add_conv(8, 56, 56, 8, 5);      // 25 KB in, 25 KB out, a padded array, 25 taps
  store_descriptors();
  uint32_t status = 0;
  add_host("cpu", [&](Host& h) { status = run_list(h, 2); });
  sc_core::sc_start();
  ASSERT_EQ(status & npu::kStatusError, 0u);
  ASSERT_EQ(npu->layers().size(), 2u);
  const NpuLayerRecord& wide = npu->layers()[0];
  const NpuLayerRecord& few = npu->layers()[1];
  EXPECT_TRUE(wide.bandwidth_bound()) << wide.ddr_cycles << " vs " << wide.npu_cycles;
  EXPECT_FALSE(few.bandwidth_bound()) << few.ddr_cycles << " vs " << few.npu_cycles;
  // A bandwidth-bound layer takes about as long as its DMA; 1 MiB at <= 6.4 GB/s.
  EXPECT_GE(wide.elapsed_cycles, wide.ddr_cycles);
  EXPECT_GT(wide.ddr_cycles, (1u << 20) / 7);
}

// The 1x1 floor (pointwise_channels_per_cycle) reaches the layer's record, which the report
// prints: NPU cycles, Total = max(DDR, NPU), Time and MacUsage all follow it.
TEST_F(NpuTlmTest, PointwiseFloorReachesTheRecord) {
  npu_config.cores = 1;
  npu_config.pointwise_channels_per_cycle = 8;
  build();
  add_conv(64, 40, 40, 64, 1);  // folds 2 x 2 x 1,600 = 6,400; floor 8 x 1,600 = 12,800
  store_descriptors();
  uint32_t status = 0;
  add_host("cpu", [&](Host& h) { status = run_list(h, 1); });
  sc_core::sc_start();
  ASSERT_EQ(status & npu::kStatusError, 0u);
  ASSERT_EQ(npu->layers().size(), 1u);
  const NpuLayerRecord& r = npu->layers()[0];
  EXPECT_EQ(r.npu_cycles, 12800u + 94);  // one fill of 2R + C - 2
  EXPECT_EQ(r.pointwise_floor_cycles, 12800u - 6400);
  EXPECT_EQ(r.total_cycles(), std::max(r.ddr_cycles, r.npu_cycles));
  EXPECT_GE(r.elapsed_cycles, npu_config.setup_cycles + r.npu_cycles);
  EXPECT_DOUBLE_EQ(r.mac_usage, double(r.macs) / (1024.0 * r.elapsed_cycles));
  // Without the floor the same layer's plan has half the compute.
  NpuConfig off = npu_config;
  off.pointwise_channels_per_cycle = 0;
  EXPECT_EQ(plan_layer(off, descriptors[0]).compute_cycles, 6400u + 94);
}

TEST_F(NpuTlmTest, TrafficFromAnotherInitiatorSlowsTheNpu) {
  // SystemC elaborates once per process: the same layer runs twice in one simulation, the
  // second time while another initiator streams reads through the same DDR.
  uint64_t alone = 0, shared = 0;
  build();
  add_conv(512, 8, 8, 512, 1);  // 256 KiB of weights: DMA-heavy
  store_descriptors();
  bool stream = false, stop = false;
  InitiatorExtension cpu_ext(0, "cpu");
  auto streamer = [&](Host& h) {
    h.ext = &cpu_ext;
    uint8_t block[1024];
    uint64_t addr = kDdrBase + (32 << 20);
    while (!stop) {
      if (!stream) {
        sc_core::wait(sc_core::sc_time(100, sc_core::SC_NS));
        continue;
      }
      h.access(tlm::TLM_READ_COMMAND, addr, block, sizeof block);  // memcpy-like streaming
      addr += sizeof block;
      if (addr >= kDdrBase + kDdrSize) addr = kDdrBase + (32 << 20);
    }
  };
  add_host("streamer0", streamer);
  add_host("streamer1", streamer);
  add_host("cpu", [&](Host& h) {
    run_list(h, 1);
    h.write32(kNpuBase + npu::kRegIrqClear, 1);
    stream = true;
    sc_core::wait(sc_core::sc_time(1, sc_core::SC_US));
    run_list(h, 1);
    stop = true;
  });
  sc_core::sc_start();
  ASSERT_EQ(npu->layers().size(), 2u);
  alone = npu->layers()[0].elapsed_cycles;
  shared = npu->layers()[1].elapsed_cycles;
  EXPECT_GT(shared, alone + alone / 10) << "alone " << alone << ", with traffic " << shared;
  EXPECT_GT(npu->layers()[1].ddr_cycles, npu->layers()[0].ddr_cycles);
}

}  // namespace
}  // namespace socsim
