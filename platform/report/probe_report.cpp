#include "platform/report/probe_report.h"

#include <algorithm>
#include <memory>

#include "platform/report/profile_report.h"

namespace socsim {

namespace {

void report_store_marks(const ProbeSession& probes, std::ostream& out, bool print,
                        ReportDirectory& dir, uint64_t run_cycles) {
  const StoreMarks& marks = *probes.store_marks();
  const double mhz = probes.info().clock_mhz;
  if (print) marks.print_table(out, run_cycles, mhz);
  dir.write("probes.json", [&](std::ostream& o) {
    marks.write_json(o, run_cycles, mhz, probes.cpu_description());
  });
}

}  // namespace

void report_probes(ProbeSession& probes, std::ostream& out, bool print, ReportDirectory& dir,
                   uint64_t run_cycles) {
  if (probes.store_marks() != nullptr) {
    report_store_marks(probes, out, print, dir, run_cycles);
    return;
  }
  ProbeEngine* engine = probes.engine();
  if (engine == nullptr) return;
  const ProbeRunInfo& info = probes.info();
  engine->finish(run_cycles);
  const FunctionProfile* profile = engine->profile();
  if (print) engine->print_table(out, info);
  if (print && profile) {
    print_function_profile(out, *profile, probes.options().profile_top, info.cycles_exact);
  }
  if (!dir.enabled()) return;
  dir.write("probes.json", [&](std::ostream& o) { engine->write_json(o, info); });
  dir.write("probes.csv", [&](std::ostream& o) { engine->write_csv(o, info); });
  if (profile) {
    const std::unique_ptr<SourceLines> lines =
        info.symbols_elf.empty() ? nullptr : SourceLines::load(info.symbols_elf);
    dir.write("callgrind.out.socsim",
              [&](std::ostream& o) { write_callgrind(o, *profile, info.firmware, lines.get()); });
    dir.write("profile.folded", [&](std::ostream& o) { write_folded_stacks(o, *profile); });
    dir.write("profile.speedscope.json",
              [&](std::ostream& o) { write_speedscope(o, *profile, info.firmware); });
  }
}

std::vector<CpuOperatorRecord> last_execution_cpu_operators(const ProbeSession& probes) {
  const ProbeEngine* engine = probes.engine();
  if (engine == nullptr) return {};  // --no-probes, or a core without a retire trace
  const RegionProbes& regions = engine->regions();
  // The window of the last `execute` occurrence.
  const RegionOccurrence* last = nullptr;
  for (size_t i = 0; i < regions.size(); ++i) {
    if (regions.def(i).name == "execute" && !regions.stats(i).occurrences.empty()) {
      last = &regions.stats(i).occurrences.back();
    }
  }
  if (last == nullptr) return {};
  std::vector<std::pair<uint64_t, CpuOperatorRecord>> calls;
  for (size_t i = 0; i < regions.size(); ++i) {
    const RegionDef& def = regions.def(i);
    if (def.category != "operator") continue;
    const std::string op = def.name.substr(def.name.find(' ') + 1);
    for (const RegionOccurrence& o : regions.stats(i).occurrences) {
      if (o.start_cycle < last->start_cycle || o.end_cycle > last->end_cycle) continue;
      CpuOperatorRecord r;
      r.name = def.name;
      r.op_type = op;
      // A quantize reads the float input; the other operators of a quantised program int8.
      const bool float_in = op.rfind("quantize", 0) == 0;
      r.data_type = float_in ? "FLOAT32" : "INT8";
      r.in_shape = r.out_shape = "-";
      r.cpu_cycles = o.cycles();
      calls.emplace_back(o.start_cycle, r);
    }
  }
  std::sort(calls.begin(), calls.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<CpuOperatorRecord> out;
  for (auto& c : calls) out.push_back(std::move(c.second));
  return out;
}

}  // namespace socsim
