// Per-bank refresh (LPDDR4/5, HBM2): one REFpb every tREFIpb, to one set of banks of a rank
// at a time, round robin. When it falls due, the set's activated requests finish, its open
// rows are closed one by one and the REFpb keeps the set busy for tRFCpb; the rank's other
// banks go on serving.
#pragma once

#include "models/ddr/controller/ddr_refresh.h"

namespace socsim {

class PerBankRefresh : public DdrRefresh {
 public:
  PerBankRefresh(const DdrConfig& config, DdrDeviceTiming& device, DdrControllerStats& stats);
  DdrRefreshCommand next_command(uint32_t rank, uint64_t now,
                                 uint64_t activated_mask) const override;
  uint64_t issue(uint32_t rank, const DdrRefreshCommand& command, uint64_t cycle) override;
  bool catch_up_idle(uint32_t rank, uint64_t cycle, uint64_t now, DdrRefreshBatch& batch) override;

 protected:
  int32_t start_refresh(uint32_t rank) override;
};

}  // namespace socsim
