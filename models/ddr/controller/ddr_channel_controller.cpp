#include "models/ddr/controller/ddr_channel_controller.h"

#include <algorithm>

namespace socsim {

DdrChannelController::DdrChannelController(const DdrConfig& config, uint32_t channel,
                                           DdrBurstSink& sink, DdrControllerStats& stats)
    : config_(config),
      channel_(channel),
      sink_(sink),
      stats_(stats),
      device_(config),
      scheduler_(make_ddr_scheduler(config.controller)),
      t_(config.timing),
      banks_per_rank_(config.geometry.banks_per_rank()) {
  const DdrControllerConfig& c = config.controller;
  capacity_[kRead] = c.read_queue;
  capacity_[kWrite] = c.write_queue;
  // An activated request has left its queue for its bank's active slot (one per bank).
  entries_.resize(size_t{c.read_queue} + c.write_queue + device_.banks());
  for (size_t i = 0; i < entries_.size(); ++i) {
    entries_[i].next = i + 1 < entries_.size() ? static_cast<int32_t>(i + 1) : kNone;
  }
  free_ = 0;
  banks_.resize(device_.banks());
  for (uint32_t b = 0; b < banks_.size(); ++b) banks_[b].group = device_.group_of(b);
  shared_ready_.assign(4 * size_t{device_.groups()}, 0);
  shared_stamp_.assign(4 * size_t{device_.groups()}, 0);
  refresh_ = make_ddr_refresh(config, device_, stats_);
  alone_step_ =
      std::max({uint64_t{1}, uint64_t{t_.t_rp}, uint64_t{t_.t_rcd}, uint64_t{t_.t_rrd_s},
                uint64_t{t_.t_rrd_l}, uint64_t{t_.t_ccd_s}, uint64_t{t_.t_ccd_l},
                uint64_t{t_.t_ppd}, uint64_t{config.geometry.burst_cycles()} + t_.t_rtrs});
  candidates_.resize(3 * size_t{device_.banks()});
  const std::unique_ptr<DdrPagePolicyRule> page = make_ddr_page_policy(c.page_policy);
  precharge_[false] = page->auto_precharge(false);
  precharge_[true] = page->auto_precharge(true);
  page_asks_queue_ = page->depends_on_queue();
}

// ---- queues --------------------------------------------------------------------------------

int32_t DdrChannelController::alloc_entry() {
  const int32_t e = free_;
  free_ = entries_[e].next;
  return e;
}

void DdrChannelController::link(int32_t e) {
  Entry& entry = entries_[e];
  const int dir = entry.is_write ? kWrite : kRead;
  BankQueue& q = banks_[entry.bank];
  entry.prev = q.tail[dir];
  entry.next = kNone;
  if (q.tail[dir] != kNone) {
    entries_[q.tail[dir]].next = e;
  } else {
    q.head[dir] = e;
  }
  q.tail[dir] = e;
  q.stale = true;
  // The youngest: the first miss only if there was none.
  if (q.first_miss == kNone && q.miss_dir == dir && entry.row != q.miss_row) q.first_miss = e;
  pending_mask_[dir] |= uint64_t{1} << entry.bank;
}

void DdrChannelController::unlink(int32_t e) {
  Entry& entry = entries_[e];
  const int dir = entry.is_write ? kWrite : kRead;
  BankQueue& q = banks_[entry.bank];
  (entry.prev != kNone ? entries_[entry.prev].next : q.head[dir]) = entry.next;
  (entry.next != kNone ? entries_[entry.next].prev : q.tail[dir]) = entry.prev;
  q.stale = true;
  // Removing a request older than the first miss (a hit) leaves it; the first miss itself
  // is only served after another row was opened, which needs a new search anyway.
  if (q.first_miss == e) q.miss_dir = -1;
  if (q.head[dir] == kNone) pending_mask_[dir] &= ~(uint64_t{1} << entry.bank);
}

void DdrChannelController::enqueue(const DdrBurstRequest& burst, uint64_t cycle) {
  if (!queued_writes_.empty()) {
    auto it = queued_writes_.find(burst.line);
    if (it != queued_writes_.end()) {
      // The newest data of the line is in the write queue.
      DdrBurstDone done;
      done.request = burst.request;
      done.channel = channel_;
      done.bank = burst.bank;
      done.accept_cycle = cycle;
      done.bytes = burst.bytes;
      done.is_write = burst.is_write;
      if (burst.is_write) {
        ++stats_.coalesced_writes;
        done.outcome = DdrOutcome::kCoalesced;
        done.done_cycle = cycle;
      } else {
        ++stats_.forwarded_reads;
        done.outcome = DdrOutcome::kForwarded;
        done.done_cycle = cycle + 1;
      }
      sink_.burst_done(done);
      return;
    }
  }
  note_occupancy(cycle);
  const int32_t e = alloc_entry();
  Entry& entry = entries_[e];
  entry.bypassed = 0;
  entry.started = false;
  entry.outcome = DdrOutcome::kHit;
  entry.seq = seq_++;
  entry.accept = cycle;
  entry.line = burst.line;
  entry.request = burst.request;
  entry.bank = burst.bank;
  entry.row = burst.row;
  entry.bytes = burst.bytes;
  entry.is_write = burst.is_write;
  const uint32_t rank = device_.rank_of(burst.bank);
  entry.refresh_stall = cycle < refresh_->busy_until(burst.bank) || refresh_->rank(rank).pending ||
                        refresh_->bank_pending(burst.bank);
  const bool fresh = !banks_[burst.bank].stale;
  link(e);
  const int dir = burst.is_write ? kWrite : kRead;
  ++queued_[dir];
  ++refresh_->rank(rank).queued;
  stats_.max_read_queue = std::max(stats_.max_read_queue, queued_[kRead]);
  stats_.max_write_queue = std::max(stats_.max_write_queue, queued_[kWrite]);
  if (burst.is_write) queued_writes_.emplace(burst.line, e);
  update_choice(e, fresh);
}

// A new entry only adds to its bank's offers (it is the youngest: not the head unless the
// bank was empty, not activated), so for a policy that orders candidates the new choice is
// the better of the last one and that bank's offers; a bank whose offers it does not change
// keeps them.
void DdrChannelController::update_choice(int32_t e, bool offers_were_fresh) {
  if (!choice_valid_) return;
  choice_valid_ = false;
  if (!scheduler_->orders_candidates() || choice_.kind != Kind::kRequest ||
      refresh_->refreshing() > 0) {
    return;
  }
  const bool mode = write_mode_;
  update_write_mode();
  if (write_mode_ != mode) return;
  const Entry& entry = entries_[e];
  const int dir = write_mode_ ? kWrite : kRead;
  BankQueue& q = banks_[entry.bank];
  const bool same_direction = entry.is_write == (dir == kWrite);
  bool unchanged = !same_direction;
  if (same_direction && offers_were_fresh && q.offers_dir == dir && q.head[dir] != e) {
    // Not the head; it adds an offer only as the bank's first row hit (the activated request
    // aside), or (the row open, no request activated) as its first request that misses it.
    bool has_hit = false, has_miss = false;
    for (uint8_t i = 0; i < q.offer_count; ++i) {
      const DdrCandidate& c = q.offers[i].candidate;
      if (!c.activated) (c.column ? has_hit : has_miss) = true;
    }
    unchanged =
        entry.row == device_.open_row(entry.bank) ? has_hit : has_miss || q.activated != kNone;
  }
  if (unchanged) {
    q.stale = !offers_were_fresh;
  } else {
    const uint32_t b = entry.bank;
    make_offers(b, dir);
    candidates_[0] = candidates_[choice_.candidate];
    size_t count = 1;
    for (uint8_t i = 0; i < q.offer_count; ++i) {
      const Offer& o = q.offers[i];
      DdrCandidate& c = candidates_[count++];
      c = o.candidate;
      c.ready = std::max(std::max(now_, o.bank_ready), shared_bound(o.bound));
    }
    choice_.candidate = scheduler_->pick(candidates_.data(), count);
    choice_.cycle = candidates_[choice_.candidate].ready;
  }
  choice_valid_ = true;
}

void DdrChannelController::finish_entry(int32_t e, uint64_t done_cycle) {
  Entry& entry = entries_[e];
  note_occupancy(now_);
  unlink(e);
  const int dir = entry.is_write ? kWrite : kRead;
  --queued_[dir];
  --refresh_->rank(device_.rank_of(entry.bank)).queued;
  if (entry.is_write) queued_writes_.erase(entry.line);
  last_event_ = std::max(last_event_, done_cycle);
  DdrBurstDone done;
  done.request = entry.request;
  done.channel = channel_;
  done.bank = entry.bank;
  done.accept_cycle = entry.accept;
  done.done_cycle = done_cycle;
  done.bytes = entry.bytes;
  done.outcome = entry.outcome;
  done.is_write = entry.is_write;
  done.refresh_stall = entry.refresh_stall;
  if (entry.bypassed > 0) {
    ++stats_.bypassed_requests;
    stats_.max_bypass = std::max(stats_.max_bypass, entry.bypassed);
  }
  entry.next = free_;
  free_ = e;
  sink_.burst_done(done);
}

// ---- time ----------------------------------------------------------------------------------

void DdrChannelController::run_until(uint64_t cycle) {
  if (cycle <= now_) return;  // no command can fall before it
  while (!idle()) {
    const Choice c = choose(cycle);
    if (c.cycle >= cycle) break;
    issue(c);
  }
  if (idle()) {
    for (uint32_t r = 0; r < refresh_->ranks(); ++r) idle_refreshes(r, cycle);
  }
  now_ = std::max(now_, cycle);
}

void DdrChannelController::catch_up() {
  while (idle()) {
    update_refresh(now_);  // owed refreshes of idle ranks start now
    bool issued = false;
    for (uint32_t r = 0; r < refresh_->ranks(); ++r) {
      const Choice c = refresh_choice(r);
      if (c.cycle == UINT64_MAX) continue;
      issue(c);
      issued = true;
      break;
    }
    if (!issued) return;
  }
}

void DdrChannelController::settle(uint64_t cycle) {
  if (write_mode_ && drain_writes_ > 0) {  // a drain still under way counts too
    ++stats_.write_drains;
    if (drain_forced_) ++stats_.watermark_drains;
    stats_.drained_writes += drain_writes_;
    drain_writes_ = 0;
  }
  note_occupancy(std::max(cycle, last_event_));
  device_.settle(std::max(cycle, last_event_));
}

bool DdrChannelController::step() {
  if (idle()) return false;
  issue(choose(UINT64_MAX));
  return true;
}

// ---- scheduling ----------------------------------------------------------------------------

void DdrChannelController::update_write_mode() {
  // Activated requests are in their banks' active slots, not in the queues.
  const double reads = queued_[kRead] - activated_[kRead];
  const double writes = queued_[kWrite] - activated_[kWrite];
  const DdrControllerConfig& c = config_.controller;
  if (!write_mode_) {
    const bool full = writes > c.write_high_watermark * capacity_[kWrite];
    if (full || (reads == 0 && writes > 0)) {
      write_mode_ = true;
      drain_forced_ = full;
      drain_writes_ = 0;
    }
  } else if (reads > 0 && (writes == 0 || writes < c.write_low_watermark * capacity_[kWrite])) {
    write_mode_ = false;
    if (drain_writes_ > 0) {
      ++stats_.write_drains;
      if (drain_forced_) ++stats_.watermark_drains;
      stats_.drained_writes += drain_writes_;
    }
  }
}

void DdrChannelController::add_offer(BankQueue& q, int32_t e, uint32_t bank, bool oldest,
                                     bool activated) {
  const Entry& entry = entries_[e];
  Offer& o = q.offers[q.offer_count++];
  DdrCandidate& c = o.candidate;
  c.entry = e;
  c.seq = entry.seq;
  c.bank = static_cast<uint16_t>(bank);
  c.oldest_in_bank = oldest;
  c.activated = activated;
  c.head_bypassed = q.head_bypassed;
  const uint32_t open = device_.open_row(bank);
  c.column = open == entry.row;
  uint32_t op;
  if (c.column) {
    op = entry.is_write ? 2 : 1;
    o.bank_ready = device_.bank_column_ready(bank, entry.is_write);
  } else if (open != DdrDeviceTiming::kClosed) {
    op = 3;
    o.bank_ready = device_.bank_precharge_ready(bank);
  } else {
    op = 0;
    o.bank_ready = device_.bank_activate_ready(bank);
  }
  o.bound = 4 * q.group + op;
}

uint64_t DdrChannelController::compute_shared_bound(uint32_t slot) {
  shared_stamp_[slot] = decision_;
  const uint32_t group = slot / 4;
  uint64_t value;
  switch (slot % 4) {
    case 0:
      value = device_.shared_activate_ready(group);
      break;
    case 1:
      value = device_.shared_column_ready(group, false);
      break;
    case 2:
      value = device_.shared_column_ready(group, true);
      break;
    default:
      value = device_.shared_precharge_ready(group / (device_.groups() / device_.ranks()));
      break;
  }
  shared_ready_[slot] = value;
  return value;
}

void DdrChannelController::make_offers(uint32_t b, int dir) {
  BankQueue& q = banks_[b];
  q.offer_count = 0;
  q.offers_dir = static_cast<int8_t>(dir);
  q.stale = false;
  const int32_t head = q.head[dir];
  q.head_bypassed = head != kNone ? entries_[head].bypassed : 0;
  if (q.activated != kNone) {
    const Entry& a = entries_[q.activated];
    add_offer(q, q.activated, b, q.head[a.is_write ? kWrite : kRead] == q.activated, true);
  }
  if (head == kNone || bank_blocked(b)) return;
  const uint32_t open = device_.open_row(b);
  if (open == DdrDeviceTiming::kClosed) {
    add_offer(q, head, b, true, false);
    return;
  }
  // The oldest request that hits the open row, besides the one it was opened for (FCFS
  // must see it: it may be the oldest request waiting).
  int32_t hit = head;
  while (hit != kNone && (entries_[hit].row != open || hit == q.activated)) {
    hit = entries_[hit].next;
  }
  if (hit != kNone) add_offer(q, hit, b, hit == head, false);
  // Precharging for the oldest request that misses the open row, even if older ones hit it
  // (Ramulator 2's FR-FCFS looks at every queued request: a younger request's precharge
  // that the device accepts first goes before an older row hit that must still wait); not
  // while a request waits for the open row's activate to pay off.
  if (q.activated != kNone) return;
  if (q.miss_dir != dir || q.miss_row != open) {
    int32_t miss = head;
    while (miss != kNone && entries_[miss].row == open) miss = entries_[miss].next;
    q.first_miss = miss;
    q.miss_row = open;
    q.miss_dir = static_cast<int8_t>(dir);
  }
  const int32_t miss = q.first_miss;
  if (miss != kNone) add_offer(q, miss, b, miss == head, false);
}

void DdrChannelController::mark_rank_stale(uint32_t rank) {
  for (uint32_t b = rank * banks_per_rank_; b < (rank + 1) * banks_per_rank_; ++b) {
    banks_[b].stale = true;
  }
}

void DdrChannelController::collect_candidates() {
  candidate_count_ = 0;
  ++decision_;
  const int dir = write_mode_ ? kWrite : kRead;
  uint64_t mask = pending_mask_[dir] | activated_mask_;
  while (mask != 0) {
    const uint32_t b = static_cast<uint32_t>(__builtin_ctzll(mask));
    mask &= mask - 1;
    BankQueue& q = banks_[b];
    if (q.stale || q.offers_dir != dir) make_offers(b, dir);
    for (uint8_t i = 0; i < q.offer_count; ++i) {
      const Offer& o = q.offers[i];
      DdrCandidate& c = candidates_[candidate_count_++];
      c = o.candidate;
      c.ready = std::max(std::max(now_, o.bank_ready), shared_bound(o.bound));
    }
  }
}

DdrChannelController::Choice DdrChannelController::refresh_choice(uint32_t rank) const {
  Choice c;
  c.rank = rank;
  const DdrRefreshCommand command = refresh_->next_command(rank, now_, activated_mask_);
  if (command.kind != DdrRefreshCommand::Kind::kNone) {
    c.kind = Kind::kRefresh;
    c.refresh = command.kind;
    c.cycle = command.cycle;
    c.bank = command.bank;
  }
  return c;
}

void DdrChannelController::mark_refresh_stalls(uint32_t rank, int32_t refpb_bank) {
  for (uint32_t b = rank * banks_per_rank_; b < (rank + 1) * banks_per_rank_; ++b) {
    if (refpb_bank != kNone && !refresh_->bank_pending(b)) continue;
    for (int dir : {kRead, kWrite}) {
      for (int32_t e = banks_[b].head[dir]; e != kNone; e = entries_[e].next) {
        if (!entries_[e].started) entries_[e].refresh_stall = true;
      }
    }
  }
}

void DdrChannelController::update_refresh(uint64_t cycle) {
  // Refreshes of ranks that fall due by `cycle` start (or are put off); owed ones of idle
  // ranks are caught up.
  const DdrControllerConfig& c = config_.controller;
  for (uint32_t rank = 0; rank < refresh_->ranks(); ++rank) {
    DdrRankRefresh& r = refresh_->rank(rank);
    while (!r.under_way()) {
      const bool due = r.due <= cycle;
      if (due && r.queued > 0 && r.postponed < c.refresh_postpone) {
        ++r.postponed;
        ++stats_.postponed_refreshes;
        r.due += refresh_->interval();
        continue;
      }
      if (due) {
        r.due += refresh_->interval();
      } else if (r.postponed > 0 && r.queued == 0) {
        --r.postponed;
      } else {
        break;
      }
      mark_rank_stale(rank);
      choice_valid_ = false;
      mark_refresh_stalls(rank, refresh_->start(rank));
    }
  }
}

DdrChannelController::Choice DdrChannelController::choose(uint64_t limit) {
  // Unchanged state gives the same choice, unless a refresh deadline it left undecided
  // now falls before it.
  if (choice_valid_ && choice_deadline_ > std::min(choice_.cycle, limit)) return choice_;
  for (;;) {
    update_write_mode();
    collect_candidates();
    Choice best;
    if (candidate_count_ > 0) {
      best.candidate = scheduler_->pick(candidates_.data(), candidate_count_);
      best.cycle = candidates_[best.candidate].ready;
    }
    const DdrRefresh& refresh = *refresh_;
    for (uint32_t rank = 0; refresh.refreshing() > 0 && rank < refresh.ranks(); ++rank) {
      const Choice rc = refresh_choice(rank);
      if (rc.cycle <= best.cycle && rc.cycle != UINT64_MAX) best = rc;
    }
    // A refresh falling due before the chosen command is decided first.
    const uint64_t horizon = std::min(best.cycle, limit);
    bool changed = false;
    uint64_t deadline = UINT64_MAX;
    for (const DdrRankRefresh& r : refresh.schedules()) {
      if (r.under_way()) continue;
      if (r.due <= horizon || (r.postponed > 0 && r.queued == 0)) changed = true;
      deadline = std::min(deadline, r.due);
    }
    if (!changed || horizon == UINT64_MAX) {
      choice_valid_ = true;
      choice_ = best;
      choice_deadline_ = deadline;
      return best;
    }
    update_refresh(std::max(now_, horizon));
  }
}

bool DdrChannelController::auto_precharge(const Entry& e) const {
  // The row opened for another request stays open until that request has been served.
  const int32_t activated = banks_[e.bank].activated;
  if (activated != kNone && &entries_[activated] != &e) return false;
  if (!page_asks_queue_) return precharge_[false];
  const BankQueue& q = banks_[e.bank];
  for (int dir : {kRead, kWrite}) {
    for (int32_t i = q.head[dir]; i != kNone; i = entries_[i].next) {
      if (&entries_[i] != &e && entries_[i].row == e.row) return precharge_[true];
    }
  }
  return precharge_[false];
}

void DdrChannelController::issue_request(const DdrCandidate& c, uint64_t cycle) {
  const int32_t e = c.entry;
  Entry& entry = entries_[e];
  BankQueue& q = banks_[c.bank];
  // A write belongs to the drain its first command issued in (an activated one may be
  // written after the drain has ended).
  if (entry.is_write && !entry.started && write_mode_) ++drain_writes_;
  if (c.column) {
    if (!entry.started) entry.outcome = DdrOutcome::kHit;
    entry.started = true;
    q.stale = true;
    const uint64_t done = device_.column(c.bank, entry.is_write, auto_precharge(entry), cycle);
    if (q.activated == e) {
      q.activated = kNone;
      activated_mask_ &= ~(uint64_t{1} << c.bank);
      --activated_[entry.is_write ? kWrite : kRead];
    }
    // Older requests of the bank, same direction, have been overtaken.
    for (int32_t p = entry.prev; p != kNone; p = entries_[p].prev) {
      ++entries_[p].bypassed;
      ++stats_.bypasses;
    }
    finish_entry(e, done);
  } else if (device_.open_row(c.bank) != DdrDeviceTiming::kClosed) {
    q.stale = true;
    device_.precharge(c.bank, cycle);
    if (!entry.started) entry.outcome = DdrOutcome::kConflict;
    entry.started = true;
  } else {
    q.stale = true;
    device_.activate(c.bank, entry.row, cycle);
    if (!entry.started) entry.outcome = DdrOutcome::kMiss;
    entry.started = true;
    q.activated = e;
    activated_mask_ |= uint64_t{1} << c.bank;
    ++activated_[entry.is_write ? kWrite : kRead];
  }
}

void DdrChannelController::issue(const Choice& choice) {
  const uint64_t cycle = choice.cycle;
  choice_valid_ = false;
  now_ = cycle;
  switch (choice.kind) {
    case Kind::kRequest:
      issue_request(candidates_[choice.candidate], cycle);
      break;
    case Kind::kRefresh: {
      DdrRefreshCommand command;
      command.kind = choice.refresh;
      command.cycle = cycle;
      command.bank = choice.bank;
      const uint64_t end = refresh_->issue(choice.rank, command, cycle);
      if (command.kind == DdrRefreshCommand::Kind::kPrecharge) {
        banks_[command.bank].stale = true;
      } else {
        mark_rank_stale(choice.rank);
      }
      last_event_ = std::max(last_event_, end);
      break;
    }
  }
  now_ = cycle + 1;  // one command per cycle
}

void DdrChannelController::idle_refreshes(uint32_t rank, uint64_t cycle) {
  const DdrRankRefresh& r = refresh_->rank(rank);
  for (;;) {
    if (!r.under_way()) {
      // Refreshes of an idle rank that start on time, counted at once (the mode's closed
      // form; O(bank sets), not O(refreshes)). Only when one fell due and none is owed: the
      // common case, nothing due, costs no call (this runs for every request).
      DdrRefreshBatch batch;
      if (r.postponed == 0 && r.due < cycle && refresh_->catch_up_idle(rank, cycle, now_, batch)) {
        mark_rank_stale(rank);
        choice_valid_ = false;
        last_event_ = std::max(last_event_, batch.end);
        now_ = std::max(now_, batch.last_command + 1);
        continue;
      }
      update_refresh(cycle > 0 ? cycle - 1 : 0);
      if (!r.under_way()) return;
    }
    const Choice c = refresh_choice(rank);
    if (c.cycle >= cycle) return;
    issue(c);
  }
}

}  // namespace socsim
