#include "models/ddr/controller/ddr_direct_path.h"

#include <algorithm>

namespace socsim {

bool DdrDirectPath::serve_alone(const DdrBurstRequest& burst, uint64_t cycle, uint32_t followers) {
  DdrBurstDone done;
  if (!serve_alone(burst, cycle, followers, done)) return false;
  c_.sink_.burst_done(done);
  return true;
}

bool DdrDirectPath::serve_alone(const DdrBurstRequest& burst, uint64_t cycle, uint32_t followers,
                                DdrBurstDone& done) {
  DdrChannelController& ch = c_;  // a local, kept in a register: no store of the path aliases it
  // Followers queued behind it are not offered (only a bank's oldest row hit is), but keep
  // the row open under closed_adaptive and count in the queue statistics.
  if (!alone_hit(burst) || ch.capacity_[ch.kRead] < 1 + followers) return false;
  const uint64_t issue_cycle = alone_ready(burst.bank);
  if (!refresh_waits(ch.device_.rank_of(burst.bank), issue_cycle)) return false;
  serve_hit(burst, cycle, issue_cycle, followers, followers > 0, done);
  return true;
}

int DdrDirectPath::serve_first_of_two(const DdrBurstRequest (&bursts)[2], uint64_t cycle,
                                      DdrBurstDone& done) {
  DdrChannelController& ch = c_;  // a local: no store of the path aliases it
  // Both queued, each is its bank's only entry: the candidates are their two column
  // commands (collect_candidates() with nothing else queued), and the policy picks one.
  const uint32_t rank = ch.device_.rank_of(bursts[0].bank);
  if (bursts[0].bank == bursts[1].bank || ch.device_.rank_of(bursts[1].bank) != rank ||
      !alone_hit(bursts[0]) || !alone_hit(bursts[1]) || ch.capacity_[ch.kRead] < 2) {
    return -1;
  }
  DdrCandidate c[2];
  for (int i = 0; i < 2; ++i) {
    c[i].ready = alone_ready(bursts[i].bank);
    c[i].seq = ch.seq_ + i;
    c[i].entry = i;
    c[i].bank = static_cast<uint16_t>(bursts[i].bank);
    c[i].column = true;
    c[i].oldest_in_bank = true;
  }
  const int first = static_cast<int>(ch.scheduler_->pick(c, 2));
  if (!refresh_waits(rank, c[first].ready)) return -1;
  // The other burst is in another bank: it counts as queued but does not keep this row open.
  serve_hit(bursts[first], cycle, c[first].ready, 1, false, done);
  return first;
}

// Flattened: serve_alone(), serve_first_of_two() and serve_hit() are inlined here, the
// streaming read's path (needs -fno-semantic-interposition, models/ddr/CMakeLists.txt).
[[gnu::flatten]] uint32_t DdrDirectPath::serve_hits_alone(const DdrBurstRequest (&bursts)[2],
                                                          uint32_t count, bool same_bank,
                                                          uint64_t cycle, DdrBurstDone (&done)[2],
                                                          int& lead) {
  lead = 0;
  if (same_bank) {
    if (!serve_alone(bursts[0], cycle, count - 1, done[0])) return 0;
  } else {
    lead = serve_first_of_two(bursts, cycle, done[0]);
    if (lead < 0) return 0;
  }
  // The first burst has left the queue, so there is room for the second.
  if (count == 1) return 1;
  return serve_alone(bursts[1 - lead], cycle, 0, done[1]) ? 2 : 1;
}

bool DdrDirectPath::serve_reads_alone(const DdrBurstRequest* bursts, uint32_t count, uint64_t cycle,
                                      DdrBurstDone* done) {
  DdrChannelController& ch = c_;  // a local: no store of the path aliases it
  if (count < 1 || count > 2 || !ch.idle() || ch.capacity_[ch.kRead] < count) return false;
  const uint32_t rank = ch.device_.rank_of(bursts[0].bank);
  uint64_t latest = ch.now_;
  for (uint32_t k = 0; k < count; ++k) {
    if (bursts[k].is_write || ch.device_.rank_of(bursts[k].bank) != rank ||
        ch.bank_blocked(bursts[k].bank)) {
      return false;
    }
    latest = std::max(latest, ch.device_.latest_read_bound(bursts[k].bank));
  }
  // Two bursts of one row of one bank: the second is offered once the first is done.
  const bool one_bank = count == 2 && bursts[0].bank == bursts[1].bank;
  if (one_bank && bursts[0].row != bursts[1].row) return false;
  // Each command issues by the latest bound so far plus one step after the one before it,
  // and each burst takes at most three (precharge, activate, column): the refresh test of
  // every choose() is passed if none falls due by then and a refresh under way issues its
  // next command later (these commands only delay it).
  if (!refresh_waits(rank, latest + 3 * count * ch.alone_step_)) return false;

  // enqueue() of each
  ch.note_occupancy(cycle);
  const uint64_t first_seq = ch.seq_;
  ch.seq_ += count;
  bool refresh_stall[2], activated[2] = {false, false}, finished[2] = {false, false};
  DdrOutcome outcome[2] = {DdrOutcome::kHit, DdrOutcome::kHit};
  bool started[2] = {false, false};
  for (uint32_t k = 0; k < count; ++k)
    refresh_stall[k] = cycle < ch.refresh_->busy_until(bursts[k].bank);
  ch.queued_[ch.kRead] += count;
  ch.stats_.max_read_queue = std::max(ch.stats_.max_read_queue, ch.queued_[ch.kRead]);
  ch.choice_valid_ = false;
  // ch.update_write_mode(): reads only from here on, so only a drain can end (once).
  if (ch.write_mode_) ch.update_write_mode();
  uint32_t left = count, finished_count = 0;
  while (left > 0) {
    // choose(): each burst is its bank's oldest, the only one it offers.
    DdrCandidate c[2];
    uint32_t n = 0;
    for (uint32_t k = 0; k < count; ++k) {
      if (finished[k] || (one_bank && k == 1 && !finished[0])) continue;
      const uint32_t bank = bursts[k].bank;
      DdrCandidate& o = c[n++];
      o.seq = first_seq + k;
      o.entry = static_cast<int32_t>(k);
      o.bank = static_cast<uint16_t>(bank);
      o.oldest_in_bank = true;
      o.activated = activated[k];
      const uint32_t open = ch.device_.open_row(bank);
      o.column = open == bursts[k].row;
      const uint32_t group = ch.device_.group_of(bank);
      if (o.column) {
        o.ready = std::max(ch.device_.bank_column_ready(bank, false),
                           ch.device_.shared_column_ready(group, false));
      } else if (open != DdrDeviceTiming::kClosed) {
        o.ready = std::max(ch.device_.bank_precharge_ready(bank),
                           ch.device_.shared_precharge_ready(rank));
      } else {
        o.ready =
            std::max(ch.device_.bank_activate_ready(bank), ch.device_.shared_activate_ready(group));
      }
      o.ready = std::max(o.ready, ch.now_);
    }
    const DdrCandidate& pick = c[ch.scheduler_->pick(c, n)];
    const uint32_t k = static_cast<uint32_t>(pick.entry);
    const DdrBurstRequest& b = bursts[k];
    // issue()
    const uint64_t at = pick.ready;
    ch.now_ = at;
    ch.banks_[b.bank].stale = true;
    if (pick.column) {
      if (!started[k]) outcome[k] = DdrOutcome::kHit;
      // auto_precharge(): the first of two bursts of one row has the second queued behind.
      const bool precharge = ch.precharge_[one_bank && k == 0];
      const uint64_t done_cycle = ch.device_.column(b.bank, false, precharge, at);
      activated[k] = false;
      // finish_entry()
      ch.note_occupancy(ch.now_);
      --ch.queued_[ch.kRead];
      ch.last_event_ = std::max(ch.last_event_, done_cycle);
      DdrBurstDone& d = done[finished_count++];
      d.request = b.request;
      d.channel = ch.channel_;
      d.bank = b.bank;
      d.accept_cycle = cycle;
      d.done_cycle = done_cycle;
      d.bytes = b.bytes;
      d.outcome = outcome[k];
      d.is_write = false;
      d.refresh_stall = refresh_stall[k];
      finished[k] = true;
      --left;
    } else if (ch.device_.open_row(b.bank) != DdrDeviceTiming::kClosed) {
      ch.device_.precharge(b.bank, at);
      if (!started[k]) outcome[k] = DdrOutcome::kConflict;
    } else {
      ch.device_.activate(b.bank, b.row, at);
      if (!started[k]) outcome[k] = DdrOutcome::kMiss;
      activated[k] = true;
    }
    started[k] = true;
    ch.now_ = at + 1;
  }
  return true;
}

void DdrDirectPath::serve_hit(const DdrBurstRequest& burst, uint64_t cycle, uint64_t issue_cycle,
                              uint32_t queued_behind, bool keeps_row, DdrBurstDone& done) {
  DdrChannelController& ch = c_;  // a local: no store of the path aliases it
  // The closed form of enqueue() + choose() + issue() for a row-hit read in an ch.idle channel,
  // with `queued_behind` more reads entering the queue at the same cycle (`keeps_row`: one
  // of them hits the same row of the same bank).
  const uint32_t bank = burst.bank;
  // enqueue()
  ch.note_occupancy(cycle);
  ++ch.seq_;
  const bool refresh_stall = cycle < ch.refresh_->busy_until(bank);
  ch.queued_[ch.kRead] += 1 + queued_behind;
  ch.stats_.max_read_queue = std::max(ch.stats_.max_read_queue, ch.queued_[ch.kRead]);
  ch.choice_valid_ = false;
  // choose(), issue(); ch.update_write_mode() with reads and no writes queued can only end a
  // drain.
  if (ch.write_mode_) ch.update_write_mode();
  ch.now_ = issue_cycle;
  ch.banks_[bank].stale = true;
  const uint64_t done_cycle = ch.device_.column(bank, false, ch.precharge_[keeps_row], issue_cycle);
  // finish_entry()
  ch.note_occupancy(ch.now_);
  ch.queued_[ch.kRead] -= 1 + queued_behind;  // the caller's next call queues (or serves) them
  ch.last_event_ = std::max(ch.last_event_, done_cycle);
  ch.now_ = issue_cycle + 1;
  done.request = burst.request;
  done.channel = ch.channel_;
  done.bank = bank;
  done.accept_cycle = cycle;
  done.done_cycle = done_cycle;
  done.bytes = burst.bytes;
  done.outcome = DdrOutcome::kHit;
  done.is_write = false;
  done.refresh_stall = refresh_stall;
}

}  // namespace socsim
