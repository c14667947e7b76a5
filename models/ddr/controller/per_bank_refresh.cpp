#include "models/ddr/controller/per_bank_refresh.h"

#include <algorithm>

namespace socsim {

PerBankRefresh::PerBankRefresh(const DdrConfig& config, DdrDeviceTiming& device,
                               DdrControllerStats& stats)
    : DdrRefresh(config, device, stats, config.timing.t_refi_pb) {}

int32_t PerBankRefresh::start_refresh(uint32_t rank) {
  DdrRankRefresh& r = ranks_[rank];
  const uint32_t bank = rank * banks_per_rank_ + r.next_bank;
  r.pending_bank = static_cast<int32_t>(bank);
  for (uint32_t i = 0; i < device_.refpb_banks(); ++i) {
    bank_pending_[bank + i * device_.refpb_stride()] = 1;
  }
  r.next_bank = (r.next_bank + 1) % device_.refpb_stride();
  return r.pending_bank;
}

DdrRefreshCommand PerBankRefresh::next_command(uint32_t rank, uint64_t now,
                                               uint64_t activated_mask) const {
  DdrRefreshCommand c;
  const DdrRankRefresh& r = ranks_[rank];
  if (r.pending_bank == -1) return c;
  // The banks this REFpb refreshes: activated requests finish, open rows are closed.
  const uint32_t first = static_cast<uint32_t>(r.pending_bank);
  for (uint32_t i = 0; i < device_.refpb_banks(); ++i) {
    const uint32_t bank = first + i * device_.refpb_stride();
    if ((activated_mask >> bank & 1) != 0) return c;
  }
  for (uint32_t i = 0; i < device_.refpb_banks(); ++i) {
    const uint32_t bank = first + i * device_.refpb_stride();
    if (device_.open_row(bank) != DdrDeviceTiming::kClosed) {
      c.kind = DdrRefreshCommand::Kind::kPrecharge;
      c.bank = bank;
      c.cycle = device_.earliest_precharge(bank, now);
      return c;
    }
  }
  c.kind = DdrRefreshCommand::Kind::kRefreshBank;
  c.bank = first;
  c.cycle = device_.earliest_refresh_bank(first, now);
  return c;
}

uint64_t PerBankRefresh::issue(uint32_t rank, const DdrRefreshCommand& command, uint64_t cycle) {
  if (command.kind == DdrRefreshCommand::Kind::kPrecharge) {
    device_.precharge(command.bank, cycle);
    return 0;
  }
  device_.refresh_bank(command.bank, cycle);
  ranks_[rank].pending_bank = -1;
  end_refresh();
  for (uint32_t i = 0; i < device_.refpb_banks(); ++i) {
    const uint32_t bank = command.bank + i * device_.refpb_stride();
    bank_pending_[bank] = 0;
    busy_until_[bank] = cycle + t_.t_rfc_pb;
  }
  ++stats_.bank_refreshes;
  return cycle + t_.t_rfc_pb;
}

bool PerBankRefresh::catch_up_idle(uint32_t rank, uint64_t cycle, uint64_t now,
                                   DdrRefreshBatch& batch) {
  // An idle rank catching up marks each REFpb that fell due before `cycle` at once
  // (the controller's update_refresh()), so next_command() issues them back to back: with
  // its rows closed, the first at t0 (the device's bound), each next one tPBR2PBR later,
  // round robin, as long as every bank set is free by its turn (its bound by t0,
  // tRFCpb <= sets x tPBR2PBR) and the command falls before `cycle`. Counted at once, the
  // last REFpb of each set recorded; the controller goes on from there.
  DdrRankRefresh& r = ranks_[rank];
  const uint64_t sets = device_.refpb_stride();
  const uint64_t step = t_.t_pbr2pbr;
  if (r.postponed > 0 || r.due >= cycle || device_.open_banks(rank) > 0 || step == 0 ||
      t_.t_rfc_pb > sets * step) {
    return false;
  }
  const uint32_t first = rank * banks_per_rank_;
  const uint64_t t0 = device_.earliest_refresh_bank(first + r.next_bank, now);
  if (t0 >= cycle) return false;
  for (uint32_t set = 0; set < sets; ++set) {
    if (device_.earliest_refresh_bank(first + set, t0) != t0) return false;
  }
  const uint64_t count = std::min((cycle - 1 - r.due) / interval(), (cycle - 1 - t0) / step) + 1;
  const uint64_t recorded = std::min(count, sets);
  for (uint64_t k = count - recorded; k < count; ++k) {
    const uint32_t bank = first + static_cast<uint32_t>((r.next_bank + k) % sets);
    const uint64_t at = t0 + k * step;
    device_.refresh_bank(bank, at, k == count - recorded ? count - recorded + 1 : 1);
    for (uint32_t i = 0; i < device_.refpb_banks(); ++i) {
      busy_until_[bank + i * device_.refpb_stride()] = at + t_.t_rfc_pb;
    }
  }
  const uint64_t last = t0 + (count - 1) * step;
  stats_.bank_refreshes += count;
  r.due += count * interval();
  r.next_bank = static_cast<uint32_t>((r.next_bank + count) % sets);
  batch.last_command = last;
  batch.end = last + t_.t_rfc_pb;
  return true;
}

}  // namespace socsim
