#include "platform/soc.h"

#include <cstring>
#include <map>

#include "models/cpu/iss_cpu.h"
#include "models/cpu/rtl_cpu.h"
#include "models/ddr/ddr.h"
#include "models/memory/sram.h"
#include "models/npu/npu.h"
#include "models/peripherals/clint_timer.h"
#include "models/peripherals/corev_ctrl.h"
#include "models/peripherals/exit_device.h"
#include "models/probe/probe_device.h"

namespace socsim {

namespace {

template <typename Module>
void bind_target(Router& router, Module& module) {
  router.initiator_socket.bind(module.target_socket);
}

}  // namespace

Soc::Soc(const SocConfig& config, const std::string& cpu_model, std::ostream& console_out)
    : config_(config), cpu_clock_(config.cpu.clock_mhz) {
  const std::string model = cpu_model.empty() ? config_.cpu.model : cpu_model;
  router_ = std::make_unique<Router>("router");
  router_->set_lenient(config_.loader.lenient_unmapped);

  iss_config_.boot_addr = config_.cpu.boot_addr;
  iss_config_.mtvec_addr = config_.cpu.mtvec_addr;
  iss_config_.hart_id = config_.cpu.hart_id;
  iss_config_.num_mhpmcounters = config_.cpu.num_mhpmcounters;
  if (model == "iss") {
    cpu_ = std::make_unique<IssCpu>("cpu", cpu_clock_, iss_config_, irq_, control_,
                                    config_.cpu.quantum_cycles);
  } else {
    if (config_.cpu.num_mhpmcounters != RtlCore::kNumMhpmcounters) {
      // A Verilog parameter of the core, fixed when it is Verilated.
      throw ConfigError(config_.file + ": cpu.num_mhpmcounters is " +
                        std::to_string(config_.cpu.num_mhpmcounters) + ", but the rtl CPU "
                        "model of this build implements " +
                        std::to_string(RtlCore::kNumMhpmcounters) +
                        " (its NUM_MHPMCOUNTERS parameter, set when it is built): set it to " +
                        std::to_string(RtlCore::kNumMhpmcounters) + " or use --cpu iss");
    }
    RtlCoreConfig rtl;
    rtl.boot_addr = config_.cpu.boot_addr;
    rtl.mtvec_addr = config_.cpu.mtvec_addr;
    rtl.hart_id = config_.cpu.hart_id;
    cpu_ = std::make_unique<RtlCpu>("cpu", cpu_clock_, rtl, irq_, control_,
                                    config_.cpu.quantum_cycles);
  }
  cpu_->bridge.instr_socket.bind(router_->target_socket);
  cpu_->bridge.set_fetch_wrap(static_cast<uint32_t>(config_.cpu.fetch_wrap));
  cpu_->bridge.data_socket.bind(router_->target_socket);

  // Targets are bound in map order; aliases are routed to their region's binding.
  std::map<std::string, unsigned> binding;
  unsigned next = 0;
  for (const RegionConfig& r : config_.regions) {
    if (r.type == "alias") continue;
    const std::string name = "mem_" + r.name;
    if (r.type == "sram" || r.type == "rom") {
      Sram::Config c;
      c.size = r.size;
      c.latency_cycles = r.latency_cycles;
      c.read_only = r.type == "rom";
      auto m = std::make_unique<Sram>(r.name.c_str(), c, cpu_clock_);
      bind_target(*router_, *m);
      memories_.push_back({r.base, r.size, m->data()});
      devices_.push_back(std::move(m));
    } else if (r.type == "ddr") {
      auto m = std::make_unique<Ddr>(r.name.c_str(), *r.ddr, r.size);
      bind_target(*router_, *m);
      memories_.push_back({r.base, r.size, m->data()});
      ddrs_.push_back(m.get());
      devices_.push_back(std::move(m));
    } else if (r.type == "console") {
      auto m = std::make_unique<Console>(r.name.c_str(), cpu_clock_, console_out);
      console_ = m.get();
      bind_target(*router_, *m);
      devices_.push_back(std::move(m));
    } else if (r.type == "exit") {
      auto m = std::make_unique<ExitDevice>(
          r.name.c_str(), cpu_clock_, control_, console_out,
          [this](uint32_t addr, uint8_t* data, uint32_t size) {
            return read_memory(addr, data, size);
          });
      exit_device_ = m.get();
      bind_target(*router_, *m);
      devices_.push_back(std::move(m));
    } else if (r.type == "clint") {
      auto m = std::make_unique<ClintTimer>(r.name.c_str(), cpu_clock_, irq_,
                                            static_cast<uint64_t>(r.timer_mhz * 1e6 + 0.5));
      bind_target(*router_, *m);
      devices_.push_back(std::move(m));
    } else if (r.type == "corev_ctrl") {
      auto m = std::make_unique<CorevCtrl>(r.name.c_str(), cpu_clock_);
      bind_target(*router_, *m);
      devices_.push_back(std::move(m));
    } else if (r.type == "npu") {
      // DMA initiator ids: 0 is the CPU; each NPU gets the next one.
      auto m = std::make_unique<Npu>(r.name.c_str(), *r.npu, cpu_clock_, irq_, r.irq,
                                     static_cast<int>(npus_.size()) + 1);
      bind_target(*router_, *m);
      m->dma_socket.bind(router_->target_socket);
      npus_.push_back(m.get());
      devices_.push_back(std::move(m));
    } else if (r.type == "probe") {
      auto m = std::make_unique<ProbeDevice>(r.name.c_str(), cpu_clock_);
      bind_target(*router_, *m);
      if (probe_device_ == nullptr) probe_device_ = m.get();
      devices_.push_back(std::move(m));
    } else if (r.type == "dummy") {
      auto m = std::make_unique<NullDevice>(r.name.c_str(), cpu_clock_);
      bind_target(*router_, *m);
      devices_.push_back(std::move(m));
    }
    binding[r.name] = next++;
  }
  for (const RegionConfig& r : config_.regions) {
    Router::Region region;
    region.name = r.name;
    region.base = r.base;
    region.size = r.size;
    if (r.type == "alias") {
      region.target = binding.at(r.alias_of);
      region.target_offset = r.alias_offset;
      const RegionConfig* of = config_.find_region(r.alias_of);
      if (uint8_t* data = memory_at(of->base, of->size)) {
        memories_.push_back({r.base, r.size, data + r.alias_offset});
      }
    } else {
      region.target = binding.at(r.name);
    }
    router_->add_region(region);
  }
}

Soc::~Soc() {
  if (console_ != nullptr) console_->flush();
}

uint8_t* Soc::memory_at(uint64_t addr, uint64_t size) {
  for (const MemoryWindow& m : memories_) {
    if (addr >= m.base && addr - m.base < m.size && size <= m.size - (addr - m.base)) {
      return m.data + (addr - m.base);
    }
  }
  return nullptr;
}

bool Soc::write_memory(uint64_t addr, const uint8_t* data, uint64_t size) {
  uint8_t* p = memory_at(addr, size);
  if (p == nullptr) return false;
  std::memcpy(p, data, size);
  return true;
}

bool Soc::read_memory(uint64_t addr, uint8_t* data, uint64_t size) {
  const uint8_t* p = memory_at(addr, size);
  if (p == nullptr) return false;
  std::memcpy(data, p, size);
  return true;
}

}  // namespace socsim
