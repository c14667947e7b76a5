// Region type `ddr`: DDR memory with its timing model (models/ddr/ddr.h, docs/ddr.md).
#include "models/common/device_registry.h"
#include "models/ddr/ddr.h"

namespace socsim {

namespace {

DeviceType ddr_type() {
  DeviceType t;
  t.name = "ddr";
  t.kind = RegionKind::kMemory;
  t.title = "DDR memory with its timing model ([docs/ddr.md](ddr.md))";
  t.behaviour =
      "every access is timed (no DMI), CPU and NPU traffic share it; statistics at the end of "
      "a run (`--ddr-banks` adds the per-bank table) and in `ddr.json`";
  t.keys = {ConfigKey::text("preset", nullptr,
                            "DDR preset, relative to the SoC file; any preset key may be "
                            "overridden in the region (`timing: {tRCD: 24}`) or with `--set`")};
  t.linker_memory = "ddr";
  t.read = [](RegionConfig& r, const ConfigNode& node, const DeviceReadContext& context) {
    r.model = std::make_shared<const DdrConfig>(load_ddr_config(node, context.dir));
  };
  t.build = [](const RegionConfig& r, DeviceBuilder& b) {
    Ddr& ddr = b.add_target(std::make_unique<Ddr>(r.name.c_str(), r.model_as<DdrConfig>(), r.size));
    b.add_memory(ddr.data());
  };
  t.macros = [](const RegionConfig& r) {
    return std::vector<MemmapMacro>{{"DDR_BASE", r.base}, {"DDR_SIZE", r.size}};
  };
  return t;
}

const bool kDdr = register_device_type(ddr_type());

}  // namespace

}  // namespace socsim
