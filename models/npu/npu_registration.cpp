// Region type `npu`: the MAC-array NPU (models/npu/npu.h, docs/npu.md). Its description is
// the SoC's top-level `npu:` section (a preset plus overrides).
#include "models/common/device_registry.h"
#include "models/npu/npu.h"

namespace socsim {

namespace {

DeviceType npu_type() {
  DeviceType t;
  t.name = "npu";
  t.title = "MAC-array NPU ([docs/npu.md](npu.md))";
  t.behaviour =
      "registers at the base (ID, CTRL, STATUS, IRQ_ENABLE/CLEAR, CMD_ADDR/COUNT, cycle "
      "counters); its DMA is an initiator on the router";
  t.min_size = 0x1000;
  t.section = "npu";
  t.keys = {ConfigKey::unsigned_in("irq", 0, 31, "16",
                                   "the core's interrupt line it raises: 11 or 16..31")};
  t.read = [](RegionConfig& r, const ConfigNode&, const DeviceReadContext& context) {
    std::optional<ConfigNode> section = context.root.find("npu");
    if (!section) {
      throw ConfigError(r.where + ": region '" + r.name +
                        "' of type npu needs a top-level npu section (preset: ...)");
    }
    r.model = std::make_shared<const NpuConfig>(load_npu_config(*section, context.dir));
  };
  t.check = [](const RegionConfig& r, const DeviceCheckContext&) {
    // The CV32E40P takes machine external (11) and fast (16..31) interrupts; 3 and 7 belong
    // to the timer block, the other lines do not exist.
    const uint64_t irq = r.u64("irq");
    if (irq != 11 && irq < 16) {
      throw ConfigError(r.where_of("irq") + ": irq " + std::to_string(irq) +
                        " is not an interrupt line the core takes from a device (11 or 16..31)");
    }
  };
  t.irq_lines = [](const RegionConfig& r) {
    return std::vector<unsigned>{static_cast<unsigned>(r.u64("irq"))};
  };
  t.build = [](const RegionConfig& r, DeviceBuilder& b) {
    const int initiator = b.new_initiator_id();
    Npu& npu = b.add_target(std::make_unique<Npu>(r.name.c_str(), r.model_as<NpuConfig>(),
                                                  b.cpu_clock(), b.irq(),
                                                  static_cast<unsigned>(r.u64("irq")), initiator));
    b.bind_initiator(npu.dma_socket);
  };
  t.macros = [](const RegionConfig& r) {
    return std::vector<MemmapMacro>{{"NPU_BASE", r.base}, {"NPU_IRQ", r.u64("irq"), true}};
  };
  return t;
}

const bool kNpu = register_device_type(npu_type());

}  // namespace

}  // namespace socsim
