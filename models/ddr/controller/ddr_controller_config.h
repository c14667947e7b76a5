// Configuration of the per-channel DDR memory controller: the `controller:` map of a DDR
// preset (or of a SoC YAML's DDR region, or `--set controller.key=value`), its key table
// (ddr_controller_config_keys(): types, ranges, defaults, documentation; docs/ddr.md prints
// it), its reader and the checks across its fields. Every choice is an enum named in one
// table, so the reader, the scheduler factory and the reports spell them alike.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "models/common/config.h"
#include "models/common/config_table.h"

namespace socsim {

/// Which request the controller serves next (models/ddr/controller/ddr_scheduler.h).
enum class DdrSchedulerKind {
  kFcfs,    ///< oldest request first; a request whose row was opened for it finishes first
  kFrFcfs,  ///< first ready: row hits first, then oldest, with a bypass cap
};

/// When a row is closed.
enum class DdrPagePolicy {
  kOpen,            ///< rows stay open until a conflict or a refresh
  kClosed,          ///< every column access precharges its bank (auto-precharge)
  kClosedAdaptive,  ///< auto-precharge unless a queued request hits the same row
};

/// How the rows are refreshed.
enum class DdrRefreshMode {
  kAllBank,  ///< REFab per rank every tREFI (tRFC, all banks closed)
  kPerBank,  ///< REFpb to one bank at a time every tREFIpb, round robin (LPDDR4/5, HBM2)
};

struct DdrControllerConfig {
  DdrSchedulerKind scheduler = DdrSchedulerKind::kFrFcfs;
  uint32_t bypass_cap = 16;
  uint32_t read_queue = 32;
  uint32_t write_queue = 32;
  double write_high_watermark = 0.8;
  double write_low_watermark = 0.2;
  DdrPagePolicy page_policy = DdrPagePolicy::kOpen;
  DdrRefreshMode refresh = DdrRefreshMode::kAllBank;
  uint32_t refresh_postpone = 0;
};

/// JEDEC limit on postponed refresh commands (JESD79-4 4.8, JESD209-4 4.9: eight).
constexpr uint32_t kMaxPostponedRefreshes = 8;

const char* to_string(DdrSchedulerKind kind);
const char* to_string(DdrPagePolicy policy);
const char* to_string(DdrRefreshMode mode);

/// The keys of the `controller` map, with their defaults (those of DdrControllerConfig).
const ConfigTable<DdrControllerConfig>& ddr_controller_config_keys();

/// Reads the `controller` map `node` into `config` (absent keys take their default, shown
/// by `socsim config`) and notes where each key present came from in `origin` under
/// "controller.<key>". Unknown keys and bad values are ConfigErrors naming file, line and key.
void read_ddr_controller_config(const ConfigNode& node, DdrControllerConfig& config,
                                std::map<std::string, std::string>& origin);

/// Checks the fields against the table's ranges and among themselves (the watermarks).
/// `fail(key, message)` reports an error for "controller.<key>" and must not return.
void check_ddr_controller_config(
    const DdrControllerConfig& config,
    const std::function<void(const std::string& key, const std::string& message)>& fail);

}  // namespace socsim
