// Region types `sram` and `rom`: on-chip memory (models/memory/sram.h).
#include "models/common/device_registry.h"
#include "models/memory/sram.h"

namespace socsim {

namespace {

DeviceType memory_type(const char* name, bool read_only) {
  DeviceType t;
  t.name = name;
  t.kind = RegionKind::kMemory;
  t.title = read_only ? "read-only memory" : "on-chip memory";
  t.behaviour = read_only ? "as `sram`; core writes are a fault, the loader may write"
                          : "zero wait states (grant in the request cycle, data the next), DMI; "
                            "`latency_cycles` adds wait cycles per access";
  t.keys = {
      ConfigKey::unsigned_in("latency_cycles", 0, 10000, "0", "wait cycles added to every access")};
  t.build = [read_only](const RegionConfig& r, DeviceBuilder& b) {
    Sram::Config c;
    c.size = r.size;
    c.latency_cycles = static_cast<uint32_t>(r.u64("latency_cycles"));
    c.read_only = read_only;
    Sram& sram = b.add_target(std::make_unique<Sram>(r.name.c_str(), c, b.cpu_clock()));
    b.add_memory(sram.data());
  };
  return t;
}

const bool kSram = register_device_type(memory_type("sram", false));
const bool kRom = register_device_type(memory_type("rom", true));

}  // namespace

}  // namespace socsim
