#include "models/ddr/controller/ddr_refresh.h"

#include "models/ddr/controller/all_bank_refresh.h"
#include "models/ddr/controller/per_bank_refresh.h"

namespace socsim {

DdrRefresh::DdrRefresh(const DdrConfig& config, DdrDeviceTiming& device, DdrControllerStats& stats,
                       uint64_t interval)
    : t_(config.timing),
      device_(device),
      stats_(stats),
      banks_per_rank_(config.geometry.banks_per_rank()),
      ranks_(device.ranks()),
      bank_pending_(device.banks(), 0),
      busy_until_(device.banks(), 0),
      interval_(interval) {
  for (DdrRankRefresh& r : ranks_) r.due = interval_;
}

std::unique_ptr<DdrRefresh> make_ddr_refresh(const DdrConfig& config, DdrDeviceTiming& device,
                                             DdrControllerStats& stats) {
  switch (config.controller.refresh) {
    case DdrRefreshMode::kAllBank:
      return std::make_unique<AllBankRefresh>(config, device, stats);
    case DdrRefreshMode::kPerBank:
      return std::make_unique<PerBankRefresh>(config, device, stats);
  }
  return nullptr;
}

}  // namespace socsim
