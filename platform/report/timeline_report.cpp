#include "platform/report/timeline_report.h"

#include <algorithm>
#include <map>

#include "platform/report/npu_report.h"
#include "platform/report/trace_events.h"
#include "platform/soc.h"

namespace socsim {

namespace {

// Counter resolution: at least this, and no more than kMaxBins bins over the run.
constexpr double kMinBinUs = 0.1;
constexpr double kMaxBins = 2000;

void add_cpu(Timeline& timeline, const ProbeSession& probes, const TimelineRecording* recording,
             double mhz) {
  const ProbeEngine* engine = probes.engine();
  if (engine == nullptr) return;
  const int pid = timeline.add_process(std::string("cpu (") + probes.info().cpu_model + ")");
  const RegionProbes& regions = engine->regions();
  std::map<std::string, std::vector<Timeline::Span>> by_category;
  for (size_t i = 0; i < regions.size(); ++i) {
    const RegionDef& d = regions.def(i);
    for (const RegionOccurrence& o : regions.stats(i).occurrences) {
      Timeline::Span s{d.name, o.start_cycle / mhz, (o.start_cycle + o.cycles()) / mhz,
                       {{"cycles", o.cycles()}, {"instructions", o.instructions},
                        {"start_cycle", o.start_cycle}}};
      if (o.elements >= 0) s.args["elements"] = o.elements;
      by_category[d.category == "mark" ? "marks" : "regions"].push_back(std::move(s));
    }
  }
  for (auto& [track, spans] : by_category) timeline.add_spans(pid, track, track, std::move(spans));
  if (recording == nullptr || !recording->calls) return;
  const CallTimeline& calls = *recording->calls;
  std::vector<Timeline::Span> traps, functions;
  for (const CallTimeline::Frame& f : calls.frames()) {
    const std::string& name = calls.symbols().name_of(f.function);
    Timeline::Span s{f.trap && f.function == SymbolMap::kUnknown ? "trap handler" : name,
                     f.start_cycle / mhz, f.end_cycle / mhz,
                     {{"cycles", f.end_cycle - f.start_cycle}, {"start_cycle", f.start_cycle}}};
    (f.trap ? traps : functions).push_back(std::move(s));
  }
  timeline.add_spans(pid, "traps and interrupts", "trap", std::move(traps));
  if (calls.functions()) timeline.add_spans(pid, "functions", "function", std::move(functions));
}

// `ddr`: the DDR regions, so that a layer's bound is the report's (npu_bound).
void add_npu(Timeline& timeline, const Npu& npu, const std::vector<NpuDmaRecord>* dma,
             const std::vector<NpuDdrRegion>& ddr) {
  const double mhz = npu.clock().mhz();
  const int pid = timeline.add_process(std::string("npu ") + npu.basename());
  std::map<unsigned, std::vector<Timeline::Span>> cores;
  for (const NpuLayerRecord& l : npu.layers()) {
    const nlohmann::json args = {
        {"op_type", l.op_type},       {"run", l.run},
        {"index", l.index},           {"macs", l.macs},
        {"cycles", l.elapsed_cycles},   {"npu_cycles", l.npu_cycles},
        {"ddr_cycles", l.ddr_cycles}, {"read_bytes", l.read_bytes},
        {"write_bytes", l.write_bytes}, {"mac_usage", l.mac_usage},
        {"bound", npu_bound(l, &ddr)}, {"cores_used", l.cores_used}};
    for (unsigned c = 0; c < std::max(1u, l.cores_used); ++c) {
      cores[c].push_back({l.name, l.start_cycle / mhz, (l.start_cycle + l.elapsed_cycles) / mhz, args});
    }
  }
  for (auto& [core, spans] : cores) {
    timeline.add_spans(pid, "core " + std::to_string(core), "layer", std::move(spans));
  }
  if (dma == nullptr) return;
  std::vector<Timeline::Span> transfers;
  for (const NpuDmaRecord& t : *dma) {
    const std::string layer =
        t.layer < npu.layers().size() ? npu.layers()[t.layer].name : "layer " + std::to_string(t.layer);
    transfers.push_back({std::string(t.write ? "write " : "read ") + layer, t.begin / mhz,
                         t.end / mhz,
                         {{"bytes", t.bytes}, {"cycles", t.end - t.begin}}});
  }
  timeline.add_spans(pid, "DMA", "dma", std::move(transfers));
}

// Bandwidth (GB/s per bin, by completion time) and queue depth (the most requests in the
// model at once in each bin, from arrival to completion).
/// Returns the bin width in microseconds.
double add_ddr(Timeline& timeline, const Ddr& ddr, const std::vector<DdrAccessRecord>& accesses,
               double run_us) {
  const int pid = timeline.add_process(std::string("ddr ") + ddr.basename());
  double end_us = run_us;
  for (const DdrAccessRecord& a : accesses) end_us = std::max(end_us, a.done_ps / 1e6);
  const double bin_us = std::max(kMinBinUs, end_us / kMaxBins);
  const size_t bins = static_cast<size_t>(end_us / bin_us) + 1;
  std::vector<double> bytes(bins, 0);
  std::vector<std::pair<uint64_t, int>> edges;  // (time ps, +1 arrival / -1 completion)
  for (const DdrAccessRecord& a : accesses) {
    bytes[std::min(bins - 1, static_cast<size_t>(a.done_ps / 1e6 / bin_us))] += a.bytes;
    edges.push_back({a.arrival_ps, +1});
    edges.push_back({a.done_ps, -1});
  }
  std::sort(edges.begin(), edges.end());  // at one time, completions (-1) first
  std::vector<int> depth(bins, 0);
  int now = 0;
  for (const auto& [ps, step] : edges) {
    now += step;
    int& d = depth[std::min(bins - 1, static_cast<size_t>(ps / 1e6 / bin_us))];
    d = std::max(d, now);
  }
  std::vector<std::pair<double, double>> bandwidth, queue;
  for (size_t b = 0; b < bins; ++b) {
    const double gbps = bytes[b] / (bin_us * 1e3);  // bytes per ns = GB/s
    if (bandwidth.empty() || bandwidth.back().second != gbps) bandwidth.push_back({b * bin_us, gbps});
    if (queue.empty() || queue.back().second != depth[b]) queue.push_back({b * bin_us, double(depth[b])});
  }
  timeline.add_counter(pid, "bandwidth (GB/s)", bandwidth);
  timeline.add_counter(pid, "queue depth (requests)", queue);
  return bin_us;
}

}  // namespace

void write_timeline(std::ostream& out, Soc& soc, const ProbeSession& probes,
                    const TimelineRecording* recording, uint64_t run_cycles) {
  Timeline timeline;
  const double mhz = soc.cpu_clock().mhz();
  add_cpu(timeline, probes, recording, mhz);
  std::vector<NpuDdrRegion> npu_ddr;
  for (Ddr* ddr : soc.ddrs()) {
    const RegionConfig* region = soc.config().find_region(ddr->basename());
    if (region != nullptr) npu_ddr.push_back({region->base, region->size, std::nullopt});
  }
  for (size_t i = 0; i < soc.npus().size(); ++i) {
    add_npu(timeline, *soc.npus()[i], recording ? &recording->dma[i] : nullptr, npu_ddr);
  }
  nlohmann::json bins = nlohmann::json::object();
  if (recording != nullptr) {
    for (size_t i = 0; i < soc.ddrs().size(); ++i) {
      bins[soc.ddrs()[i]->basename()] =
          add_ddr(timeline, *soc.ddrs()[i], recording->ddr[i], run_cycles / mhz);
    }
  }
  nlohmann::json other = {{"cpu_model", soc.cpu().kind()},
                          {"ddr_counter_bin_us", bins},
                          {"cycles_exact", soc.cpu().cycle_exact()},
                          {"clock_mhz", mhz},
                          {"run_cycles", run_cycles}};
  if (recording != nullptr && recording->calls) {
    other["call_spans_dropped"] = recording->calls->dropped();
  }
  timeline.write(out, other);
}

}  // namespace socsim
