#include "models/ddr/controller/ddr_device_timing.h"

namespace socsim {

DdrDeviceTiming::DdrDeviceTiming(const DdrConfig& config)
    : t_(config.timing),
      groups_per_rank_(config.geometry.bank_groups),
      banks_per_group_(config.geometry.banks_per_group),
      burst_cycles_(config.geometry.burst_cycles()),
      refpb_banks_(config.geometry.banks_per_refpb),
      refpb_stride_(config.geometry.banks_per_rank() / config.geometry.banks_per_refpb) {
  const DdrGeometry& g = config.geometry;
  banks_.resize(g.banks_per_channel());
  groups_.resize(size_t{g.ranks} * g.bank_groups);
  ranks_.resize(g.ranks);
  for (uint32_t i = 0; i < banks_.size(); ++i) {
    banks_[i].rank = i / g.banks_per_rank();
    banks_[i].group = i / g.banks_per_group;
  }
  rank_bus_cycles_.assign(ranks_.size(), 0);
  group_bus_cycles_.assign(groups_.size(), 0);
}

uint64_t DdrDeviceTiming::earliest_precharge_all(uint32_t rank, uint64_t now) const {
  uint64_t t = std::max(now, ranks_[rank].pre_ready);
  const uint32_t first = rank * groups_per_rank_ * banks_per_group_;
  for (uint32_t b = first; b < first + groups_per_rank_ * banks_per_group_; ++b) {
    if (banks_[b].open_row != kClosed) t = std::max(t, banks_[b].pre_ready);
  }
  return t;
}

uint64_t DdrDeviceTiming::earliest_refresh(uint32_t rank, uint64_t now) const {
  // act_ready carries tRP after a precharge and tRC after an activate, the bounds of REF.
  uint64_t t = std::max({now, ranks_[rank].ref_ready, ranks_[rank].refpb_ready});
  const uint32_t first = rank * groups_per_rank_ * banks_per_group_;
  for (uint32_t b = first; b < first + groups_per_rank_ * banks_per_group_; ++b) {
    t = std::max(t, banks_[b].act_ready);
  }
  return t;
}

uint64_t DdrDeviceTiming::earliest_refresh_bank(uint32_t bank, uint64_t now) const {
  const Rank& r = ranks_[banks_[bank].rank];
  uint64_t t = std::max({now, r.refpb_ready, r.ref_ready});
  for (uint32_t i = 0; i < refpb_banks_; ++i) {
    t = std::max(t, banks_[bank + i * refpb_stride_].act_ready);
  }
  return t;
}

void DdrDeviceTiming::open(Rank& rank, uint64_t cycle) {
  apply_closes(rank, cycle);
  if (rank.powered_banks++ == 0) rank.active_since = cycle;
  ++rank.open_banks;
}

void DdrDeviceTiming::close(Rank& rank, uint64_t cycle) {
  ++rank.activity.precharges;
  if (--rank.powered_banks == 0) rank.activity.active_cycles += cycle - rank.active_since;
}

void DdrDeviceTiming::apply_closes(Rank& rank, uint64_t cycle) {
  while (!rank.closing.empty() && rank.closing.top().first <= cycle) {
    const uint64_t at = rank.closing.top().first;
    rank.closing.pop();
    close(rank, at);
  }
}

void DdrDeviceTiming::activate(uint32_t bank, uint32_t row, uint64_t cycle) {
  Bank& b = banks_[bank];
  Rank& r = ranks_[b.rank];
  Group& g = groups_[b.group];
  b.open_row = row;
  b.act_ready = cycle + t_.t_rc;
  b.rd_ready = cycle + t_.t_rcd;
  b.wr_ready = cycle + t_.t_rcd_wr;
  b.pre_ready = cycle + t_.t_ras;
  g.act_ready = cycle + t_.t_rrd_l;
  r.act_ready = std::max(r.act_ready, cycle + t_.t_rrd_s);
  r.faw[r.faw_next] = cycle + t_.t_faw;
  r.faw_next = (r.faw_next + 1) % r.faw.size();
  ++r.activity.activates;
  open(r, cycle);
}

void DdrDeviceTiming::precharge(uint32_t bank, uint64_t cycle) {
  Bank& b = banks_[bank];
  Rank& r = ranks_[b.rank];
  b.open_row = kClosed;
  b.act_ready = std::max(b.act_ready, cycle + t_.t_rp);
  r.pre_ready = cycle + t_.t_ppd;
  --r.open_banks;
  apply_closes(r, cycle);
  close(r, cycle);
}

uint64_t DdrDeviceTiming::column(uint32_t bank, bool is_write, bool auto_precharge,
                                 uint64_t cycle) {
  Bank& b = banks_[bank];
  Rank& r = ranks_[b.rank];
  Group& g = groups_[b.group];
  const uint64_t data_start = cycle + (is_write ? t_.cwl : t_.cl);
  const uint64_t data_end = data_start + burst_cycles_;
  if (is_write) {
    g.wr_ready = std::max(g.wr_ready, cycle + t_.t_ccd_l_wr);
    r.wr_ready = std::max(r.wr_ready, cycle + t_.t_ccd_s_wr);
    g.rd_ready = std::max(g.rd_ready, data_end + t_.t_wtr_l);
    r.rd_ready = std::max(r.rd_ready, data_end + t_.t_wtr_s);
    b.pre_ready = std::max(b.pre_ready, data_end + t_.t_wr);
    ++r.activity.writes;
  } else {
    g.rd_ready = std::max(g.rd_ready, cycle + t_.t_ccd_l);
    r.rd_ready = std::max(r.rd_ready, cycle + t_.t_ccd_s);
    // Read to write turnaround: the write's data may follow the read's after two cycles.
    const uint64_t rtw = t_.cl + burst_cycles_ + 2;
    r.wr_ready = std::max(r.wr_ready, cycle + (rtw > t_.cwl ? rtw - t_.cwl : 0));
    b.pre_ready = std::max(b.pre_ready, cycle + t_.t_rtp);
    ++r.activity.reads;
  }
  bus_free_ = data_end;
  bus_rank_ = b.rank;
  rank_bus_cycles_[b.rank] += burst_cycles_;
  group_bus_cycles_[b.group] += burst_cycles_;
  if (auto_precharge) {
    // The bank precharges itself as soon as tRAS, tRTP / tWR allow (RDA / WRA).
    const uint64_t pre = std::max(b.pre_ready, cycle);
    b.open_row = kClosed;
    b.act_ready = std::max(b.act_ready, pre + t_.t_rp);
    --r.open_banks;
    r.closing.emplace(pre, bank);
  }
  return data_end;
}

void DdrDeviceTiming::precharge_all(uint32_t rank, uint64_t cycle) {
  Rank& r = ranks_[rank];
  apply_closes(r, cycle);
  const uint32_t first = rank * groups_per_rank_ * banks_per_group_;
  for (uint32_t i = first; i < first + groups_per_rank_ * banks_per_group_; ++i) {
    Bank& b = banks_[i];
    if (b.open_row == kClosed) continue;
    b.open_row = kClosed;
    b.act_ready = std::max(b.act_ready, cycle + t_.t_rp_all);
    --r.open_banks;
    close(r, cycle);
  }
  r.pre_ready = cycle + t_.t_ppd;
}

void DdrDeviceTiming::refresh(uint32_t rank, uint64_t cycle, uint64_t count) {
  Rank& r = ranks_[rank];
  apply_closes(r, cycle);
  const uint32_t first = rank * groups_per_rank_ * banks_per_group_;
  for (uint32_t i = first; i < first + groups_per_rank_ * banks_per_group_; ++i) {
    banks_[i].act_ready = std::max(banks_[i].act_ready, cycle + t_.t_rfc);
  }
  r.act_ready = std::max(r.act_ready, cycle + t_.t_rfc);
  r.ref_ready = cycle + t_.t_rfc;
  r.activity.refreshes += count;
}

void DdrDeviceTiming::refresh_bank(uint32_t bank, uint64_t cycle, uint64_t count) {
  Rank& r = ranks_[banks_[bank].rank];
  apply_closes(r, cycle);
  for (uint32_t i = 0; i < refpb_banks_; ++i) {
    Bank& b = banks_[bank + i * refpb_stride_];
    b.act_ready = std::max(b.act_ready, cycle + t_.t_rfc_pb);
  }
  r.act_ready = std::max(r.act_ready, cycle + t_.t_pbr2act);
  r.refpb_ready = cycle + t_.t_pbr2pbr;
  r.activity.bank_refreshes += count;
}

void DdrDeviceTiming::settle(uint64_t cycle) {
  for (Rank& r : ranks_) {
    apply_closes(r, cycle);
    if (r.powered_banks > 0 && cycle > r.active_since) {
      r.activity.active_cycles += cycle - r.active_since;
      r.active_since = cycle;
    }
  }
}

}  // namespace socsim
