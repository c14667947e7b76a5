// Configuration of the per-channel DDR memory controller: the `controller:` map of a DDR
// preset (or of a SoC YAML's DDR region, or `--set controller.key=value`), its reader and
// the checks that need nothing but these fields. Every choice is an enum named in one table
// here, so the reader, the scheduler factory and the reports spell them alike.
//
//   controller:
//     scheduler: frfcfs          # fcfs | frfcfs
//     bypass_cap: 16             # frfcfs: younger column accesses that may overtake a waiting
//                                # request to the same bank (0: no cap)
//     read_queue: 32             # entries (bursts) per channel
//     write_queue: 32
//     write_high_watermark: 0.8  # fraction of write_queue that starts a write drain
//     write_low_watermark: 0.2   # fraction at which the drain stops (reads waiting)
//     page_policy: open          # open | closed | closed_adaptive
//     refresh: all_bank          # all_bank | per_bank (needs tRFCpb, tREFIpb, ...)
//     refresh_postpone: 0        # refreshes that may be put off while requests wait (<= 8)
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "models/common/config.h"

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

/// Reads the keys present in the `controller` map `node` into `config` (absent keys keep
/// their value) and notes where each came from in `origin` under "controller.<key>".
/// Unknown keys and bad values are ConfigErrors naming file, line and key.
void read_ddr_controller_config(const ConfigNode& node, DdrControllerConfig& config,
                                std::map<std::string, std::string>& origin);

/// Checks the fields among themselves (queue depths, watermarks, the postponing limit).
/// `fail(key, message)` reports an error for "controller.<key>" and must not return.
void check_ddr_controller_config(
    const DdrControllerConfig& config,
    const std::function<void(const std::string& key, const std::string& message)>& fail);

}  // namespace socsim
