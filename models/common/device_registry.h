// The device registry: every type of memory-map region (`memory_map.<name>.type`) is one
// DeviceType, registered by the model's own folder (`models/<folder>/*_registration.cpp`).
//
// A DeviceType says everything the platform needs to know about a device: its YAML keys
// with types, ranges and defaults, how to read what a key table cannot say (a preset), the
// checks against the rest of the map, the interrupt lines it drives, how to build and bind
// its SystemC model, the macros of the firmware's address header (`socsim memmap`) and its
// documentation. The SoC loader, the SoC builder, `socsim memmap` and the generated device
// documentation iterate the registry; none of them names a device type.
#pragma once

#include <any>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/common/config.h"

namespace socsim {

class ClockDomain;
class IrqLines;
class SimControl;

/// One region of the memory map as read from YAML (`memory_map.<name>`).
struct RegionConfig {
  std::string name;
  std::string type;
  uint64_t base = 0;
  uint64_t size = 0;
  std::string where;                          ///< file:line of the entry, for messages
  std::map<std::string, ConfigValue> params;  ///< the type's declared keys, defaults applied
  /// What the type's `read` hook produced (e.g. the resolved DDR or NPU configuration).
  std::any model;

  /// A declared key's value; an undeclared name is a programming error (std::logic_error).
  uint64_t u64(const std::string& key) const;
  double number(const std::string& key) const;
  const std::string& text(const std::string& key) const;
  /// Where a declared key's value came from ("file:line: key 'memory_map.npu.irq'").
  const std::string& where_of(const std::string& key) const;
  /// The `model` of the type's read hook as T (std::bad_any_cast on a mismatch).
  template <typename T>
  const T& model_as() const {
    return *std::any_cast<std::shared_ptr<const T>>(model);
  }
};

/// What a region of a type is to the loader and the firmware.
enum class RegionKind {
  kMemory,  ///< holds code and data: the loader may place firmware, models and boot info
  kDevice,  ///< registers
  kWindow,  ///< a view onto another region (routed to that region's target)
};

/// The SoC a device type's hooks see while the map is read and checked.
struct DeviceReadContext {
  const ConfigNode& root;  ///< the whole SoC description (top-level sections)
  const std::string& dir;  ///< folder of the SoC file, for relative paths
  /// The default of the regions' `protocol_check` ("false" or "true"): the SoC's top-level
  /// `protocol_check` key.
  std::string protocol_check = "false";
};
struct DeviceCheckContext {
  const std::vector<RegionConfig>& regions;
  const RegionConfig* find(const std::string& name) const;
};

/// What a device type's `build` hook may use and bind (implemented by the SoC builder).
class DeviceBuilder {
 public:
  virtual ~DeviceBuilder() = default;
  virtual const ClockDomain& cpu_clock() = 0;
  virtual IrqLines& irq() = 0;
  virtual SimControl& control() = 0;
  /// Where the console and end-of-run messages of devices go.
  virtual std::ostream& console_out() = 0;
  /// Reads memory of the SoC the way the loader does (no timing; false if unmapped). The
  /// function stays valid as long as the SoC, after the builder is gone.
  using MemoryReader = std::function<bool(uint64_t addr, uint8_t* data, uint64_t size)>;
  virtual MemoryReader memory_reader() = 0;
  /// Takes ownership of the region's model and binds `target` as the region's bus target.
  virtual void add_target(std::unique_ptr<sc_core::sc_module> module,
                          tlm::tlm_target_socket<>& target) = 0;
  /// The same for a model whose bus target is its public `target_socket`; returns the model.
  template <typename Model>
  Model& add_target(std::unique_ptr<Model> module) {
    Model& model = *module;
    add_target(std::move(module), model.target_socket);
    return model;
  }
  /// The region's bytes, for the loader (memories).
  virtual void add_memory(uint8_t* data) = 0;
  /// An initiator id for a bus master of the region's model (e.g. a DMA): 0 is the CPU,
  /// then one per call, in map order.
  virtual int new_initiator_id() = 0;
  /// Binds a bus master of the region's model to the bus.
  virtual void bind_initiator(tlm::tlm_initiator_socket<>& socket) = 0;
  /// Routes the region to `region`'s target at `offset` (a window onto that region).
  virtual void add_window(const std::string& region, uint64_t offset) = 0;
};

/// A `#define SOCSIM_<name> <value>u` line of the firmware's address header.
struct MemmapMacro {
  std::string name;
  uint64_t value = 0;
  bool decimal = false;  ///< written in decimal (frequencies), else in hex
};

struct DeviceType {
  std::string name;       ///< the `type:` of its regions
  std::string title;      ///< what it is, in a few words (documentation)
  std::string behaviour;  ///< registers and behaviour, Markdown (documentation)
  RegionKind kind = RegionKind::kDevice;
  uint64_t min_size = 1;        ///< smallest region size accepted
  std::vector<ConfigKey> keys;  ///< the region keys besides type, base and size
  /// A top-level section of the SoC YAML this type reads (e.g. `npu`): present without a
  /// region of the type, it is an error.
  std::string section;
  /// Reads what `keys` cannot say into `region.model` (optional).
  std::function<void(RegionConfig& region, const ConfigNode& node, const DeviceReadContext&)> read;
  /// Checks the region against the rest of the map (optional); throws ConfigError.
  std::function<void(const RegionConfig& region, const DeviceCheckContext&)> check;
  /// The core's interrupt lines (irq_i bits) the region's model drives (optional).
  std::function<std::vector<unsigned>(const RegionConfig& region)> irq_lines;
  /// Creates the region's SystemC model and binds it.
  std::function<void(const RegionConfig& region, DeviceBuilder& builder)> build;
  /// Firmware header macros for the first region of this type in the map (optional).
  std::function<std::vector<MemmapMacro>(const RegionConfig& region)> macros;
  /// The linker-script MEMORY name of the first region of this type ("" for none).
  std::string linker_memory;
};

/// Adds a type; returns true so that registration can initialise a namespace-scope
/// constant. A second type of the same name is a programming error (std::logic_error).
bool register_device_type(DeviceType type);
/// The registered type called `name`, or null.
const DeviceType* find_device_type(const std::string& name);
/// Every registered type, sorted by name.
std::vector<const DeviceType*> device_types();

/// The keys every region whose type binds a model of its own (all but windows) takes besides
/// its type's keys: `protocol_check` (TLM-2.0 base-protocol checking of the model's bus
/// links, models/bus/protocol_checker.h), whose default is the context's.
const std::vector<ConfigKey>& common_region_keys();

/// Reads the region `memory_map.<name>` (`node`) as its type declares: type, base, size,
/// the common keys, the type's keys, its read hook; rejects unknown keys. Throws
/// ConfigError.
RegionConfig read_region(const std::string& name, const ConfigNode& node,
                         const DeviceReadContext& context);

/// Checks a whole map: no overlaps, no two regions with the same macro name, each type's
/// check hook, no interrupt line driven by two regions. Throws ConfigError.
void check_regions(const std::vector<RegionConfig>& regions);

/// True for region types whose kind is kMemory (sram, rom, ddr, ...).
bool is_memory_type(const std::string& type);

/// The upper-case C identifier of a region name ("debug_area" -> "DEBUG_AREA").
std::string macro_name(const std::string& name);

/// The Markdown table of the region types and their keys (docs/platform.md).
void write_device_docs(std::ostream& out);

}  // namespace socsim
