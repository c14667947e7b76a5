#include "models/ddr/ddr_timing.h"

#include <algorithm>
#include <cmath>

namespace socsim {

DdrTiming::DdrTiming(const DdrConfig& config)
    : config_(config),
      t_(config.timing),
      decoder_(config.mapping),
      stats_(config),
      tck_fs_(static_cast<uint64_t>(std::llround(config.tck_ps * 1000.0))),
      burst_bytes_(config.geometry.burst_bytes()),
      burst_cycles_(config.geometry.burst_length / 2),
      ideal_latency_ps_(static_cast<uint64_t>(std::llround(config.ideal_latency_ns * 1000.0))) {
  stats_.initiator(0);
  if (config_.model == DdrModelKind::kIdeal) return;
  channels_.resize(config.geometry.channels);
  for (Channel& channel : channels_) {
    channel.banks.resize(config.geometry.banks_per_channel());
    channel.groups.resize(config.geometry.bank_groups);
    channel.refresh_due = t_.t_refi;
  }
}

uint64_t DdrTiming::cycle_to_ps(uint64_t cycle) const {
  const unsigned __int128 fs = static_cast<unsigned __int128>(cycle) * tck_fs_;
  return static_cast<uint64_t>((fs + 999) / 1000);
}

uint64_t DdrTiming::ps_to_cycle_ceil(uint64_t ps) const {
  const unsigned __int128 fs = static_cast<unsigned __int128>(ps) * 1000;
  return static_cast<uint64_t>((fs + tck_fs_ - 1) / tck_fs_);
}

DdrResult DdrTiming::access(uint64_t arrival_ps, bool is_write, uint64_t addr, uint32_t bytes,
                            int initiator) {
  if (config_.model == DdrModelKind::kIdeal) {
    return access_ideal(arrival_ps, is_write, bytes, initiator);
  }
  DdrResult result;
  const uint64_t arrival = ps_to_cycle_ceil(arrival_ps);
  const uint64_t end = addr + std::max<uint32_t>(bytes, 1);
  const size_t banks_per_channel = config_.geometry.banks_per_channel();
  uint64_t done = 0;
  for (uint64_t burst = addr & ~uint64_t{burst_bytes_ - 1}; burst < end; burst += burst_bytes_) {
    const BurstResult b = serve_burst(arrival, is_write, burst);
    done = std::max(done, b.done_cycle);
    ++result.bursts;

    const DdrLocation loc = decoder_.decode(burst);
    DdrCounters& bank = stats_.bank(loc.channel * banks_per_channel +
                                    loc.bank_group * config_.geometry.banks_per_group + loc.bank);
    const uint64_t first_byte = std::max(addr, burst);
    const uint64_t last_byte = std::min(end, burst + burst_bytes_);
    bank.record(is_write, static_cast<uint32_t>(last_byte - first_byte), arrival_ps,
                cycle_to_ps(b.done_cycle));
    switch (b.outcome) {
      case RowOutcome::kHit:
        ++result.row_hits;
        ++bank.row_hits;
        break;
      case RowOutcome::kMiss:
        ++result.row_misses;
        ++bank.row_misses;
        break;
      case RowOutcome::kConflict:
        ++result.row_conflicts;
        ++bank.row_conflicts;
        break;
    }
    if (b.refresh_stall) {
      ++bank.refresh_stalls;
      result.refresh_stall = true;
    }
  }
  result.done_ps = std::max(cycle_to_ps(done), arrival_ps);

  for (DdrCounters* c : {&stats_.initiator(initiator), &stats_.total()}) {
    c->record(is_write, bytes, arrival_ps, result.done_ps);
    c->row_hits += result.row_hits;
    c->row_misses += result.row_misses;
    c->row_conflicts += result.row_conflicts;
    c->refresh_stalls += result.refresh_stall ? 1 : 0;
  }
  return result;
}

DdrResult DdrTiming::access_ideal(uint64_t arrival_ps, bool is_write, uint32_t bytes,
                                  int initiator) {
  DdrResult result;
  result.done_ps = arrival_ps + ideal_latency_ps_;
  result.bursts = 1;
  for (DdrCounters* c : {&stats_.initiator(initiator), &stats_.total(), &stats_.bank(0)}) {
    c->record(is_write, bytes, arrival_ps, result.done_ps);
  }
  return result;
}

DdrTiming::BurstResult DdrTiming::serve_burst(uint64_t arrival, bool is_write, uint64_t addr) {
  const DdrLocation loc = decoder_.decode(addr);
  Channel& ch = channels_[loc.channel];
  BankGroup& group = ch.groups[loc.bank_group];
  Bank& bank = ch.banks[loc.bank_group * config_.geometry.banks_per_group + loc.bank];
  const uint64_t data_delay = is_write ? t_.cwl : t_.cl;

  RowOutcome outcome;
  uint64_t first;  // first command of this burst
  uint64_t pre = 0;
  uint64_t act = 0;
  uint64_t col;
  for (;;) {
    const uint64_t start = std::max(arrival, ch.refresh_end);
    if (bank.open_row == loc.row) {
      outcome = RowOutcome::kHit;
      col = std::max(start, bank.col_ready);
    } else {
      uint64_t act_earliest = start;
      if (bank.open_row == Bank::kClosed) {
        outcome = RowOutcome::kMiss;
      } else {
        outcome = RowOutcome::kConflict;
        pre = std::max(start, bank.pre_ready);
        act_earliest = pre + t_.t_rp;
      }
      act = std::max(
          {act_earliest, bank.act_ready, ch.act_ready, group.act_ready, ch.faw[ch.faw_next]});
      col = act + t_.t_rcd;
    }
    col = std::max({col, ch.col_ready, group.col_ready});
    if (!is_write) col = std::max({col, ch.read_ready, group.read_ready});
    if (col + data_delay < ch.bus_free) col = ch.bus_free - data_delay;

    switch (outcome) {
      case RowOutcome::kHit:
        first = col;
        break;
      case RowOutcome::kMiss:
        first = act;
        break;
      case RowOutcome::kConflict:
        first = pre;
        break;
    }
    // A refresh that falls due before this burst's first command goes first.
    if (ch.refresh_due <= first) {
      refresh(ch, first);
      continue;
    }
    break;
  }

  if (outcome != RowOutcome::kHit) {
    bank.open_row = loc.row;
    bank.act_ready = act + t_.t_rc;
    bank.col_ready = act + t_.t_rcd;
    bank.pre_ready = act + t_.t_ras;
    ch.act_ready = act + t_.t_rrd_s;
    group.act_ready = act + t_.t_rrd_l;
    ch.faw[ch.faw_next] = act + t_.t_faw;
    ch.faw_next = (ch.faw_next + 1) % ch.faw.size();
  }
  ch.col_ready = col + t_.t_ccd_s;
  group.col_ready = col + t_.t_ccd_l;
  const uint64_t data_end = col + data_delay + burst_cycles_;
  if (is_write) {
    bank.pre_ready = std::max(bank.pre_ready, data_end + t_.t_wr);
    ch.read_ready = std::max(ch.read_ready, data_end + t_.t_wtr_s);
    group.read_ready = std::max(group.read_ready, data_end + t_.t_wtr_l);
  } else {
    bank.pre_ready = std::max(bank.pre_ready, col + t_.t_rtp);
  }
  ch.bus_free = data_end;

  // Stalled if the burst arrived before the last refresh ended and that end is what its
  // first command waited for.
  const bool stalled = arrival < ch.refresh_end && first == ch.refresh_end;
  return BurstResult{data_end, outcome, stalled};
}

// All-bank refresh: wait for the banks to allow a precharge, precharge all (tRPab), refresh
// (tRFC). Rows are closed afterwards. Refreshes fall due every tREFI from the deadline, not
// from when they were done, so a busy channel does not drift.
void DdrTiming::refresh(Channel& ch, uint64_t until_cycle) {
  uint64_t precharge_all = ch.refresh_due;
  uint64_t start = ch.refresh_due;
  bool any_open = false;
  for (Bank& bank : ch.banks) {
    start = std::max(start, bank.act_ready);
    if (bank.open_row != Bank::kClosed) {
      any_open = true;
      precharge_all = std::max(precharge_all, bank.pre_ready);
    }
  }
  if (any_open) start = std::max(start, precharge_all + t_.t_rp_all);
  for (Bank& bank : ch.banks) bank.open_row = Bank::kClosed;
  ch.refresh_end = start + t_.t_rfc;
  ch.refresh_due += t_.t_refi;
  stats_.add_refreshes(1);

  // The channel is now idle: refreshes that fall due up to `until_cycle` start on time.
  if (ch.refresh_due <= until_cycle && ch.refresh_due >= ch.refresh_end) {
    const uint64_t count = (until_cycle - ch.refresh_due) / t_.t_refi + 1;
    ch.refresh_end = ch.refresh_due + (count - 1) * t_.t_refi + t_.t_rfc;
    ch.refresh_due += count * t_.t_refi;
    stats_.add_refreshes(count);
  }
}

}  // namespace socsim
