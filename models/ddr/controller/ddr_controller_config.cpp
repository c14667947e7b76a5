#include "models/ddr/controller/ddr_controller_config.h"

#include <string>

namespace socsim {

namespace {

// One row per value: the YAML spelling and the enum, shared by reading and printing.
const ConfigEnum<DdrSchedulerKind> kSchedulers = {
    {"fcfs", DdrSchedulerKind::kFcfs},
    {"frfcfs", DdrSchedulerKind::kFrFcfs},
};
const ConfigEnum<DdrPagePolicy> kPagePolicies = {
    {"open", DdrPagePolicy::kOpen},
    {"closed", DdrPagePolicy::kClosed},
    {"closed_adaptive", DdrPagePolicy::kClosedAdaptive},
};
const ConfigEnum<DdrRefreshMode> kRefreshModes = {
    {"all_bank", DdrRefreshMode::kAllBank},
    {"per_bank", DdrRefreshMode::kPerBank},
};

ConfigTable<DdrControllerConfig> make_controller_keys() {
  using C = DdrControllerConfig;
  return {
      config_enum("scheduler", kSchedulers, "frfcfs",
                  "fcfs: oldest first; frfcfs: row hits first, then oldest (docs/ddr.md)",
                  &C::scheduler),
      config_field(ConfigKey::unsigned_in("bypass_cap", 0, UINT32_MAX, "16",
                                          "frfcfs: younger column accesses that may overtake a "
                                          "waiting request to the same bank (0: no cap)"),
                   &C::bypass_cap),
      config_field(ConfigKey::unsigned_in("read_queue", 1, 1024, "32",
                                          "read queue entries (bursts) per channel"),
                   &C::read_queue),
      config_field(ConfigKey::unsigned_in("write_queue", 1, 1024, "32",
                                          "write queue entries (bursts) per channel"),
                   &C::write_queue),
      config_field(ConfigKey::number_in("write_high_watermark", 0, 1, "0.8",
                                        "fraction of `write_queue` that starts a write drain")
                       .above_min(),
                   &C::write_high_watermark),
      config_field(ConfigKey::number_in("write_low_watermark", 0, 1, "0.2",
                                        "fraction at which a drain stops while reads wait; "
                                        "below `write_high_watermark`"),
                   &C::write_low_watermark),
      config_enum("page_policy", kPagePolicies, "open",
                  "when a row is closed: open (on a conflict or refresh), closed (every "
                  "column access auto-precharges), closed_adaptive (unless a queued request "
                  "hits the row)",
                  &C::page_policy),
      config_enum("refresh", kRefreshModes, "all_bank",
                  "all_bank: REFab per rank every tREFI; per_bank: REFpb to one bank at a time "
                  "(needs the device's tRFCpb, tREFIpb, tPBR2PBR, tPBR2ACT)",
                  &C::refresh),
      config_field(ConfigKey::unsigned_in("refresh_postpone", 0, kMaxPostponedRefreshes, "0",
                                          "refreshes that may be put off while requests wait "
                                          "(JEDEC allows 8)"),
                   &C::refresh_postpone),
  };
}

}  // namespace

const char* to_string(DdrSchedulerKind kind) { return kSchedulers.name_of(kind); }
const char* to_string(DdrPagePolicy policy) { return kPagePolicies.name_of(policy); }
const char* to_string(DdrRefreshMode mode) { return kRefreshModes.name_of(mode); }

const ConfigTable<DdrControllerConfig>& ddr_controller_config_keys() {
  static const ConfigTable<DdrControllerConfig> keys = make_controller_keys();
  return keys;
}

void read_ddr_controller_config(const ConfigNode& node, DdrControllerConfig& config,
                                std::map<std::string, std::string>& origin) {
  if (!node.is_map()) node.fail("expected a map");
  read_config_table(node, ddr_controller_config_keys(), config, &origin, "controller.");
  node.reject_unknown_keys();
}

void check_ddr_controller_config(
    const DdrControllerConfig& c,
    const std::function<void(const std::string& key, const std::string& message)>& fail) {
  check_config_table(ddr_controller_config_keys(), c, fail);
  if (!(c.write_low_watermark < c.write_high_watermark)) {
    fail("write_low_watermark", "must be below write_high_watermark");
  }
}

}  // namespace socsim
