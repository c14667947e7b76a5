// The memory controller's policies: each scheduler decision, the bypass cap, write drains
// at the watermarks, forwarding and coalescing, page policies, ranks, per-bank refresh and
// refresh postponing. Exact cycles where the device timing makes them exact.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "models/ddr/controller/ddr_direct_path.h"
#include "models/ddr/controller/fcfs_scheduler.h"
#include "models/ddr/controller/frfcfs_scheduler.h"
#include "models/ddr/ddr_timing.h"
#include "models/ddr/test/ddr_test_util.h"
#include "platform/report/ddr_report.h"

namespace socsim {
namespace {

using test::ddr4_3200;
using test::ddr4_addr;

constexpr uint64_t kTckPs = 625;  // DDR4-3200
constexpr uint64_t kUs = 1'000'000;
constexpr uint64_t kCl = 22, kCwl = 16, kRcd = 22, kRp = 22, kBurst = 4;

DdrCandidate candidate(uint64_t ready, uint64_t seq, bool column, bool oldest = true,
                       uint32_t head_bypassed = 0, bool activated = false) {
  DdrCandidate c;
  c.ready = ready;
  c.seq = seq;
  c.column = column;
  c.oldest_in_bank = oldest;
  c.head_bypassed = head_bypassed;
  c.activated = activated;
  return c;
}

// ---- scheduler decisions on their own -----------------------------------------------------

TEST(FrFcfsScheduler, FirstReadyThenActivatedThenOldest) {
  const FrFcfsScheduler s(16);
  // The command the device accepts first wins, even an older miss against a younger hit.
  std::vector<DdrCandidate> c = {candidate(10, 5, true), candidate(8, 9, false)};
  EXPECT_EQ(s.pick(c.data(), c.size()), 1u);
  // Ready at the same cycle: the older, a precharge or activate before a younger row hit
  // (Ramulator 2's FRFCFS: readiness, then arrival).
  c = {candidate(10, 5, false), candidate(10, 9, true)};
  EXPECT_EQ(s.pick(c.data(), c.size()), 0u);
  // ... except that a request whose row was opened for it goes before the others (Ramulator
  // serves its active buffer first).
  c = {candidate(10, 5, false), candidate(10, 9, true, true, 0, /*activated=*/true)};
  EXPECT_EQ(s.pick(c.data(), c.size()), 1u);
  // Both hits: the older.
  c = {candidate(10, 9, true), candidate(10, 5, true)};
  EXPECT_EQ(s.pick(c.data(), c.size()), 1u);
}

TEST(FrFcfsScheduler, CapHoldsBackYoungerRequestsOfAStarvedBank) {
  // A bank whose oldest request has been overtaken `cap` times offers only that request
  // (and an activated one): the younger hit is not eligible any more.
  std::vector<DdrCandidate> c = {candidate(5, 20, true, /*oldest=*/false, /*bypassed=*/4),
                                 candidate(30, 3, false, /*oldest=*/true, /*bypassed=*/4)};
  EXPECT_EQ(FrFcfsScheduler(4).pick(c.data(), c.size()), 1u);
  EXPECT_EQ(FrFcfsScheduler(5).pick(c.data(), c.size()), 0u);
  EXPECT_EQ(FrFcfsScheduler(0).pick(c.data(), c.size()), 0u);  // no cap
  c[0].activated = true;
  EXPECT_EQ(FrFcfsScheduler(4).pick(c.data(), c.size()), 0u);
}

TEST(FcfsScheduler, OldestFirstExceptAnActivatedRequestReadyNoLater) {
  const FcfsScheduler s;
  // The oldest request goes first, even when a younger one is ready much earlier.
  std::vector<DdrCandidate> c = {candidate(5, 9, true), candidate(40, 2, false)};
  EXPECT_EQ(s.pick(c.data(), c.size()), 1u);
  // A request whose row was opened for it finishes first if it can issue no later.
  c = {candidate(40, 2, false), candidate(30, 1, true, true, 0, /*activated=*/true)};
  EXPECT_EQ(s.pick(c.data(), c.size()), 1u);
  c[1].ready = 50;
  EXPECT_EQ(s.pick(c.data(), c.size()), 0u);
}

// ---- the controller -----------------------------------------------------------------------

DdrConfig with_scheduler(DdrSchedulerKind kind, uint32_t cap = 16) {
  DdrConfig c = ddr4_3200();
  c.controller.scheduler = kind;
  c.controller.bypass_cap = cap;
  return c;
}

// Completion of each initiator's single request, queued at `at` in order.
struct Queued {
  bool is_write;
  uint64_t addr;
};
std::vector<uint64_t> done_times(DdrTiming& ddr, uint64_t at, const std::vector<Queued>& requests) {
  for (size_t i = 0; i < requests.size(); ++i) {
    ddr.submit(at, requests[i].is_write, requests[i].addr, 64, static_cast<int>(i));
  }
  ddr.finish();
  std::vector<uint64_t> done;
  for (size_t i = 0; i < requests.size(); ++i) {
    done.push_back(ddr.stats().initiators()[i].last_done_ps);
  }
  return done;
}

TEST(DdrController, SchedulersServeTheOlderOfTwoRequestsReadyTogether) {
  for (DdrSchedulerKind kind : {DdrSchedulerKind::kFrFcfs, DdrSchedulerKind::kFcfs}) {
    DdrTiming ddr(with_scheduler(kind));
    ddr.access(0, false, ddr4_addr(0, 0, 1, 0), 64);  // row 1 open, the bank idle
    // The older request wants row 2 of the bank, the younger hits row 1: the precharge and
    // the read are ready at once, so both schedulers serve the older first.
    const std::vector<uint64_t> done =
        done_times(ddr, 1 * kUs, {{false, ddr4_addr(0, 0, 2, 0)}, {false, ddr4_addr(0, 0, 1, 5)}});
    const uint64_t t = 1 * kUs;
    EXPECT_EQ(done[0], t + (kRp + kRcd + kCl + kBurst) * kTckPs);
    EXPECT_GT(done[1], done[0] + (kRp + kRcd) * kTckPs);  // it has lost its row
    EXPECT_EQ(ddr.stats().controllers()[0].bypassed_requests, 0u);
  }
}

TEST(DdrController, FrFcfsServesARowHitReadyBeforeAnOlderConflict) {
  for (DdrSchedulerKind kind : {DdrSchedulerKind::kFrFcfs, DdrSchedulerKind::kFcfs}) {
    DdrTiming ddr(with_scheduler(kind));
    ddr.access(0, false, ddr4_addr(0, 0, 1, 0), 64);  // row 1 open
    // A hit, a conflict, a hit: after the first hit's read the second hit is ready tCCD_L
    // (8) later, the conflict's precharge tRTP (12) later.
    const std::vector<uint64_t> done = done_times(ddr, 1 * kUs,
                                                  {{false, ddr4_addr(0, 0, 1, 1)},
                                                   {false, ddr4_addr(0, 0, 2, 0)},
                                                   {false, ddr4_addr(0, 0, 1, 5)}});
    const uint64_t t = 1 * kUs;
    EXPECT_EQ(done[0], t + (kCl + kBurst) * kTckPs);
    if (kind == DdrSchedulerKind::kFrFcfs) {
      // The younger hit first; the precharge then waits tRTP after its read.
      EXPECT_EQ(done[2], t + (8 + kCl + kBurst) * kTckPs);
      EXPECT_EQ(done[1], t + (8 + 12 + kRp + kRcd + kCl + kBurst) * kTckPs);
      EXPECT_EQ(ddr.stats().controllers()[0].bypassed_requests, 1u);
    } else {
      // In order: precharge tRTP after the first read, activate, read; the last hit has lost
      // its row.
      EXPECT_EQ(done[1], t + (12 + kRp + kRcd + kCl + kBurst) * kTckPs);
      EXPECT_GT(done[2], done[1] + (kRp + kRcd) * kTckPs);
      EXPECT_EQ(ddr.stats().controllers()[0].bypassed_requests, 0u);
    }
  }
}

TEST(DdrController, FrFcfsPrechargesForAYoungerRequestReadyBeforeAnOlderHit) {
  // Rows open in bank 0 of bank groups 1 (row 3) and 0 (row 1). A hit in group 1, then a hit
  // and a younger conflict in group 0: after the first read the older hit must wait tCCD_S
  // (4), while the conflict's precharge can issue in the next cycle. FR-FCFS issues it there
  // (Ramulator 2 considers every queued request, not only a bank's oldest and its first hit):
  // the older hit loses its row, and as the oldest request of the closed bank it is then
  // activated first (not read tCCD_S after the first read, as a scheduler offering only the
  // oldest request and the first hit of each bank would).
  DdrTiming ddr(with_scheduler(DdrSchedulerKind::kFrFcfs));
  ddr.access(0, false, ddr4_addr(1, 0, 3, 0), 64);
  ddr.access(0, false, ddr4_addr(0, 0, 1, 0), 64);
  const std::vector<uint64_t> done = done_times(ddr, 1 * kUs,
                                                {{false, ddr4_addr(1, 0, 3, 1)},
                                                 {false, ddr4_addr(0, 0, 1, 1)},
                                                 {false, ddr4_addr(0, 0, 2, 0)}});
  const uint64_t t = 1 * kUs;
  EXPECT_EQ(done[0], t + (kCl + kBurst) * kTckPs);
  EXPECT_EQ(done[1], t + (1 + kRp + kRcd + kCl + kBurst) * kTckPs);
  EXPECT_GT(done[2], done[1] + (kRp + kRcd) * kTckPs);
}

TEST(DdrController, FcfsLetsNoRequestOvertakeAHitBehindTheActivatedOne) {
  // Two reads of one row, then a read in another bank group. The first opens the row; the
  // second, a hit waiting behind it, is the oldest request waiting and goes next (tCCD_L
  // after the first read); only then is the third's row opened, although its activate could
  // have issued tRRD_S after the first. (Ramulator 2's GenericDDR with an oldest-first
  // scheduler does the same: the second is the oldest request of its read buffer.)
  DdrTiming ddr(with_scheduler(DdrSchedulerKind::kFcfs));
  const std::vector<uint64_t> done = done_times(ddr, 1 * kUs,
                                                {{false, ddr4_addr(0, 0, 5, 0)},
                                                 {false, ddr4_addr(0, 0, 5, 1)},
                                                 {false, ddr4_addr(1, 0, 7, 0)}});
  const uint64_t t = 1 * kUs;
  EXPECT_EQ(done[0], t + (kRcd + kCl + kBurst) * kTckPs);
  EXPECT_EQ(done[1], t + (kRcd + 8 + kCl + kBurst) * kTckPs);
  EXPECT_EQ(done[2], t + (kRcd + 8 + 1 + kRcd + kCl + kBurst) * kTckPs);
}

// How many of the 20 younger row hits are served before the older conflicting request (a hit
// older than both is read first, so that the hits are ready before the precharge: tCCD_L 8
// after a read, tRTP 12).
size_t hits_before_conflict(uint32_t cap) {
  DdrTiming ddr(with_scheduler(DdrSchedulerKind::kFrFcfs, cap));
  ddr.access(0, false, ddr4_addr(0, 0, 1, 0), 64);
  std::vector<Queued> requests = {{false, ddr4_addr(0, 0, 1, 21)}, {false, ddr4_addr(0, 0, 2, 0)}};
  for (uint64_t col = 1; col <= 20; ++col) requests.push_back({false, ddr4_addr(0, 0, 1, col)});
  const std::vector<uint64_t> done = done_times(ddr, 1 * kUs, requests);
  size_t before = 0;
  for (size_t i = 2; i < done.size(); ++i) before += done[i] < done[1] ? 1 : 0;
  EXPECT_EQ(ddr.stats().controllers()[0].max_bypass, cap == 0 ? 20u : cap);
  return before;
}

TEST(DdrController, BypassCapStopsStarvation) {
  EXPECT_EQ(hits_before_conflict(0), 20u);  // no cap: every hit goes first
  EXPECT_EQ(hits_before_conflict(4), 4u);
  EXPECT_EQ(hits_before_conflict(16), 16u);
}

TEST(DdrController, WritesDrainFromTheHighToTheLowWatermark) {
  // 40 reads fill the read queue (32) and hold the front end back; then 26 writes: with 26
  // queued (> 0.8 x 32) a drain starts and writes go to the device until fewer than 0.2 x 32
  // are left in the queue (activated ones have left it and are written after the drain)
  // while reads wait; the rest drain when no read is left. Every write's first command
  // issues in one of the two drains.
  DdrTiming ddr(ddr4_3200());
  uint64_t front = 0;
  for (uint64_t i = 0; i < 40; ++i) {
    front = ddr.submit(front, false, ddr4_addr(i % 4, i / 4 % 4, i, 0), 64);
  }
  for (uint64_t i = 0; i < 26; ++i) {
    front = ddr.submit(front, true, ddr4_addr(i % 4, 2, 100 + i / 4, i), 64);
  }
  for (uint64_t i = 0; i < 40; ++i) {
    front = ddr.submit(front, false, ddr4_addr(i % 4, i / 4 % 4, 200 + i, 0), 64);
  }
  ddr.finish();
  const DdrControllerStats& c = ddr.stats().controllers()[0];
  EXPECT_EQ(c.max_write_queue, 26u);
  EXPECT_EQ(c.write_drains, 2u);
  EXPECT_EQ(c.watermark_drains, 1u);
  EXPECT_EQ(c.drained_writes, 26u);
  EXPECT_EQ(ddr.stats().total().writes, 26u);
}

TEST(DdrController, AnActivatedRequestLeavesItsQueue) {
  // A read queue of one entry: the second read is accepted as soon as the first one's row
  // has been activated (ACT at cycle 0, the next command slot at cycle 1), not when the first
  // read's column command issues (tRCD later): the first waits in its bank's active slot.
  DdrConfig config = ddr4_3200();
  config.controller.read_queue = 1;
  DdrTiming ddr(config);
  EXPECT_EQ(ddr.submit(0, false, ddr4_addr(0, 0, 5, 0), 64), 0u);
  EXPECT_EQ(ddr.submit(0, false, ddr4_addr(1, 0, 5, 0), 64), 1 * kTckPs);
  // The third waits for a queue entry: the second's activate, tRRD_S (4) after the first.
  EXPECT_EQ(ddr.submit(0, false, ddr4_addr(2, 0, 5, 0), 64), 5 * kTckPs);
  ddr.finish();
  EXPECT_EQ(ddr.stats().total().reads, 3u);
}

TEST(DdrController, ReadOfAQueuedWriteIsForwardedAndRewritesCoalesce) {
  DdrTiming ddr(ddr4_3200());
  const uint64_t line = ddr4_addr(1, 1, 7, 3);
  const std::vector<uint64_t> done =
      done_times(ddr, 1 * kUs, {{true, line}, {true, line}, {false, line}});
  // Queued together: the second write replaces the first, the read is answered from the
  // write queue one cycle after it arrived.
  EXPECT_EQ(done[1], 1 * kUs);
  EXPECT_EQ(done[2], 1 * kUs + kTckPs);
  const DdrControllerStats& c = ddr.stats().controllers()[0];
  EXPECT_EQ(c.coalesced_writes, 1u);
  EXPECT_EQ(c.forwarded_reads, 1u);
  // The device saw one write and no read.
  const DdrCounters& bank = ddr.stats().bank(1 * 4 + 1);
  EXPECT_EQ(bank.writes, 1u);
  EXPECT_EQ(bank.reads, 0u);
}

TEST(DdrController, ClosedPagePoliciesPrechargeAfterTheAccess) {
  auto second_latency = [](DdrPagePolicy policy, bool together) {
    DdrConfig config = ddr4_3200();
    config.controller.page_policy = policy;
    DdrTiming ddr(config);
    const uint64_t a = ddr4_addr(0, 0, 3, 0), b = ddr4_addr(0, 0, 3, 1);
    if (together) {
      const std::vector<uint64_t> done = done_times(ddr, 0, {{false, a}, {false, b}});
      return done[1];
    }
    ddr.access(0, false, a, 64);
    return ddr.access(1 * kUs, false, b, 64).done_ps - 1 * kUs;
  };
  // Open: the later read hits; closed: the bank was precharged, it misses.
  EXPECT_EQ(second_latency(DdrPagePolicy::kOpen, false), (kCl + kBurst) * kTckPs);
  EXPECT_EQ(second_latency(DdrPagePolicy::kClosed, false), (kRcd + kCl + kBurst) * kTckPs);
  EXPECT_EQ(second_latency(DdrPagePolicy::kClosedAdaptive, false), (kRcd + kCl + kBurst) * kTckPs);
  // Queued together, closed_adaptive keeps the row for the waiting hit (tCCD_L later);
  // closed precharges after the first read and opens the row again.
  EXPECT_EQ(second_latency(DdrPagePolicy::kClosedAdaptive, true),
            (kRcd + 8 + kCl + kBurst) * kTckPs);
  EXPECT_GT(second_latency(DdrPagePolicy::kClosed, true), (kRcd + 52 + kRp + kRcd) * kTckPs);
}

TEST(DdrController, RankSwitchCostsTheDataBusTrtrs) {
  DdrConfig config = ddr4_3200();
  config.geometry.ranks = 2;
  config.mapping.rank = {33};
  validate_ddr_config(config);
  DdrTiming ddr(config);
  const uint64_t rank1 = uint64_t{1} << 33;
  ddr.access(0, false, ddr4_addr(0, 0, 1, 0), 64);          // rank 0, group 0
  ddr.access(0, false, rank1 | ddr4_addr(0, 0, 1, 0), 64);  // rank 1, group 0
  ddr.access(0, false, ddr4_addr(1, 0, 1, 0), 64);          // rank 0, group 1
  const uint64_t t = 1 * kUs;
  // Row hits back to back: across ranks the second burst's data waits tRTRS (2) after the
  // first's; within a rank, other bank group, tCCD_S (4) apart.
  const DdrResult a = ddr.access(t, false, ddr4_addr(0, 0, 1, 1), 64);
  const DdrResult b = ddr.access(t, false, rank1 | ddr4_addr(0, 0, 1, 1), 64);
  EXPECT_EQ(b.done_ps - a.done_ps, (kBurst + 2) * kTckPs);
  const DdrResult c = ddr.access(2 * kUs, false, ddr4_addr(0, 0, 1, 2), 64);
  const DdrResult d = ddr.access(2 * kUs, false, ddr4_addr(1, 0, 1, 2), 64);
  EXPECT_EQ(d.done_ps - c.done_ps, 4 * kTckPs);
  ddr.finish();
  EXPECT_GT(ddr.stats().rank_utilisation(1), 0.0);
  EXPECT_EQ(ddr_stats_json(ddr.stats())["ranks"].size(), 2u);
}

TEST(DdrController, PerBankRefreshBlocksOneBankForTrfcpb) {
  DdrConfig config = test::lpddr4x_4266();
  config.controller.refresh = DdrRefreshMode::kPerBank;
  const DdrTimingParams& t = config.timing;
  const uint64_t due_ps = t.t_refi_pb * 468750 / 1000;  // the first REFpb, to bank 0
  // 32-byte reads (one burst) of rows in bank 0 (refreshed then) and bank 1 (not).
  const uint64_t bank0 = 0, bank1 = 1 << 13;
  auto latency_at_refresh = [&](uint64_t addr) {
    DdrTiming ddr(config);
    const DdrResult r = ddr.access(due_ps, false, addr, 32);
    EXPECT_TRUE(ddr.stats().controllers()[0].bank_refreshes == 1);
    return ddr.ps_to_cycle_ceil(r.done_ps) - ddr.ps_to_cycle_ceil(due_ps);
  };
  const uint64_t burst = 8;
  // Bank 0 waits for its refresh; bank 1 only for tPBR2ACT after it.
  EXPECT_EQ(latency_at_refresh(bank0), t.t_rfc_pb + t.t_rcd + t.cl + burst);
  EXPECT_EQ(latency_at_refresh(bank1), t.t_pbr2act + t.t_rcd + t.cl + burst);
  // Idle for 9 intervals: one REFpb each, round robin over the eight banks; no REFab.
  DdrTiming idle(config);
  idle.access(9 * due_ps + 1000, false, bank1, 32);
  EXPECT_EQ(idle.stats().controllers()[0].bank_refreshes, 9u);
  EXPECT_EQ(idle.stats().controllers()[0].refreshes, 0u);
}

TEST(DdrController, RefreshesArePostponedUpToTheLimitWhileRequestsWait) {
  auto run = [](uint32_t postpone) {
    DdrConfig config = ddr4_3200();
    config.controller.refresh_postpone = postpone;
    DdrTiming ddr(config);
    test::stream(ddr, (4ull << 20) * 20 / 10);  // about 20 tREFI of streaming reads
    return ddr.stats();
  };
  const DdrStats on_time = run(0), postponed = run(8);
  const uint64_t refis = on_time.controllers()[0].refreshes;
  EXPECT_GE(refis, 15u);
  EXPECT_EQ(on_time.controllers()[0].postponed_refreshes, 0u);
  // With the queue never empty, the first eight deadlines are put off, the ninth refresh
  // goes out on time; finish() catches up on the owed ones, so the count stays the same.
  EXPECT_EQ(postponed.controllers()[0].postponed_refreshes, 8u);
  EXPECT_NEAR(static_cast<double>(postponed.controllers()[0].refreshes), static_cast<double>(refis),
              1.0);
  EXPECT_LT(postponed.total().refresh_stalls, on_time.total().refresh_stalls);
}

// ---- a blocking read served alone ----------------------------------------------------------

struct RecordingSink : DdrBurstSink {
  std::vector<DdrBurstDone> done;
  void burst_done(const DdrBurstDone& d) override { done.push_back(d); }
};

bool same(const DdrBurstDone& a, const DdrBurstDone& b) {
  return a.request == b.request && a.bank == b.bank && a.accept_cycle == b.accept_cycle &&
         a.done_cycle == b.done_cycle && a.bytes == b.bytes && a.outcome == b.outcome &&
         a.refresh_stall == b.refresh_stall;
}

// Two controllers of one configuration fed the same bursts: `fast` may serve them alone
// (the test decides), `queued` always takes them through its queue.
struct TwinControllers {
  explicit TwinControllers(const DdrConfig& config)
      : fast(config, 0, fast_sink, stats_fast), queued(config, 0, queued_sink, stats_queued) {}

  void run_until(uint64_t at) {
    fast.run_until(at);
    queued.run_until(at);
  }

  // What serve_read() did with a read.
  struct Served {
    uint32_t hits = 0;        // bursts served alone as row hits (serve_hits_alone)
    int lead = 0;             // which of the two went first
    bool misses = false;      // served alone as misses or conflicts (serve_reads_alone)
    uint32_t first_bank = 0;  // then: the bank of the burst that finished first
    bool same_now = false;    // both controllers at the same cycle afterwards
  };
  // One read of `count` bursts b[0..count) accepted at `at`: through `fast` the way
  // DdrTiming::read_alone takes it (row hits alone, the rest of the read queued if the
  // second declines; else misses and conflicts alone; else the queue), through `queued`
  // the queue; both drained.
  Served serve_read(const DdrBurstRequest (&b)[2], uint32_t count, bool same_bank, uint64_t at) {
    run_until(at);
    Served s;
    DdrBurstDone done[2];
    s.hits = DdrDirectPath(fast).serve_hits_alone(b, count, same_bank, at, done, s.lead);
    for (uint32_t k = 0; k < s.hits; ++k) fast_sink.burst_done(done[k]);
    if (s.hits == 1 && count == 2) {
      fast.enqueue(b[1 - s.lead], at);
    } else if (s.hits == 0 && DdrDirectPath(fast).serve_reads_alone(b, count, at, done)) {
      for (uint32_t k = 0; k < count; ++k) fast_sink.burst_done(done[k]);
      s.misses = true;
      s.first_bank = done[0].bank;
    } else if (s.hits == 0) {
      for (uint32_t k = 0; k < count; ++k) fast.enqueue(b[k], at);
    }
    finish(b, count, at);
    s.same_now = fast.now() == queued.now();
    return s;
  }

  // Drains what `fast` queued of bursts b[0..n) and passes the same bursts through `queued`.
  void finish(const DdrBurstRequest* b, size_t n, uint64_t at) {
    while (fast.step()) {
    }
    for (size_t k = 0; k < n; ++k) queued.enqueue(b[k], at);
    while (queued.step()) {
    }
  }

  // The same completions, refresh and queue counters and energy books.
  void expect_same_books(uint64_t at) {
    fast.settle(at);
    queued.settle(at);
    ASSERT_EQ(fast_sink.done.size(), queued_sink.done.size());
    for (size_t i = 0; i < fast_sink.done.size(); ++i) {
      EXPECT_TRUE(same(fast_sink.done[i], queued_sink.done[i])) << "burst " << i;
    }
    EXPECT_EQ(stats_fast.refreshes, stats_queued.refreshes);
    EXPECT_EQ(stats_fast.bank_refreshes, stats_queued.bank_refreshes);
    EXPECT_EQ(stats_fast.postponed_refreshes, stats_queued.postponed_refreshes);
    EXPECT_EQ(stats_fast.read_queue_occupancy, stats_queued.read_queue_occupancy);
    EXPECT_EQ(stats_fast.observed_cycles, stats_queued.observed_cycles);
    EXPECT_EQ(stats_fast.max_read_queue, stats_queued.max_read_queue);
    EXPECT_EQ(fast.last_event(), queued.last_event());
    const DdrRankActivity& a = fast.device().activity(0);
    const DdrRankActivity& b = queued.device().activity(0);
    EXPECT_EQ(a.reads, b.reads);
    EXPECT_EQ(a.activates, b.activates);
    EXPECT_EQ(a.precharges, b.precharges);
    EXPECT_EQ(a.refreshes, b.refreshes);
    EXPECT_EQ(a.bank_refreshes, b.bank_refreshes);
    EXPECT_EQ(a.active_cycles, b.active_cycles);
  }

  DdrControllerStats stats_fast, stats_queued;
  RecordingSink fast_sink, queued_sink;
  DdrChannelController fast, queued;
};

// An idle rank catching up per-bank refreshes issues every REFpb that fell due back to back
// (the first at once, each next one tPBR2PBR later, round robin over the bank sets), which
// the controller counts in closed form instead of one by one: on LPDDR5-6400 (tREFIpb 390,
// tPBR2PBR 72, tRFCpb 112, eight bank pairs), 100,000 idle cycles hold 256 deadlines.
TEST(DdrController, IdlePerBankRefreshesAreCaughtUpBackToBack) {
  const DdrConfig config = load_ddr_preset(test::preset_path("lpddr5-6400.yaml"));
  ASSERT_EQ(config.controller.refresh, DdrRefreshMode::kPerBank);
  const DdrTimingParams& t = config.timing;
  DdrControllerStats stats;
  RecordingSink sink;
  DdrChannelController ch(config, 0, sink, stats);
  const uint64_t gap = 100'000;
  ch.run_until(gap);
  const uint64_t due = (gap - 1 - t.t_refi_pb) / t.t_refi_pb + 1;  // deadlines before the gap ends
  ASSERT_EQ(due, 256u);
  EXPECT_EQ(stats.bank_refreshes, due);
  EXPECT_EQ(ch.device().activity(0).bank_refreshes, due);
  EXPECT_EQ(ch.last_event(), (due - 1) * t.t_pbr2pbr + t.t_rfc_pb);
  EXPECT_EQ(ch.now(), gap);
  // The 257th REFpb (to pair 0 again) falls due at 257 x tREFIpb: a read of pair 0 at that
  // cycle waits for it, one of pair 1 only for tPBR2ACT.
  const uint64_t next = (due + 1) * t.t_refi_pb;
  for (uint32_t bank : {0u, 1u}) {
    DdrControllerStats s;
    RecordingSink done;
    DdrChannelController c(config, 0, done, s);
    c.run_until(gap);
    c.run_until(next);
    DdrBurstRequest b;
    b.bank = bank;
    b.bytes = 32;
    c.enqueue(b, next);
    while (c.step()) {
    }
    ASSERT_EQ(done.done.size(), 1u);
    EXPECT_EQ(s.bank_refreshes, due + 1);
    const uint64_t act = next + (bank == 0 ? t.t_rfc_pb : t.t_pbr2act);
    EXPECT_EQ(done.done[0].done_cycle, act + t.t_rcd + t.cl + 2) << "bank " << bank;
    EXPECT_EQ(done.done[0].refresh_stall, bank == 0);
  }
}

// Under the closed policy a row hit of another request must not auto-precharge the row an
// activated request is waiting for (it would have to activate it again, and its queue entry
// would be counted twice: a full queue that never drains).
TEST(DdrController, ClosedPolicyKeepsTheRowOfAnActivatedRequest) {
  for (DdrSchedulerKind kind : {DdrSchedulerKind::kFcfs, DdrSchedulerKind::kFrFcfs}) {
    DdrConfig config = ddr4_3200();
    config.controller.page_policy = DdrPagePolicy::kClosed;
    config.controller.scheduler = kind;
    DdrControllerStats stats;
    RecordingSink sink;
    DdrChannelController ch(config, 0, sink, stats);
    std::mt19937_64 rng(7);
    uint64_t at = 0;
    uint32_t queued = 0;
    for (uint32_t i = 0; i < 20000; ++i) {
      const uint64_t r = rng();
      DdrBurstRequest b;
      b.request = i;
      b.is_write = r % 3 == 0;
      b.bank = (r >> 8) % 2;
      b.row = (r >> 16) % 2;
      b.line = ((r >> 24) % 64) * 64;
      b.bytes = 64;
      at += (r >> 40) % 8;
      ch.run_until(at);
      while (!ch.has_room(b.is_write)) ASSERT_TRUE(ch.step()) << "request " << i;
      ch.enqueue(b, std::max(at, ch.now()));
      ++queued;
    }
    while (ch.step()) {
    }
    EXPECT_EQ(sink.done.size(), queued);  // every burst served (or forwarded, coalesced)
    EXPECT_TRUE(ch.idle());
    EXPECT_TRUE(ch.has_room(false));
    EXPECT_TRUE(ch.has_room(true));
  }
}

// serve_alone() is the closed form of enqueue() + step() for a row hit in an idle channel:
// the same reads, with gaps across refresh deadlines, give the same completions, counters and
// energy books whichever way they go; and it declines what it cannot serve that way.
TEST(DdrController, ReadServedAloneMatchesTheQueuedPath) {
  for (DdrPagePolicy page : {DdrPagePolicy::kOpen, DdrPagePolicy::kClosedAdaptive}) {
    for (uint32_t postpone : {0u, 4u}) {
      DdrConfig config = ddr4_3200();
      config.controller.page_policy = page;
      config.controller.refresh_postpone = postpone;
      TwinControllers twins(config);
      DdrChannelController& fast = twins.fast;
      RecordingSink& fast_sink = twins.fast_sink;
      uint64_t at = 0;
      size_t served_alone = 0, misses_alone = 0;
      for (uint32_t i = 0; i < 4000; ++i) {
        DdrBurstRequest b;
        b.request = i;
        b.bank = (i / 64) % 4;  // 64 lines of a row, then the next bank
        b.row = (i / 256) % 3;  // rows revisited: hits, misses and conflicts
        b.line = uint64_t{i} * 64;
        b.bytes = 64;
        at += i % 97 == 0 ? 20'000 : 3;  // now and then idle across a refresh deadline
        twins.run_until(at);
        DdrBurstDone done;
        if (DdrDirectPath(fast).serve_alone(b, at)) {
          ++served_alone;
        } else if (DdrDirectPath(fast).serve_reads_alone(&b, 1, at, &done)) {
          fast_sink.burst_done(done);
          ++misses_alone;
        } else {
          fast.enqueue(b, at);
        }
        twins.finish(&b, 1, at);
        ASSERT_EQ(fast.now(), twins.queued.now()) << "read " << i;
      }
      twins.expect_same_books(at);
      if (page == DdrPagePolicy::kOpen) {
        EXPECT_GT(served_alone, 3000u);
        EXPECT_LT(served_alone, 4000u);  // misses, conflicts and refresh deadlines decline
      } else {
        EXPECT_EQ(served_alone, 0u);  // alone in its queue, every read closes its row
      }
      EXPECT_GT(misses_alone, 30u);  // misses and conflicts away from refresh deadlines
    }
  }
}

// A 64-byte LPDDR4X read is two 32-byte bursts in one row: the first is served alone with
// the second counted as queued behind it, then the second (or, if either declines, the queue
// takes over). The same reads through the queue give the same completions and books, with
// both refresh modes, postponing and the page policies that keep the row open.
TEST(DdrController, TwoBurstReadServedAloneMatchesTheQueuedPath) {
  for (DdrRefreshMode refresh : {DdrRefreshMode::kAllBank, DdrRefreshMode::kPerBank}) {
    for (DdrPagePolicy page : {DdrPagePolicy::kOpen, DdrPagePolicy::kClosedAdaptive}) {
      for (uint32_t postpone : {0u, 4u}) {
        DdrConfig config = test::lpddr4x_4266();
        config.controller.refresh = refresh;
        config.controller.page_policy = page;
        config.controller.refresh_postpone = postpone;
        TwinControllers twins(config);
        uint64_t at = 0;
        size_t both_alone = 0, first_alone = 0, misses_alone = 0;
        for (uint32_t i = 0; i < 3000; ++i) {
          DdrBurstRequest b[2];
          for (uint32_t k = 0; k < 2; ++k) {
            b[k].request = i;
            b[k].bank = (i / 32) % 8;  // 32 reads of a row, then the next bank
            b[k].row = (i / 256) % 3;  // rows revisited: hits, misses and conflicts
            b[k].line = uint64_t{i} * 64 + 32 * k;
            b[k].bytes = 32;
          }
          at += i % 89 == 0 ? 9'000 : 2;  // now and then idle across refresh deadlines
          const TwinControllers::Served s = twins.serve_read(b, 2, /*same_bank=*/true, at);
          first_alone += s.hits >= 1;
          both_alone += s.hits == 2;
          misses_alone += s.misses;
          ASSERT_TRUE(s.same_now) << "read " << i;
        }
        twins.expect_same_books(at);
        if (page == DdrPagePolicy::kOpen) {
          EXPECT_GT(both_alone, 2000u);
          EXPECT_LT(both_alone, 3000u);  // misses, conflicts and refresh deadlines decline
        } else {
          // The second burst, alone in its queue, closes the row: the next read misses.
          EXPECT_EQ(first_alone, 0u);
        }
        EXPECT_GT(misses_alone, 20u);  // misses and conflicts away from refresh deadlines
      }
    }
  }
}

// A 64-byte LPDDR5 or HBM2 read is two 32-byte bursts in two bank groups: the scheduler
// orders the two (FR-FCFS takes the second first when its bank group is ready earlier), the
// first is served with the other counted as queued, then the other alone (or, if either
// declines, the queue takes over). Streaming pairs and random pairs of banks and rows, with
// gaps across refresh deadlines, give the same completions and books as the queue, with
// both schedulers, both refresh modes, postponing and every page policy.
TEST(DdrController, TwoBankReadServedAloneMatchesTheQueuedPath) {
  for (const char* preset : {"lpddr5-6400.yaml", "hbm2.yaml"}) {
    for (DdrSchedulerKind kind : {DdrSchedulerKind::kFcfs, DdrSchedulerKind::kFrFcfs}) {
      for (DdrRefreshMode refresh : {DdrRefreshMode::kAllBank, DdrRefreshMode::kPerBank}) {
        for (DdrPagePolicy page :
             {DdrPagePolicy::kOpen, DdrPagePolicy::kClosedAdaptive, DdrPagePolicy::kClosed}) {
          for (uint32_t postpone : {0u, 4u}) {
            SCOPED_TRACE(std::string(preset) + " " + to_string(kind) + " " + to_string(refresh) +
                         " " + to_string(page) + " postpone " + std::to_string(postpone));
            DdrConfig config = load_ddr_preset(test::preset_path(preset));
            config.controller.scheduler = kind;
            config.controller.refresh = refresh;
            config.controller.page_policy = page;
            config.controller.refresh_postpone = postpone;
            TwinControllers twins(config);
            const uint32_t groups = config.geometry.bank_groups;
            const uint32_t per_group = config.geometry.banks_per_group;
            std::mt19937_64 rng(11);
            uint64_t at = 0;
            size_t both_alone = 0, second_first = 0, misses_alone = 0, misses_second_first = 0;
            for (uint32_t i = 0; i < 3000; ++i) {
              const uint64_t r = rng();
              DdrBurstRequest b[2];
              const bool random = i % 512 >= 384;  // mostly streams, now and then random pairs
              for (uint32_t k = 0; k < 2; ++k) {
                b[k].request = i;
                b[k].line = uint64_t{i} * 64 + 32 * k;
                b[k].bytes = 32;
                if (random) {
                  b[k].bank = (r >> (8 * k)) % (groups * per_group);
                  b[k].row = (r >> (20 + 4 * k)) % 2;
                } else {
                  // A row of bank i / 64 in two neighbouring bank groups, then the next bank.
                  const uint32_t group = (2 * (i / 16) + k) % groups;
                  b[k].bank = group * per_group + (i / 64) % per_group;
                  b[k].row = (i / 1024) % 3;
                }
              }
              if (b[0].bank == b[1].bank)
                b[1].bank = (b[1].bank + per_group) % (groups * per_group);
              at += i % 89 == 0 ? 9'000 : (r >> 40) % 4;
              const TwinControllers::Served s = twins.serve_read(b, 2, /*same_bank=*/false, at);
              second_first += s.hits >= 1 && s.lead == 1;
              both_alone += s.hits == 2;
              misses_alone += s.misses;
              misses_second_first += s.misses && s.first_bank == b[1].bank;
              ASSERT_TRUE(s.same_now) << "read " << i;
            }
            twins.expect_same_books(at);
            if (page == DdrPagePolicy::kOpen) {
              EXPECT_GT(both_alone, 2000u);
              EXPECT_LT(both_alone, 3000u);  // misses, conflicts and refresh deadlines decline
            } else {
              EXPECT_EQ(both_alone, 0u);  // every read closes its rows: the next one misses
            }
            if (kind == DdrSchedulerKind::kFcfs || page != DdrPagePolicy::kOpen) {
              EXPECT_EQ(second_first, 0u);  // the older burst first
            } else {
              EXPECT_GT(second_first, 0u);
            }
            // Misses and conflicts away from refresh deadlines; FR-FCFS may finish the
            // second burst first.
            EXPECT_GT(misses_alone, 100u);
            if (kind == DdrSchedulerKind::kFrFcfs) {
              EXPECT_GT(misses_second_first, 0u);
            }
          }
        }
      }
    }
  }
}

TEST(DdrController, ServeFirstOfTwoDeclinesOneBankAndMisses) {
  const DdrConfig config = load_ddr_preset(test::preset_path("lpddr5-6400.yaml"));
  DdrControllerStats stats;
  RecordingSink sink;
  DdrChannelController ch(config, 0, sink, stats);
  DdrDirectPath direct(ch);
  DdrBurstRequest b[2];
  b[0].bank = 0;
  b[1].bank = 4;  // the next bank group
  DdrBurstDone done;
  EXPECT_EQ(direct.serve_first_of_two(b, 0, done), -1);  // both banks closed
  ch.enqueue(b[0], 0);
  while (ch.step()) {
  }
  EXPECT_EQ(direct.serve_first_of_two(b, ch.now(), done), -1);  // the second bank still closed
  ch.enqueue(b[1], ch.now());
  while (ch.step()) {
  }
  b[1].bank = 0;
  EXPECT_EQ(direct.serve_first_of_two(b, ch.now(), done), -1);  // one bank: serve_alone's case
  b[1].bank = 4;
  EXPECT_EQ(direct.serve_first_of_two(b, ch.now(), done), 0);
  EXPECT_EQ(done.outcome, DdrOutcome::kHit);
  EXPECT_EQ(sink.done.size(), 2u);  // the served burst's completion went to `done`
}

TEST(DdrController, ServeAloneDeclinesWritesAndBusyChannels) {
  const DdrConfig config = ddr4_3200();
  DdrControllerStats stats;
  RecordingSink sink;
  DdrChannelController ch(config, 0, sink, stats);
  DdrDirectPath direct(ch);
  DdrBurstRequest b;
  b.row = 5;
  b.bytes = 64;
  EXPECT_FALSE(direct.serve_alone(b, 0));  // the bank is closed: a miss goes through the queue
  ch.enqueue(b, 0);
  EXPECT_FALSE(direct.serve_alone(b, 0));  // not idle
  while (ch.step()) {
  }
  b.is_write = true;
  EXPECT_FALSE(direct.serve_alone(b, ch.now()));  // writes are posted
  b.is_write = false;
  EXPECT_TRUE(direct.serve_alone(b, ch.now()));  // a row hit in an idle channel
  EXPECT_EQ(sink.done.size(), 2u);
  EXPECT_EQ(sink.done.back().outcome, DdrOutcome::kHit);
}

}  // namespace
}  // namespace socsim
