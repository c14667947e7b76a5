// All-bank refresh: one REFab per rank every tREFI. When it falls due, the rank's activated
// requests finish, its rows are closed (precharge all) and the REFab keeps every bank of
// the rank busy for tRFC.
#pragma once

#include "models/ddr/controller/ddr_refresh.h"

namespace socsim {

class AllBankRefresh : public DdrRefresh {
 public:
  AllBankRefresh(const DdrConfig& config, DdrDeviceTiming& device, DdrControllerStats& stats);
  DdrRefreshCommand next_command(uint32_t rank, uint64_t now,
                                 uint64_t activated_mask) const override;
  uint64_t issue(uint32_t rank, const DdrRefreshCommand& command, uint64_t cycle) override;
  bool catch_up_idle(uint32_t rank, uint64_t cycle, uint64_t now, DdrRefreshBatch& batch) override;

 protected:
  int32_t start_refresh(uint32_t rank) override;
};

}  // namespace socsim
