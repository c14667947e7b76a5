#include "models/ddr/controller/all_bank_refresh.h"

#include <algorithm>

namespace socsim {

AllBankRefresh::AllBankRefresh(const DdrConfig& config, DdrDeviceTiming& device,
                               DdrControllerStats& stats)
    : DdrRefresh(config, device, stats, config.timing.t_refi) {}

int32_t AllBankRefresh::start_refresh(uint32_t rank) {
  ranks_[rank].pending = true;
  return -1;
}

DdrRefreshCommand AllBankRefresh::next_command(uint32_t rank, uint64_t now,
                                               uint64_t activated_mask) const {
  DdrRefreshCommand c;
  if (!ranks_[rank].pending) return c;
  const uint64_t rank_banks = banks_per_rank_ == 64 ? ~uint64_t{0}
                                                    : ((uint64_t{1} << banks_per_rank_) - 1)
                                                          << (rank * banks_per_rank_);
  if ((activated_mask & rank_banks) != 0) return c;  // activated requests finish first
  if (device_.open_banks(rank) > 0) {
    c.kind = DdrRefreshCommand::Kind::kPrechargeAll;
    c.cycle = device_.earliest_precharge_all(rank, now);
  } else {
    c.kind = DdrRefreshCommand::Kind::kRefresh;
    c.cycle = device_.earliest_refresh(rank, now);
  }
  return c;
}

uint64_t AllBankRefresh::issue(uint32_t rank, const DdrRefreshCommand& command, uint64_t cycle) {
  if (command.kind == DdrRefreshCommand::Kind::kPrechargeAll) {
    device_.precharge_all(rank, cycle);
    return 0;
  }
  device_.refresh(rank, cycle);
  ranks_[rank].pending = false;
  end_refresh();
  ++stats_.refreshes;
  const uint32_t first = rank * banks_per_rank_;
  for (uint32_t b = first; b < first + banks_per_rank_; ++b) busy_until_[b] = cycle + t_.t_rfc;
  return cycle + t_.t_rfc;
}

bool AllBankRefresh::catch_up_idle(uint32_t rank, uint64_t cycle, uint64_t now,
                                   DdrRefreshBatch& batch) {
  // Consecutive refreshes of an idle rank with its rows closed start on time: count them
  // at once.
  DdrRankRefresh& r = ranks_[rank];
  if (r.postponed != 0 || r.due >= cycle || device_.open_banks(rank) != 0 ||
      device_.earliest_refresh(rank, std::max(now, r.due)) != r.due) {
    return false;
  }
  const uint64_t count = (cycle - 1 - r.due) / interval() + 1;
  const uint64_t last = r.due + (count - 1) * interval();
  device_.refresh(rank, last, count);
  stats_.refreshes += count;
  const uint32_t first = rank * banks_per_rank_;
  for (uint32_t b = first; b < first + banks_per_rank_; ++b) busy_until_[b] = last + t_.t_rfc;
  r.due += count * interval();
  batch.last_command = last;
  batch.end = last + t_.t_rfc;
  return true;
}

}  // namespace socsim
