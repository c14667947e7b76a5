// Exact analytic cases of the DDR timing core (device timing through the controller),
// then bandwidth bounds. Controller policies have their own tests
// (models/ddr/controller/test/).
#include "models/ddr/ddr_timing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <vector>

#include "models/ddr/test/ddr_test_util.h"
#include "platform/report/ddr_report.h"

namespace socsim {
namespace {

using test::ddr4_3200;
using test::ddr4_addr;
using test::lpddr4x_4266;

constexpr uint64_t kTckPs = 625;  // DDR4-3200
constexpr uint64_t kUs = 1'000'000;

// The DDR4-3200 preset's timings, in tCK, for readable expectations.
constexpr uint64_t kCl = 22, kCwl = 16, kRcd = 22, kRp = 22, kBurst = 4;
constexpr uint64_t kCcdS = 4, kCcdL = 8, kRrdS = 4, kFaw = 34, kRfc = 576, kRefi = 12480;

uint64_t latency(const DdrResult& r, uint64_t arrival_ps) {
  return r.done_ps - arrival_ps;
}

TEST(DdrTiming, RowHitMissConflictCostExactly) {
  DdrTiming ddr(ddr4_3200());
  // Closed bank: activate, then read.
  DdrResult miss = ddr.access(0, false, ddr4_addr(0, 0, 5, 0), 64);
  EXPECT_EQ(latency(miss, 0), (kRcd + kCl + kBurst) * kTckPs);
  EXPECT_EQ(miss.row_misses, 1u);
  // Same row, later: column read only.
  DdrResult hit = ddr.access(1 * kUs, false, ddr4_addr(0, 0, 5, 1), 64);
  EXPECT_EQ(latency(hit, 1 * kUs), (kCl + kBurst) * kTckPs);
  EXPECT_EQ(hit.row_hits, 1u);
  // Other row of the same bank: precharge, activate, read.
  DdrResult conflict = ddr.access(2 * kUs, false, ddr4_addr(0, 0, 6, 0), 64);
  EXPECT_EQ(latency(conflict, 2 * kUs), (kRp + kRcd + kCl + kBurst) * kTckPs);
  EXPECT_EQ(conflict.row_conflicts, 1u);
  EXPECT_FALSE(miss.refresh_stall || hit.refresh_stall || conflict.refresh_stall);
}

TEST(DdrTiming, WritesArePostedAndWrittenWhenNoReadWaits) {
  DdrTiming ddr(ddr4_3200());
  ddr.access(0, false, ddr4_addr(0, 0, 6, 0), 64);  // open row 6
  // The write queue accepts the write at once; with no read waiting the controller writes
  // it to the open row: CWL + burst later its data is in the device.
  const DdrResult w = ddr.access(1 * kUs, true, ddr4_addr(0, 0, 6, 3), 64);
  EXPECT_EQ(w.done_ps, 1 * kUs);
  ddr.finish();
  const DdrCounters& bank = ddr.stats().bank(0);
  EXPECT_EQ(bank.writes, 1u);
  EXPECT_EQ(bank.row_misses, 1u);  // the read
  EXPECT_EQ(bank.row_hits, 1u);    // the write
  EXPECT_EQ(bank.latency.min_ps(), (kCwl + kBurst) * kTckPs);
}

TEST(DdrTiming, LargeRequestIsSplitIntoBursts) {
  DdrTiming ddr(ddr4_3200());
  // 256 bytes from 0: four bursts, one per bank group (bits 6-7), each a row miss, all
  // queued at once. The activates are tRRD_S apart, so the reads are too; the last data
  // ends 3 tRRD_S after a single miss would.
  DdrResult r = ddr.access(0, false, 0, 256);
  EXPECT_EQ(r.bursts, 4u);
  EXPECT_EQ(r.row_misses, 4u);
  EXPECT_EQ(r.done_ps, (3 * kRrdS + kRcd + kCl + kBurst) * kTckPs);
  // An unaligned 8-byte request inside one burst is one burst.
  EXPECT_EQ(ddr.access(1 * kUs, false, 0x13, 8).bursts, 1u);
  // 8 bytes straddling two bursts are two.
  EXPECT_EQ(ddr.access(2 * kUs, false, 60, 8).bursts, 2u);
}

TEST(DdrTiming, ColumnCommandsSpacedByCcdLongInGroupAndShortAcross) {
  DdrTiming ddr(ddr4_3200());
  ddr.access(0, false, ddr4_addr(0, 0, 1, 0), 64);  // open a row in group 0
  ddr.access(0, false, ddr4_addr(1, 0, 1, 0), 64);  // and in group 1

  const uint64_t t1 = 1 * kUs;
  DdrResult a = ddr.access(t1, false, ddr4_addr(0, 0, 1, 1), 64);
  DdrResult b = ddr.access(t1, false, ddr4_addr(0, 0, 1, 2), 64);  // same bank group
  EXPECT_EQ(latency(a, t1), (kCl + kBurst) * kTckPs);
  EXPECT_EQ(b.done_ps - a.done_ps, kCcdL * kTckPs);

  const uint64_t t2 = 2 * kUs;
  DdrResult c = ddr.access(t2, false, ddr4_addr(0, 0, 1, 3), 64);
  DdrResult d = ddr.access(t2, false, ddr4_addr(1, 0, 1, 3), 64);  // other bank group
  EXPECT_EQ(d.done_ps - c.done_ps, kCcdS * kTckPs);
  EXPECT_EQ(c.row_hits + d.row_hits, 2u);
}

TEST(DdrTiming, FifthActivateWaitsForFawWindow) {
  // Five row misses queued together, to banks in rotating bank groups: activates go out
  // tRRD_S = 4 apart, but the fifth must wait until tFAW after the first.
  auto fifth_latency = [](DdrConfig config) {
    DdrTiming ddr(config);
    const uint64_t addrs[] = {ddr4_addr(0, 0, 7, 0), ddr4_addr(1, 0, 7, 0), ddr4_addr(2, 0, 7, 0),
                              ddr4_addr(3, 0, 7, 0), ddr4_addr(0, 1, 7, 0)};
    for (uint64_t addr : addrs) ddr.submit(0, false, addr, 64);
    ddr.finish();
    EXPECT_EQ(ddr.stats().total().row_misses, 5u);
    return ddr.stats().total().latency.max_ps();
  };
  DdrConfig config = ddr4_3200();
  // The fourth read and the fifth activate fall on the same cycle (34): the read goes
  // first (one command per cycle, row hits first), the activate one cycle later.
  EXPECT_EQ(fifth_latency(config), (kFaw + 1 + kRcd + kCl + kBurst) * kTckPs);
  // Without the window (tFAW = 4 tRRD_S) the fifth activate goes out at 4 tRRD_S.
  config.timing.t_faw = 16;
  EXPECT_EQ(fifth_latency(config), (16 + kRcd + kCl + kBurst) * kTckPs);
}

TEST(DdrTiming, RefreshBlocksForRfcEveryRefi) {
  DdrTiming ddr(ddr4_3200());
  const uint64_t refi_ps = kRefi * kTckPs;
  // At each refresh deadline a read waits tRFC (after precharge-all, tRPab = tRP, when a
  // row is open: from the second round on), then misses.
  for (uint64_t k = 1; k <= 3; ++k) {
    DdrResult r = ddr.access(k * refi_ps, false, ddr4_addr(2, 1, k, 0), 64);
    const uint64_t precharge = k == 1 ? 0 : kRp;
    EXPECT_TRUE(r.refresh_stall) << k;
    EXPECT_EQ(latency(r, k * refi_ps), (precharge + kRfc + kRcd + kCl + kBurst) * kTckPs) << k;
    // Once the refresh is over the channel is free again: a row hit.
    const uint64_t later = k * refi_ps + (kRp + kRfc + 200) * kTckPs;
    DdrResult free = ddr.access(later, false, ddr4_addr(2, 1, k, 1), 64);
    EXPECT_FALSE(free.refresh_stall);
    EXPECT_EQ(latency(free, later), (kCl + kBurst) * kTckPs);
  }
  EXPECT_EQ(ddr.stats().refreshes(), 3u);
  EXPECT_EQ(ddr.stats().total().refresh_stalls, 3u);
}

TEST(DdrTiming, RefreshClosesOpenRowsAfterPrechargeAll) {
  DdrTiming ddr(ddr4_3200());
  ddr.access(0, false, ddr4_addr(0, 0, 9, 0), 64);  // row 9 open
  const uint64_t at = kRefi * kTckPs;
  DdrResult r = ddr.access(at, false, ddr4_addr(0, 0, 9, 1), 64);
  // Precharge all (tRPab = tRP here), refresh, then the row must be opened again.
  EXPECT_EQ(r.row_misses, 1u);
  EXPECT_EQ(latency(r, at), (kRp + kRfc + kRcd + kCl + kBurst) * kTckPs);
}

TEST(DdrTiming, IdleChannelCatchesUpOnMissedRefreshes) {
  DdrTiming ddr(ddr4_3200());
  const uint64_t at = 1000 * kRefi * kTckPs;  // 7.8 ms of idleness
  DdrResult r = ddr.access(at, false, 0, 64);
  EXPECT_EQ(ddr.stats().refreshes(), 1000u);
  EXPECT_EQ(latency(r, at), (kRfc + kRcd + kCl + kBurst) * kTckPs);
}

TEST(DdrTiming, SequentialReadsReachPeakLessRefreshDdr4) {
  // Streaming reads keep the data bus busy (bursts alternate bank groups, so they are
  // tCCD_S = burst apart; activates of the next banks happen while data flows) except
  // around each refresh. Per tREFI the bus loses
  //   lost = tRTP + tRPab + tRFC + tRCD - burst
  // cycles: the last read before the refresh lets its bank precharge tRTP later, then
  // precharge-all, refresh, activate, and the next read comes tRCD after it instead of one
  // burst after the previous read. So  BW = peak * (tREFI - lost) / tREFI.
  DdrConfig config = ddr4_3200();
  DdrTiming ddr(config);
  const double bw = test::stream(ddr, 64ull << 20, 64);
  const DdrTimingParams& t = config.timing;
  const double lost = t.t_rtp + t.t_rp_all + t.t_rfc + t.t_rcd - 4.0;
  const double expected = config.peak_bytes_per_s() * (t.t_refi - lost) / t.t_refi;
  EXPECT_NEAR(config.peak_bytes_per_s(), 25.6e9, 1e3);
  EXPECT_NEAR(bw / expected, 1.0, 0.002) << bw / 1e9 << " vs " << expected / 1e9;
  // Rows open only after refreshes and when the stream enters a new bank.
  const DdrCounters& total = ddr.stats().total();
  EXPECT_GT(total.row_hits, 0.99 * total.requests());
}

TEST(DdrTiming, SequentialReadsReachPeakLessRefreshLpddr4x) {
  // Same formula per channel; a burst is 8 tCK = tCCD, and all four channels stream.
  DdrConfig config = lpddr4x_4266();
  DdrTiming ddr(config);
  const double bw = test::stream(ddr, 64ull << 20, 64);
  const DdrTimingParams& t = config.timing;
  const double lost = t.t_rtp + t.t_rp_all + t.t_rfc + t.t_rcd - 8.0;
  const double expected = config.peak_bytes_per_s() * (t.t_refi - lost) / t.t_refi;
  EXPECT_NEAR(config.peak_bytes_per_s() / 1e9, 34.133, 0.001);
  EXPECT_NEAR(bw / expected, 1.0, 0.003) << bw / 1e9 << " vs " << expected / 1e9;
}

TEST(DdrTiming, RandomRowsAcrossBanksRunAtTheActivationLimit) {
  // Every read opens a random row; banks are taken in rotation (bank groups alternate), so
  // a bank is reused only 16 activates later, after tRC. A channel issues at most four
  // activates per tFAW, so  BW = 4 * 64 B / (tFAW * tCK)  (47 % of the DDR4-3200 peak),
  // less refresh: tRFC + tRPab + tRCD + CL + ... per tREFI, about 5 %, and less what one
  // command per cycle costs when precharge, activate and read of four requests share a
  // tFAW window: 92 % of the bound in all (Ramulator 2.1 on this pattern: 11.12 GB/s).
  DdrConfig config = ddr4_3200();
  DdrTiming ddr(config);
  std::mt19937_64 rng(1);
  uint64_t front = 0;
  for (uint64_t i = 0; i < 50000; ++i) {
    front = ddr.submit(front, false, ddr4_addr(i % 4, i / 4 % 4, rng() % 65536, rng() % 128), 64);
  }
  ddr.finish();
  const DdrCounters& total = ddr.stats().total();
  const double bound = 4 * 64.0 / (config.timing.t_faw * config.tck_ps * 1e-12);
  const double bw = total.bandwidth_bytes_per_s();
  EXPECT_NEAR(bound / config.peak_bytes_per_s(), 0.47, 0.005);
  EXPECT_LE(bw, bound);
  EXPECT_GT(bw, 0.91 * bound);
  EXPECT_LT(total.row_hits, 50u);
}

TEST(DdrTiming, TwoStreamingInitiatorsShareTheBandwidth) {
  // Two 8 MiB streams issued together, B offset by two bank groups and two banks so the
  // streams do not fight over rows: each gets about half of what it gets alone.
  DdrConfig config = ddr4_3200();
  const uint64_t bytes = 8ull << 20;
  const uint64_t b_base = (1ull << 30) + 0x80 + (2ull << 15);
  DdrTiming alone(config);
  const double alone_bw = test::stream(alone, bytes, 64);

  DdrTiming shared(config);
  uint64_t front = 0;
  for (uint64_t off = 0; off < bytes; off += 64) {
    front = shared.submit(front, false, off, 64, 0);
    front = shared.submit(front, false, b_base + off, 64, 1);
  }
  shared.finish();
  const double a = shared.stats().initiators()[0].bandwidth_bytes_per_s();
  const double b = shared.stats().initiators()[1].bandwidth_bytes_per_s();
  EXPECT_LT(a, 0.55 * alone_bw);
  EXPECT_LT(b, 0.55 * alone_bw);
  EXPECT_LE(a + b, config.peak_bytes_per_s());
  EXPECT_GT(a + b, 0.95 * alone_bw);
}

TEST(DdrTiming, TwoStreamsInOneBankReorderedIntoRowHits) {
  // The same two streams in the same banks with different rows. Served in order (FCFS)
  // every burst of one closes the other's row; FR-FCFS serves the queued row hits first.
  auto run = [](DdrSchedulerKind scheduler) {
    DdrConfig config = ddr4_3200();
    config.controller.scheduler = scheduler;
    DdrTiming ddr(config);
    uint64_t front = 0;
    for (uint64_t off = 0; off < (1ull << 20); off += 64) {
      front = ddr.submit(front, false, off, 64, 0);
      front = ddr.submit(front, false, (1ull << 30) + off, 64, 1);
    }
    ddr.finish();
    return ddr.stats().total();
  };
  const DdrConfig config = ddr4_3200();
  const DdrCounters fcfs = run(DdrSchedulerKind::kFcfs);
  const DdrCounters frfcfs = run(DdrSchedulerKind::kFrFcfs);
  EXPECT_LT(fcfs.row_hits, fcfs.requests() * 0.05);
  EXPECT_LT(fcfs.bandwidth_bytes_per_s(), 0.15 * config.peak_bytes_per_s());
  EXPECT_GT(frfcfs.row_hits, frfcfs.requests() * 0.75);
  EXPECT_GT(frfcfs.bandwidth_bytes_per_s(), 4 * fcfs.bandwidth_bytes_per_s());
}

TEST(DdrTiming, EarlierArrivalAfterLaterOneWaitsAndStaysDeterministic) {
  auto run = [] {
    DdrTiming ddr(ddr4_3200());
    DdrResult late = ddr.access(2 * kUs, false, ddr4_addr(0, 0, 1, 0), 64);
    DdrResult early = ddr.access(1 * kUs, false, ddr4_addr(1, 0, 1, 0), 64);
    EXPECT_GE(early.done_ps, 1 * kUs + (kRcd + kCl + kBurst) * kTckPs);
    EXPECT_GT(early.done_ps, late.done_ps);  // the controller had moved on to 2 us
    return std::make_pair(late.done_ps, early.done_ps);
  };
  EXPECT_EQ(run(), run());
}

TEST(DdrTiming, ReadAfterWrittenWriteWaitsForWriteToRead) {
  DdrTiming ddr(ddr4_3200());
  ddr.access(0, false, ddr4_addr(0, 0, 1, 0), 64);
  const uint64_t t = 1 * kUs;
  // The write is posted; the next request arrives one cycle later, by when the controller
  // (no read waiting) has issued the write. The read command then waits tWTR_L after the
  // end of the write data.
  ddr.access(t, true, ddr4_addr(0, 0, 1, 1), 64);
  const uint64_t write_end = t + (kCwl + kBurst) * kTckPs;
  DdrResult r = ddr.access(t + kTckPs, false, ddr4_addr(0, 0, 1, 2), 64);
  EXPECT_EQ(r.done_ps, write_end + (12 + kCl + kBurst) * kTckPs);
}

TEST(DdrTiming, IdealModelHasFixedLatencyAndNoBandwidthLimit) {
  DdrConfig config = load_ddr_preset(test::preset_path("ideal.yaml"));
  DdrTiming ddr(config);
  for (int i = 0; i < 1000; ++i) {
    DdrResult r = ddr.access(0, i % 2, uint64_t(i) * 4096, 4096);
    EXPECT_EQ(r.done_ps, 20'000u);
  }
  EXPECT_EQ(ddr.stats().total().latency.quantile_ps(0.99), 20'000u);
}

TEST(DdrTiming, StatisticsPerInitiatorAndBank) {
  DdrTiming ddr(ddr4_3200());
  ddr.stats().set_initiator_name(1, "npu");
  ddr.access(0, false, ddr4_addr(0, 0, 5, 0), 64, 0);
  ddr.access(1 * kUs, false, ddr4_addr(0, 0, 5, 1), 128, 1);  // two bursts: groups 0, 1
  ddr.finish();
  const DdrStats& s = ddr.stats();
  ASSERT_EQ(s.initiators().size(), 2u);
  EXPECT_EQ(s.initiators()[0].bytes_read, 64u);
  EXPECT_EQ(s.initiators()[1].bytes_read, 128u);
  EXPECT_EQ(s.initiators()[1].row_hits, 1u);
  EXPECT_EQ(s.initiators()[1].row_misses, 1u);
  EXPECT_EQ(s.banks()[0].requests(), 2u);  // ch0.bg0.b0
  EXPECT_EQ(s.banks()[4].requests(), 1u);  // ch0.bg1.b0
  EXPECT_EQ(s.initiators()[0].latency.quantile_ps(0.5), (kRcd + kCl + kBurst) * kTckPs);

  const nlohmann::json j = ddr_stats_json(s);
  EXPECT_EQ(j["initiators"][1]["name"], "npu");
  EXPECT_EQ(j["total"]["bytes_read"], 192);
  EXPECT_EQ(j["banks"].size(), 2u);
  EXPECT_EQ(j["banks"][1]["bank_group"], 1);
  EXPECT_DOUBLE_EQ(j["initiators"][0]["latency_ns"]["max"].get<double>(), 30.0);
  EXPECT_EQ(j["scheduler"], "frfcfs");
  EXPECT_EQ(j["controllers"].size(), 1u);
  EXPECT_EQ(j["controllers"][0]["read_queue"]["max"], 2);
  EXPECT_TRUE(j["energy"].is_object());

  std::ostringstream text;
  print_ddr_stats(text, s);
  EXPECT_NE(text.str().find("npu"), std::string::npos);
  EXPECT_NE(text.str().find("ch0.bg1.b0"), std::string::npos);
  EXPECT_NE(text.str().find("energy"), std::string::npos);
}

TEST(LatencyHistogram, QuantilesWithinBucketPrecision) {
  LatencyHistogram h;
  for (uint64_t v = 1; v <= 100000; ++v) h.add(v);
  EXPECT_EQ(h.count(), 100000u);
  EXPECT_DOUBLE_EQ(h.mean_ps(), 50000.5);
  EXPECT_NEAR(static_cast<double>(h.quantile_ps(0.5)), 50000, 50000 / 256.0);
  EXPECT_NEAR(static_cast<double>(h.quantile_ps(0.99)), 99000, 99000 / 256.0);
  EXPECT_EQ(h.quantile_ps(1.0), 100000u);
  EXPECT_EQ(h.quantile_ps(0.001), 100u);  // exact below 512
}

TEST(LatencyHistogram, MergedEqualsRecordedTogether) {
  LatencyHistogram a, b, both;
  for (uint64_t v = 1; v <= 5000; v += 3) {
    (v % 2 ? a : b).add(v * 7);
    both.add(v * 7);
  }
  a.merge(b);
  EXPECT_EQ(a.count(), both.count());
  EXPECT_DOUBLE_EQ(a.mean_ps(), both.mean_ps());
  EXPECT_EQ(a.quantile_ps(0.9), both.quantile_ps(0.9));
  EXPECT_EQ(a.min_ps(), both.min_ps());
  EXPECT_EQ(a.max_ps(), both.max_ps());
}

// Shared DDR (docs/ddr.md, "Shared DDR: two initiators"): the controller arbitrates between
// initiators only by arrival and its scheduler. A stream and a random initiator, one request
// each in turn with writes among them, replayed once as given and once with the two ids
// swapped: the same device work and each initiator's figures swapped exactly; below the
// saturation (30 % of the peak, FR-FCFS) all requests get through at the offered rate.
TEST(DdrTiming, TwoInitiatorsAreArbitratedOnlyByArrivalAndScheduler) {
  const DdrConfig config = ddr4_3200();
  const uint64_t capacity = config.capacity_bytes();
  std::mt19937_64 rng(4);
  struct Req {
    bool write;
    uint64_t addr;
    int initiator;
  };
  std::vector<Req> trace;
  for (uint64_t i = 0; i < 20'000; ++i) {
    if (i % 2 == 0) {
      trace.push_back({i / 2 % 2 == 1, i / 2 * 64, 0});
    } else {
      trace.push_back({i / 2 % 3 == 2, rng() % (capacity / 64) * 64, 1});
    }
  }
  const double interval_ps = 64 / (0.3 * config.peak_bytes_per_s()) * 1e12;
  auto replay = [&](bool swap) {
    auto ddr = std::make_unique<DdrTiming>(config);
    uint64_t front = 0;
    for (size_t i = 0; i < trace.size(); ++i) {
      const uint64_t at = std::max(front, static_cast<uint64_t>(i * interval_ps));
      front = ddr->submit(at, trace[i].write, trace[i].addr, 64,
                          swap ? 1 - trace[i].initiator : trace[i].initiator);
    }
    ddr->finish();
    return ddr;
  };
  const auto plain = replay(false);
  const auto swapped = replay(true);
  const DdrCounters& total = plain->stats().total();
  EXPECT_EQ(total.requests(), trace.size());
  EXPECT_EQ(swapped->stats().total().last_done_ps, total.last_done_ps);
  EXPECT_EQ(swapped->stats().total().row_hits, total.row_hits);
  EXPECT_EQ(swapped->stats().total().latency.mean_ps(), total.latency.mean_ps());
  for (int i = 0; i < 2; ++i) {
    const DdrCounters& a = plain->stats().initiators()[i];
    const DdrCounters& b = swapped->stats().initiators()[1 - i];
    EXPECT_EQ(a.reads, b.reads);
    EXPECT_EQ(a.writes, b.writes);
    EXPECT_EQ(a.row_hits, b.row_hits);
    EXPECT_EQ(a.last_done_ps, b.last_done_ps);
    EXPECT_EQ(a.latency.mean_ps(), b.latency.mean_ps());
    EXPECT_EQ(a.bytes(), trace.size() / 2 * 64);
  }
  // Offered 30 % of the peak, carried within 1 %: the trace's span is its offered time.
  EXPECT_NEAR(total.bandwidth_bytes_per_s() / (0.3 * config.peak_bytes_per_s()), 1.0, 0.01);
}

}  // namespace
}  // namespace socsim
