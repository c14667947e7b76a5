#include "models/ddr/ddr_timing.h"

#include <algorithm>
#include <cmath>

#include "models/ddr/controller/ddr_direct_path.h"

namespace socsim {

DdrTiming::DdrTiming(const DdrConfig& config)
    : config_(config),
      decoder_(config.mapping),
      stats_(config),
      energy_(config),
      tck_fs_(static_cast<uint64_t>(std::llround(config.tck_ps * 1000.0))),
      tck_ps_whole_(tck_fs_ % 1000 == 0 ? tck_fs_ / 1000 : 0),
      burst_bytes_(config.geometry.burst_bytes()),
      banks_per_channel_(config.geometry.banks_per_channel()),
      ideal_latency_ps_(static_cast<uint64_t>(std::llround(config.ideal_latency_ns * 1000.0))) {
  stats_.initiator(0);
  if (config_.model == DdrModelKind::kIdeal) return;
  for (uint32_t ch = 0; ch < config_.geometry.channels; ++ch) {
    channels_.push_back(std::make_unique<DdrChannelController>(
        config_, ch, static_cast<DdrBurstSink&>(*this), stats_.controller(ch)));
  }
}

DdrTiming::~DdrTiming() = default;

uint64_t DdrTiming::cycle_to_ps_wide(uint64_t cycle) const {
  const unsigned __int128 fs = static_cast<unsigned __int128>(cycle) * tck_fs_;
  return static_cast<uint64_t>(fs / 1000);
}

uint64_t DdrTiming::ps_to_cycle_ceil_wide(uint64_t ps) const {
  const unsigned __int128 fs = static_cast<unsigned __int128>(ps) * 1000;
  return static_cast<uint64_t>((fs + tck_fs_ - 1) / tck_fs_);
}

// ---- requests ------------------------------------------------------------------------------

int32_t DdrTiming::new_request(bool is_write, uint32_t bytes, int initiator, bool blocking) {
  int32_t id = free_request_;
  if (id < 0) {
    id = static_cast<int32_t>(requests_.size());
    requests_.emplace_back();
  } else {
    free_request_ = requests_[id].next_free;
  }
  Request& r = requests_[id];
  r = Request{};
  r.bytes = bytes;
  r.initiator = initiator;
  r.is_write = is_write;
  r.blocking = blocking;
  return id;
}

int32_t DdrTiming::start(uint64_t arrival_ps, bool is_write, uint64_t addr, uint32_t bytes,
                         int initiator, bool blocking, bool serve_now) {
  const int32_t id = new_request(is_write, bytes, initiator, blocking);
  const uint64_t end = addr + std::max<uint32_t>(bytes, 1);
  const uint64_t first = addr & ~uint64_t{burst_bytes_ - 1};
  const uint32_t bursts = static_cast<uint32_t>((end - first + burst_bytes_ - 1) / burst_bytes_);
  requests_[id].bursts = bursts;
  requests_[id].remaining = bursts;  // before any burst can complete
  // A burst is served alone if no other burst of the request goes to its channel, or the
  // other one reads the same row of the same bank right after it (then it follows).
  uint32_t followers = 0;
  if (serve_now && bursts == 2) {
    const DdrLocation a = decoder_.decode(first), b = decoder_.decode(first + burst_bytes_);
    if (a.channel == b.channel) {
      followers = 1;
      serve_now =
          a.rank == b.rank && a.bank_group == b.bank_group && a.bank == b.bank && a.row == b.row;
    }
  }
  serve_now = serve_now && bursts <= 2;
  // The bursts enter their queues in address order; a full queue holds the rest back.
  uint64_t at = ps_to_cycle_ceil(arrival_ps);
  bool first_burst = true;
  for (uint64_t line = first; line < end; line += burst_bytes_) {
    const DdrLocation loc = decoder_.decode(line);
    DdrChannelController& ch = *channels_[loc.channel];
    DdrBurstRequest b;
    b.request = static_cast<uint32_t>(id);
    b.bank = ch.device().bank_index(loc.rank, loc.bank_group, loc.bank);
    b.row = loc.row;
    b.line = line;
    b.bytes = static_cast<uint32_t>(std::min(end, line + burst_bytes_) - std::max(addr, line));
    b.is_write = is_write;
    ch.run_until(at);
    if (!ch.has_room(is_write)) {
      ++stats_.controller(loc.channel).queue_full_waits;
      while (!ch.has_room(is_write)) ch.step();
      at = std::max(at, ch.now());
    }
    Request& r = requests_[id];
    if (first_burst) r.accept_cycle = at;
    first_burst = false;
    r.last_accept = at;
    ++r.pending[loc.channel];
    // Either may complete the burst at once (forwarding, coalescing, served alone).
    if (!serve_now || !DdrDirectPath(ch).serve_alone(b, at, followers)) {
      ch.enqueue(b, at);
      serve_now = false;  // what follows it is queued behind it
    }
    followers = 0;
  }
  return id;
}

DdrTiming::Alone DdrTiming::read_alone(uint64_t arrival_ps, uint64_t addr, uint32_t bytes,
                                       int initiator, DdrResult& result) {
  const uint64_t end = addr + std::max<uint32_t>(bytes, 1);
  const uint64_t first = addr & ~uint64_t{burst_bytes_ - 1};
  const uint64_t second = first + burst_bytes_;
  if (end > second + burst_bytes_) return Alone::kNotTried;
  const bool two = end > second;
  const DdrLocation a = decoder_.decode(first);
  DdrChannelController& ch = *channels_[a.channel];
  DdrBurstRequest burst[2];
  burst[0].bank = ch.device().bank_index(a.rank, a.bank_group, a.bank);
  burst[0].row = a.row;
  burst[0].line = first;
  burst[0].bytes = static_cast<uint32_t>(std::min(end, second) - addr);
  // The second burst in the same row of the same bank follows the first; in another bank
  // of the channel, the scheduler orders the two.
  bool same_bank = true;
  if (two) {
    burst[1] = burst[0];
    burst[1].line = second;
    burst[1].bytes = static_cast<uint32_t>(end - second);
    if (!decoder_.same_row(first, second)) {
      const DdrLocation b = decoder_.decode(second);
      if (b.channel != a.channel) return Alone::kNotTried;
      burst[1].bank = ch.device().bank_index(b.rank, b.bank_group, b.bank);
      burst[1].row = b.row;
      same_bank = false;
    }
  }
  const uint64_t at = ps_to_cycle_ceil(arrival_ps);
  ch.run_until(at);
  if (!ch.has_room(false)) return Alone::kNotTried;
  // Row hits go first (exact refresh test); then misses and conflicts (a bound on it).
  DdrBurstDone done[2];
  const uint32_t count = two ? 2 : 1;
  int lead = 0;  // the burst served first
  uint32_t served = DdrDirectPath(ch).serve_hits_alone(burst, count, same_bank, at, done, lead);
  if (served == 0) {
    if (!DdrDirectPath(ch).serve_reads_alone(burst, count, at, done)) return Alone::kDeclined;
    served = count;
  }
  if (served < count) {
    const int32_t id = new_request(false, bytes, initiator, /*blocking=*/true);
    Request& r = requests_[id];
    r.bursts = count;
    r.accept_cycle = at;
    r.last_accept = at;
    account(r, done[0]);
    r.remaining = 1;
    r.pending[a.channel] = 1;
    DdrBurstRequest queued = burst[1 - lead];
    queued.request = static_cast<uint32_t>(id);
    ch.enqueue(queued, at);
    result = complete_blocking(id, arrival_ps, false);
    return Alone::kServed;
  }
  // account() for each burst, record() and result_of() in one (the same books: a change to
  // them is a change here): every burst was accepted at `at`, and a read's data comes after
  // its acceptance, so each time is converted once. The direct paths serve hits, misses and
  // conflicts only (an idle channel has no queued write to forward from or coalesce with).
  const uint64_t at_ps = cycle_to_ps(at);
  uint64_t done_cycle = 0, done_ps = 0;
  uint32_t outcomes[3] = {0, 0, 0};  // hits, misses, conflicts
  bool refresh_stall = false;
  for (uint32_t i = 0; i < served; ++i) {
    const DdrBurstDone& d = done[i];
    const uint64_t burst_done_ps =
        cycle_to_ps(d.done_cycle > d.accept_cycle ? d.done_cycle : d.accept_cycle);
    DdrCounters& bank = stats_.bank(d.channel * banks_per_channel_ + d.bank);
    bank.record(false, d.bytes, d.accept_cycle == at ? at_ps : cycle_to_ps(d.accept_cycle),
                burst_done_ps);
    bank.refresh_stalls += d.refresh_stall;
    refresh_stall |= d.refresh_stall;
    const uint32_t kind = d.outcome == DdrOutcome::kHit    ? 0
                          : d.outcome == DdrOutcome::kMiss ? 1
                                                           : 2;
    ++outcomes[kind];
    ++(kind == 0 ? bank.row_hits : kind == 1 ? bank.row_misses : bank.row_conflicts);
    if (d.done_cycle >= done_cycle) {
      done_cycle = d.done_cycle;
      done_ps = d.done_cycle >= d.accept_cycle ? burst_done_ps : cycle_to_ps(d.done_cycle);
    }
  }
  DdrCounters& c = stats_.initiator(initiator);
  c.record(false, bytes, at_ps, std::max(done_ps, at_ps));
  c.row_hits += outcomes[0];
  c.row_misses += outcomes[1];
  c.row_conflicts += outcomes[2];
  c.refresh_stalls += refresh_stall ? 1 : 0;
  result.bursts = count;
  result.row_hits = outcomes[0];
  result.row_misses = outcomes[1];
  result.row_conflicts = outcomes[2];
  result.forwarded = 0;
  result.refresh_stall = refresh_stall;
  result.done_ps = std::max(arrival_ps, done_ps);
  return Alone::kServed;
}

void DdrTiming::release(int32_t id) {
  requests_[id].next_free = free_request_;
  free_request_ = id;
}

// record() and account(): the books of a request and of each of its bursts; read_alone()
// keeps the same ones for a read served at once in a pass of its own.
void DdrTiming::record(const Request& r) {
  const uint64_t accept_ps = cycle_to_ps(r.accept_cycle);
  const uint64_t done_ps = std::max(cycle_to_ps(r.done_cycle), accept_ps);
  DdrCounters& c = stats_.initiator(r.initiator);
  c.record(r.is_write, r.bytes, accept_ps, done_ps);
  c.row_hits += r.hits;
  c.row_misses += r.misses;
  c.row_conflicts += r.conflicts;
  c.forwarded += r.forwarded;
  c.coalesced += r.coalesced;
  c.refresh_stalls += r.refresh_stall ? 1 : 0;
}

void DdrTiming::account(Request& r, const DdrBurstDone& done) {
  r.done_cycle = std::max(r.done_cycle, done.done_cycle);
  r.refresh_stall |= done.refresh_stall;
  if (done.outcome == DdrOutcome::kForwarded) {
    ++r.forwarded;
    return;
  }
  if (done.outcome == DdrOutcome::kCoalesced) {
    ++r.coalesced;
    return;
  }
  DdrCounters& bank = stats_.bank(done.channel * banks_per_channel_ + done.bank);
  bank.record(done.is_write, done.bytes, cycle_to_ps(done.accept_cycle),
              cycle_to_ps(std::max(done.done_cycle, done.accept_cycle)));
  bank.refresh_stalls += done.refresh_stall;
  if (done.outcome == DdrOutcome::kHit) {
    ++r.hits;
    ++bank.row_hits;
  } else if (done.outcome == DdrOutcome::kMiss) {
    ++r.misses;
    ++bank.row_misses;
  } else {
    ++r.conflicts;
    ++bank.row_conflicts;
  }
}

void DdrTiming::burst_done(const DdrBurstDone& done) {
  Request& r = requests_[done.request];
  account(r, done);
  --r.pending[done.channel];
  if (--r.remaining > 0) return;
  record(r);
  if (!r.blocking) release(static_cast<int32_t>(done.request));
}

// ---- the two ways in -----------------------------------------------------------------------

DdrResult DdrTiming::access(uint64_t arrival_ps, bool is_write, uint64_t addr, uint32_t bytes,
                            int initiator) {
  if (config_.model == DdrModelKind::kIdeal) {
    return access_ideal(arrival_ps, is_write, bytes, initiator);
  }
  bool serve_now = !is_write;
  if (serve_now) {
    DdrResult result;
    const Alone alone = read_alone(arrival_ps, addr, bytes, initiator, result);
    if (alone == Alone::kServed) return result;
    // Declined, start() would try the same first burst again and queue the rest.
    serve_now = alone == Alone::kNotTried;
  }
  const int32_t id =
      start(arrival_ps, is_write, addr, bytes, initiator, /*blocking=*/true, serve_now);
  return complete_blocking(id, arrival_ps, is_write);
}

DdrResult DdrTiming::complete_blocking(int32_t id, uint64_t arrival_ps, bool is_write) {
  if (!is_write) {
    for (uint32_t ch = 0; ch < channels_.size(); ++ch) {
      while (requests_[id].pending[ch] > 0) channels_[ch]->step();
    }
  }
  const Request& r = requests_[id];
  DdrResult result;
  if (is_write) {
    result.bursts = r.bursts;
    result.done_ps = std::max(arrival_ps, cycle_to_ps(r.last_accept));
  } else {
    result = result_of(r, arrival_ps, cycle_to_ps(r.done_cycle));
  }
  if (r.remaining == 0) {
    release(id);
  } else {
    requests_[id].blocking = false;  // a posted write: freed when its bursts are written
  }
  return result;
}

DdrResult DdrTiming::result_of(const Request& r, uint64_t arrival_ps, uint64_t done_cycle_ps) {
  DdrResult result;
  result.bursts = r.bursts;
  result.row_hits = r.hits;
  result.row_misses = r.misses;
  result.row_conflicts = r.conflicts;
  result.forwarded = r.forwarded;
  result.refresh_stall = r.refresh_stall;
  result.done_ps = std::max(arrival_ps, done_cycle_ps);
  return result;
}

uint64_t DdrTiming::submit(uint64_t arrival_ps, bool is_write, uint64_t addr, uint32_t bytes,
                           int initiator) {
  if (config_.model == DdrModelKind::kIdeal) {
    access_ideal(arrival_ps, is_write, bytes, initiator);
    return arrival_ps;
  }
  const int32_t id =
      start(arrival_ps, is_write, addr, bytes, initiator, /*blocking=*/true, /*serve_now=*/false);
  const uint64_t accepted = std::max(arrival_ps, cycle_to_ps(requests_[id].last_accept));
  if (requests_[id].remaining == 0) {
    release(id);
  } else {
    requests_[id].blocking = false;
  }
  return accepted;
}

void DdrTiming::finish() {
  if (config_.model == DdrModelKind::kIdeal) return;
  uint64_t span = 0;
  for (auto& ch : channels_) {
    while (ch->step()) {
    }
    ch->catch_up();
    span = std::max({span, ch->last_event(), ch->now()});
  }
  // Every channel is brought to the same end, refreshes included, and measured over it.
  std::vector<uint64_t> rank_cycles, group_cycles;
  DdrEnergy total;
  std::vector<DdrEnergy> per_rank;
  for (auto& ch : channels_) {
    ch->run_until(span);
    ch->settle(span);
    const DdrDeviceTiming& d = ch->device();
    rank_cycles.insert(rank_cycles.end(), d.rank_bus_cycles().begin(), d.rank_bus_cycles().end());
    group_cycles.insert(group_cycles.end(), d.group_bus_cycles().begin(),
                        d.group_bus_cycles().end());
    for (uint32_t r = 0; r < d.ranks(); ++r) {
      per_rank.push_back(energy_.energy(d.activity(r), span));
      total += per_rank.back();
    }
  }
  stats_.set_utilisation(std::move(rank_cycles), std::move(group_cycles), span);
  if (energy_.enabled()) stats_.set_energy(total, std::move(per_rank));
}

std::optional<DdrEnergyRates> DdrTiming::energy_rates(const std::string& initiator) const {
  if (!stats_.has_energy()) return std::nullopt;
  const auto& names = stats_.initiator_names();
  const auto it = std::find(names.begin(), names.end(), initiator);
  if (it == names.end()) return std::nullopt;
  const DdrCounters& c = stats_.initiators()[it - names.begin()];
  if (c.bytes() == 0) return std::nullopt;
  DdrEnergyRates rates;
  const double activates = static_cast<double>(c.row_misses + c.row_conflicts);
  const double activate_per_byte = activates * energy_.activate_pj() / c.bytes();
  rates.read_pj_per_byte = energy_.read_burst_pj() / burst_bytes_ + activate_per_byte;
  rates.write_pj_per_byte = energy_.write_burst_pj() / burst_bytes_ + activate_per_byte;
  const double span_ns = stats_.span_cycles() * config_.tck_ps / 1000.0;
  const DdrEnergy& e = stats_.energy();
  rates.static_mw = span_ns > 0 ? (e.background_pj + e.refresh_pj) / span_ns : 0.0;
  return rates;
}

DdrResult DdrTiming::access_ideal(uint64_t arrival_ps, bool is_write, uint32_t bytes,
                                  int initiator) {
  DdrResult result;
  result.done_ps = arrival_ps + ideal_latency_ps_;
  result.bursts = 1;
  for (DdrCounters* c : {&stats_.initiator(initiator), &stats_.bank(0)}) {
    c->record(is_write, bytes, arrival_ps, result.done_ps);
  }
  return result;
}

}  // namespace socsim
