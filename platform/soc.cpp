#include "platform/soc.h"

#include <cstring>
#include <map>
#include <stdexcept>

#include "models/common/device_registry.h"
#include "models/cpu/iss_cpu.h"
#include "models/ddr/ddr.h"
#include "models/npu/npu.h"
#include "models/peripherals/exit_device.h"
#include "models/probe/probe_device.h"

namespace socsim {

// What the device types' build hooks see: binds each region's model to the router in map
// order and records the region's route and memory for the loader.
class Soc::Builder : public DeviceBuilder {
 public:
  Builder(Soc& soc, std::ostream& console_out) : soc_(soc), console_out_(console_out) {}

  void build(const RegionConfig& region) {
    region_ = &region;
    routed_ = false;
    find_device_type(region.type)->build(region, *this);
    if (!routed_) {
      throw std::logic_error("device type '" + region.type + "' bound no target for region '" +
                             region.name + "'");
    }
  }

  // Routes every region (windows to their region's target) once all targets are bound.
  void add_routes() {
    for (const RegionConfig& r : soc_.config_.regions) {
      Router::Region route;
      route.name = r.name;
      route.base = r.base;
      route.size = r.size;
      auto window = windows_.find(r.name);
      if (window != windows_.end()) {
        const auto& [of, offset] = window->second;
        route.target = binding_.at(of);
        route.target_offset = offset;
        const RegionConfig* target = soc_.config_.find_region(of);
        if (uint8_t* data = soc_.memory_at(target->base, target->size)) {
          soc_.memories_.push_back({r.base, r.size, data + offset});
        }
      } else {
        route.target = binding_.at(r.name);
      }
      soc_.router_->add_region(route);
    }
  }

  const ClockDomain& cpu_clock() override { return soc_.cpu_clock_; }
  IrqLines& irq() override { return soc_.irq_; }
  SimControl& control() override { return soc_.control_; }
  std::ostream& console_out() override { return console_out_; }
  MemoryReader memory_reader() override {
    Soc* soc = &soc_;
    return [soc](uint64_t addr, uint8_t* data, uint64_t size) {
      return soc->read_memory(addr, data, size);
    };
  }
  void add_target(std::unique_ptr<sc_core::sc_module> module,
                  tlm::tlm_target_socket<>& target) override {
    soc_.router_->initiator_socket.bind(target);
    if (checked()) {
      soc_.router_->check_target(next_binding_, "router -> " + region_->name,
                                 soc_.protocol_violation_handler());
    }
    binding_[region_->name] = next_binding_++;
    soc_.devices_.push_back(std::move(module));
    routed_ = true;
  }
  void add_memory(uint8_t* data) override {
    soc_.memories_.push_back({region_->base, region_->size, data});
  }
  int new_initiator_id() override { return next_initiator_++; }
  void bind_initiator(tlm::tlm_initiator_socket<>& socket) override {
    soc_.bind_initiator(socket, checked(), region_->name + " -> router");
  }
  void add_window(const std::string& region, uint64_t offset) override {
    windows_[region_->name] = {region, offset};
    routed_ = true;
  }

 private:
  /// The region's `protocol_check` key (common_region_keys()).
  bool checked() const { return region_->text("protocol_check") == "true"; }

  Soc& soc_;
  std::ostream& console_out_;
  const RegionConfig* region_ = nullptr;
  bool routed_ = false;
  std::map<std::string, unsigned> binding_;  ///< region -> initiator-socket binding
  unsigned next_binding_ = 0;
  int next_initiator_ = 1;  ///< 0 is the CPU
  std::map<std::string, std::pair<std::string, uint64_t>> windows_;
};

Soc::Soc(const SocConfig& config, const std::string& cpu_model, std::ostream& console_out)
    : config_(config), cpu_clock_(config.cpu.clock_mhz) {
  router_ = std::make_unique<Router>("router");
  router_->set_lenient(config_.loader.lenient_unmapped);
  build_cpu(cpu_model.empty() ? config_.cpu.model : cpu_model);
  build_regions(console_out);
}

void Soc::build_cpu(const std::string& model) {
  iss_config_ = iss_config_of(config_.cpu);
  cpu_type_ = &cpu_model(model);
  if (cpu_type_->check) cpu_type_->check(config_.cpu);
  cpu_ = cpu_type_->build(config_.cpu, CpuBuildContext{cpu_clock_, irq_, control_});
  bind_initiator(cpu_->bridge.instr_socket, config_.cpu.protocol_check,
                 "cpu instruction port -> router");
  cpu_->bridge.set_fetch_wrap(static_cast<uint32_t>(config_.cpu.fetch_wrap));
  bind_initiator(cpu_->bridge.data_socket, config_.cpu.protocol_check, "cpu data port -> router");
}

void Soc::bind_initiator(tlm::tlm_initiator_socket<>& socket, bool check,
                         const std::string& link) {
  socket.bind(router_->target_socket);
  if (check) router_->check_initiator(initiator_bindings_, link, protocol_violation_handler());
  ++initiator_bindings_;
}

ProtocolChecker::Handler Soc::protocol_violation_handler() {
  return [this](const std::string& message, const sc_core::sc_time& offset) {
    control_.report_host_error(cpu_clock_.cycle_at(sc_core::sc_time_stamp() + offset), message);
  };
}

void Soc::build_regions(std::ostream& console_out) {
  Builder builder(*this, console_out);
  for (const RegionConfig& r : config_.regions) builder.build(r);
  builder.add_routes();
}

Soc::~Soc() {
  if (Console* c = console()) c->flush();
}

Console* Soc::console() const {
  const std::vector<Console*> all = devices_of<Console>();
  return all.empty() ? nullptr : all.front();
}
ExitDevice* Soc::exit_device() const {
  const std::vector<ExitDevice*> all = devices_of<ExitDevice>();
  return all.empty() ? nullptr : all.front();
}
std::vector<Ddr*> Soc::ddrs() const {
  return devices_of<Ddr>();
}
std::vector<Npu*> Soc::npus() const {
  return devices_of<Npu>();
}
ProbeDevice* Soc::probe_device() const {
  const std::vector<ProbeDevice*> all = devices_of<ProbeDevice>();
  return all.empty() ? nullptr : all.front();
}

uint8_t* Soc::memory_at(uint64_t addr, uint64_t size) {
  for (const MemoryWindow& m : memories_) {
    if (addr >= m.base && addr - m.base < m.size && size <= m.size - (addr - m.base)) {
      return m.data + (addr - m.base);
    }
  }
  return nullptr;
}

// memcpy's pointers must not be null even for no bytes: a segment that is all .bss has no
// file bytes, and an empty vector's data() may be null.
bool Soc::write_memory(uint64_t addr, const uint8_t* data, uint64_t size) {
  uint8_t* p = memory_at(addr, size);
  if (p == nullptr) return false;
  if (size != 0) std::memcpy(p, data, size);
  return true;
}

bool Soc::read_memory(uint64_t addr, uint8_t* data, uint64_t size) {
  const uint8_t* p = memory_at(addr, size);
  if (p == nullptr) return false;
  if (size != 0) std::memcpy(data, p, size);
  return true;
}

}  // namespace socsim
