// The SoC description read from YAML (configs/soc/*.yaml): clocks, CPU, memory map and
// devices, loader settings. Read strictly: unknown keys, overlapping regions, bad sizes
// and bad values stop the run before simulation, naming file, line and key. The regions'
// types, keys and checks come from the device registry (models/common/device_registry.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "models/common/config.h"
#include "models/common/device_registry.h"
#include "models/cpu/cpu_registry.h"

namespace socsim {

struct LoaderConfig {
  std::string ram_region = "ram";            ///< where firmware code and stack live
  std::string bootinfo_region = "bootinfo";  ///< boot-info block ("" = none)
  std::string model_region = "ram";          ///< where --model / --input data are placed
  std::string pool_region;                   ///< memory the firmware may use ("" = none)
  uint64_t pool_size = 0;                    ///< of pool_region; 0 = all that is free
  bool lenient_unmapped = false;  ///< unmapped reads give 0, writes are dropped (corev-verif)
};

/// Probe regions and mark names (the SoC's `probes:` section or a `--probes` file; see
/// docs/probes.md). Specs are resolved against the firmware's symbols when it is loaded.
struct ProbesConfig {
  struct Region {
    std::string name, spec, where;
  };
  std::vector<Region> regions;
  std::vector<std::pair<uint32_t, std::string>> marks;  ///< probe register id -> name
};

/// Reads `{regions: {name: spec}, marks: {id: name}}` strictly. Throws ConfigError.
ProbesConfig read_probes_config(const ConfigNode& node);

struct SocConfig {
  std::string file;
  std::string dir;  ///< folder of the file, for relative paths
  std::string name;
  std::vector<std::string> overrides;
  CpuConfig cpu;
  std::vector<RegionConfig> regions;
  LoaderConfig loader;
  bool corev_end_line = false;  ///< end_of_run_line: corev (core-v-verif testbench style)
  ProbesConfig probes;
  std::string yaml_text;  ///< the effective configuration (presets, --set, defaults) as YAML
  /// The same with a comment on every value saying where it came from (`socsim config`).
  std::string annotated_yaml;

  const RegionConfig* find_region(const std::string& name) const;
  const RegionConfig* first_of_type(const std::string& type) const;
  const RegionConfig* region_at(uint64_t addr) const;
};

/// The SoC description used when a command is given none: configs/soc/default.yaml.
std::string default_soc_config();

/// Loads and validates a SoC YAML with its presets and `--set` overrides (see
/// resolve_config). Throws ConfigError.
SocConfig load_soc_config(const std::string& file, const std::vector<std::string>& overrides);

/// The declared keys of the SoC file's `cpu` and `loader` sections (docs/platform.md).
const std::vector<ConfigKey>& cpu_config_keys();
const std::vector<ConfigKey>& loader_config_keys();

/// docs/platform.md's generated part: the cpu and loader keys and the region types.
void write_platform_key_docs(std::ostream& out);

/// The generated key tables of a kind of configuration file: "soc" (docs/platform.md),
/// "npu" (docs/npu.md), "ddr" (docs/ddr.md: DDR, controller, energy). False for another kind.
bool write_key_docs(const std::string& kind, std::ostream& out);

}  // namespace socsim
