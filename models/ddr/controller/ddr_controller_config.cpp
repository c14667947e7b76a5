#include "models/ddr/controller/ddr_controller_config.h"

#include <string>
#include <utility>

namespace socsim {

namespace {

// One row per value: the YAML spelling and the enum, shared by reading and printing.
template <typename E>
struct Named {
  const char* name;
  E value;
};
constexpr Named<DdrSchedulerKind> kSchedulers[] = {
    {"fcfs", DdrSchedulerKind::kFcfs},
    {"frfcfs", DdrSchedulerKind::kFrFcfs},
};
constexpr Named<DdrPagePolicy> kPagePolicies[] = {
    {"open", DdrPagePolicy::kOpen},
    {"closed", DdrPagePolicy::kClosed},
    {"closed_adaptive", DdrPagePolicy::kClosedAdaptive},
};
constexpr Named<DdrRefreshMode> kRefreshModes[] = {
    {"all_bank", DdrRefreshMode::kAllBank},
    {"per_bank", DdrRefreshMode::kPerBank},
};

template <typename E, size_t N>
const char* name_of(const Named<E> (&table)[N], E value) {
  for (const Named<E>& row : table) {
    if (row.value == value) return row.name;
  }
  return "?";
}

template <typename E, size_t N>
E read_enum(const ConfigNode& node, const Named<E> (&table)[N]) {
  const std::string text = node.as_string();
  std::string choices;
  for (const Named<E>& row : table) {
    if (text == row.name) return row.value;
    choices += std::string(choices.empty() ? "" : ", ") + "'" + row.name + "'";
  }
  node.fail("expected one of " + choices + ", got '" + text + "'");
}

uint32_t read_u32(const ConfigNode& node) {
  const uint64_t value = node.as_u64();
  if (value > UINT32_MAX) node.fail("value " + std::to_string(value) + " is too large");
  return static_cast<uint32_t>(value);
}

}  // namespace

const char* to_string(DdrSchedulerKind kind) {
  return name_of(kSchedulers, kind);
}
const char* to_string(DdrPagePolicy policy) {
  return name_of(kPagePolicies, policy);
}
const char* to_string(DdrRefreshMode mode) {
  return name_of(kRefreshModes, mode);
}

void read_ddr_controller_config(const ConfigNode& node, DdrControllerConfig& config,
                                std::map<std::string, std::string>& origin) {
  auto take = [&](const char* key, auto&& read) {
    if (auto value = node.find(key)) {
      read(*value);
      origin[std::string("controller.") + key] = value->where();
    }
  };
  take("scheduler", [&](const ConfigNode& v) { config.scheduler = read_enum(v, kSchedulers); });
  take("bypass_cap", [&](const ConfigNode& v) { config.bypass_cap = read_u32(v); });
  take("read_queue", [&](const ConfigNode& v) { config.read_queue = read_u32(v); });
  take("write_queue", [&](const ConfigNode& v) { config.write_queue = read_u32(v); });
  take("write_high_watermark",
       [&](const ConfigNode& v) { config.write_high_watermark = v.as_double(); });
  take("write_low_watermark",
       [&](const ConfigNode& v) { config.write_low_watermark = v.as_double(); });
  take("page_policy",
       [&](const ConfigNode& v) { config.page_policy = read_enum(v, kPagePolicies); });
  take("refresh", [&](const ConfigNode& v) { config.refresh = read_enum(v, kRefreshModes); });
  take("refresh_postpone", [&](const ConfigNode& v) { config.refresh_postpone = read_u32(v); });
  node.reject_unknown_keys();
}

void check_ddr_controller_config(
    const DdrControllerConfig& c,
    const std::function<void(const std::string& key, const std::string& message)>& fail) {
  if (c.read_queue == 0 || c.read_queue > 1024) fail("read_queue", "must be 1..1024");
  if (c.write_queue == 0 || c.write_queue > 1024) fail("write_queue", "must be 1..1024");
  if (!(c.write_high_watermark > 0 && c.write_high_watermark <= 1)) {
    fail("write_high_watermark", "must be a fraction in (0, 1]");
  }
  if (!(c.write_low_watermark >= 0 && c.write_low_watermark < c.write_high_watermark)) {
    fail("write_low_watermark", "must be >= 0 and below write_high_watermark");
  }
  if (c.refresh_postpone > kMaxPostponedRefreshes) {
    fail("refresh_postpone", "JEDEC allows at most " + std::to_string(kMaxPostponedRefreshes) +
                                 " postponed refreshes, got " + std::to_string(c.refresh_postpone));
  }
}

}  // namespace socsim
