#include "models/probe/probe_engine.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "firmware/abi/runtime_probe_abi.h"
#include "models/common/json_text.h"

namespace socsim {

ProbeEngine::ProbeEngine(std::vector<ProbeSymbol> symbols, MemoryPeek peek, bool profile)
    : symbols_(symbols), stack_(symbols_), regions_(symbols_, std::move(peek)) {
  stack_.add_listener(&regions_);
  if (profile) {
    profile_ = std::make_unique<FunctionProfile>(symbols_, stack_);
    stack_.add_listener(profile_.get());
  }
}

namespace {

// "socsim::kernels::(anonymous namespace)::add_i8(...)" -> "kernels::add_i8"
std::string short_name(const std::string& demangled) {
  std::string s = without_parameters(demangled);
  for (const char* drop : {"(anonymous namespace)::", "socsim::"}) {
    for (size_t at; (at = s.find(drop)) != std::string::npos;)
      s.erase(at, std::string(drop).size());
  }
  return s;
}

std::string last_component(const std::string& name) {
  const size_t at = name.rfind("::");
  return at == std::string::npos ? name : name.substr(at + 2);
}

}  // namespace

void ProbeEngine::add_builtin_regions() {
  auto phase = [&](RegionDef def) {
    def.category = "phase";
    def.always_report = true;
    regions_.add(def);
  };
  auto range = [&](const char* name, const char* start, const char* end) {
    auto s = symbols_.address_of(start);
    auto e = symbols_.address_of(end);
    if (!s || !e || *e < *s) return;
    RegionDef def;
    def.name = name;
    def.spec = std::string(start) + ".." + end;
    def.trigger = RegionTrigger::kRange;
    def.start = *s;
    def.end = *e;
    phase(def);
  };
  auto function = [&](const char* name, const char* func, bool to_end, const char* category,
                      const char* other = nullptr) {
    RegionDef def;
    def.functions = symbols_.functions_named(func);
    if (other != nullptr) {  // the same phase of the other program format
      for (int f : symbols_.functions_named(other)) def.functions.push_back(f);
    }
    if (def.functions.empty()) return false;
    def.name = name;
    def.spec = func;
    def.trigger = RegionTrigger::kFunction;
    def.to_end = to_end;
    if (category == nullptr) {
      phase(def);
    } else {
      def.category = category;
      def.always_report = true;
      regions_.add(def);
    }
    return true;
  };

  if (auto start = symbols_.address_of("_start")) {
    RegionDef def;
    def.name = "reset -> _start";
    def.spec = "reset.._start (first retire)";
    def.trigger = RegionTrigger::kFirst;
    def.start = *start;
    phase(def);
  }
  range("data copy", "__socsim_data_copy", "__socsim_data_copy_end");
  range("bss zero", "__socsim_bss_zero", "__socsim_bss_zero_end");
  range("ddr bss zero", "__socsim_ddr_bss_zero", "__socsim_ddr_bss_zero_end");
  function("static init", "__socsim_init_array", false, nullptr);
  function("main to exit", "main", true, nullptr);

  using namespace runtime_abi;
  function("program load", kProgramLoad, false, "runtime", kPteProgramLoad);
  function("method load", kMethodLoad, false, "runtime", kPteMethodLoad);
  function("delegate init", kDelegateInit, false, "runtime", kPteDelegateInit);
  function("kernel resolve", kKernelResolve, false, "runtime", kPteKernelResolve);
  if (!function("execute", kExecute, false, "runtime", kPteExecute)) return;
  for (size_t i = 0; i < symbols_.function_count(); ++i) {
    const std::string& name = symbols_.function(static_cast<int>(i)).name;
    RegionDef def;
    // Template instances (binary_i8<...>) are helpers a registered kernel calls or jumps to;
    // the kernel's own region already covers them.
    const std::string base = without_parameters(name);
    if (!base.empty() && base.back() == '>') continue;
    if (name.find(kKernelParameters) != std::string::npos) {
      def.name = "operator " + last_component(short_name(name));
      def.category = "operator";
      def.elements = ElementSource::kKernelArgs;
    } else if (name.find(kDelegateParameters) != std::string::npos &&
               name.rfind("socsim::runtime::", 0) != 0) {
      def.name = "delegate " + short_name(name);
      def.category = "delegate";
      def.elements = ElementSource::kDelegateArgs;
    } else {
      continue;
    }
    def.spec = name;
    def.trigger = RegionTrigger::kFunction;
    def.functions = {static_cast<int>(i)};
    for (size_t k = 0; k < regions_.size(); ++k) {
      if (regions_.def(k).name == def.name) def.name += " @" + std::to_string(i);
    }
    regions_.add(def);
  }
}

void ProbeEngine::on_retire(const RetireRecord& r) {
  if (!profile_ && stack_.plain(r) && regions_.quiet(r, stack_.depth())) {
    // Most instructions: no call, return, trap, region boundary or mark, so the stack and
    // the regions only note the register write and where execution goes next. Kept apart
    // from retire() so that this path saves no registers and calls nothing.
    stack_.retire_plain(r);
    last_cycle_ = r.cycle;
    last_pc_ = r.pc;
    retired_ = r.order + 1;
    return;
  }
  retire(r);
}

void ProbeEngine::retire(const RetireRecord& r) {
  const uint64_t prev = last_cycle_;
  if (stack_.plain(r) && regions_.quiet(r, stack_.depth())) {
    if (profile_) profile_->on_instruction(r.pc, r.cycle - prev);
    stack_.retire_plain(r);
  } else {
    stack_.before(r, prev);
    regions_.on_record(r, prev, stack_.depth());
    if (profile_) profile_->on_instruction(r.pc, r.cycle - prev);
    stack_.after(r);
    regions_.after_record(r);
  }
  last_cycle_ = r.cycle;
  last_pc_ = r.pc;
  retired_ = r.order + 1;
}

void ProbeEngine::finish(uint64_t run_cycles) {
  if (finished_) return;
  finished_ = true;
  if (run_cycles > last_cycle_ && retired_ > 0) {
    if (profile_) profile_->on_idle(last_pc_, run_cycles - last_cycle_);
    last_cycle_ = run_cycles;
  }
  stack_.finish(last_cycle_, retired_);
  regions_.finish(last_cycle_, retired_);
}

namespace {

bool listed(const RegionDef& def, const RegionStats& s) {
  return def.always_report || s.count > 0;
}

std::string time_text(double us) {
  char buf[32];
  if (us >= 1000.0) {
    std::snprintf(buf, sizeof buf, "%.3f ms", us / 1000.0);
  } else {
    std::snprintf(buf, sizeof buf, "%.3f us", us);
  }
  return buf;
}

}  // namespace

void ProbeEngine::print_table(std::ostream& out, const ProbeRunInfo& info) const {
  const double total = last_cycle_ ? static_cast<double>(last_cycle_) : 1.0;
  char line[320];
  out << "\nProbes" << (info.cycles_exact ? "" : " [iss: estimated cycles]") << ": " << last_cycle_
      << " cycles, " << retired_ << " instructions, " << time_text(last_cycle_ / info.clock_mhz)
      << " @ " << info.clock_mhz << " MHz\n";
  std::snprintf(line, sizeof line, "%-32s %7s %12s %10s %10s %12s %6s %12s %6s %10s\n", "region",
                "count", "cycles", "min", "max", "instrs", "CPI", "time", "share", "elements");
  out << line;
  bool marks = false;
  for (size_t i = 0; i < regions_.size(); ++i) {
    const RegionDef& d = regions_.def(i);
    const RegionStats& s = regions_.stats(i);
    if (!listed(d, s)) continue;
    marks = marks || d.category == "mark";
    std::string name = d.name + (d.category == "mark" ? " *" : "");
    if (name.size() > 32) name = name.substr(0, 29) + "...";
    const std::string elements = s.has_elements ? std::to_string(s.elements) : "-";
    std::snprintf(
        line, sizeof line, "%-32s %7llu %12llu %10llu %10llu %12llu %6.2f %12s %5.1f%% %10s\n",
        name.c_str(), static_cast<unsigned long long>(s.count),
        static_cast<unsigned long long>(s.cycles), static_cast<unsigned long long>(s.min_cycles),
        static_cast<unsigned long long>(s.max_cycles),
        static_cast<unsigned long long>(s.instructions),
        s.instructions ? double(s.cycles) / s.instructions : 0.0,
        time_text(s.cycles / info.clock_mhz).c_str(), 100.0 * s.cycles / total, elements.c_str());
    out << line;
  }
  out << "Regions come from the retire trace and cost the firmware no cycles";
  if (marks) out << "; * marks from the probe register cost one store each (END included)";
  out << ".\n";
  if (regions_.unmatched_marks()) {
    out << "warning: " << regions_.unmatched_marks() << " probe END mark(s) without a BEGIN\n";
  }
}

void ProbeEngine::write_json(std::ostream& out, const ProbeRunInfo& info) const {
  nlohmann::json regions = nlohmann::json::array();
  for (size_t i = 0; i < regions_.size(); ++i) {
    const RegionDef& d = regions_.def(i);
    const RegionStats& s = regions_.stats(i);
    if (!listed(d, s)) continue;
    nlohmann::json occ = nlohmann::json::array();
    for (const RegionOccurrence& o : s.occurrences) {
      nlohmann::json j = {{"start_cycle", o.start_cycle},
                          {"end_cycle", o.end_cycle},
                          {"cycles", o.cycles()},
                          {"instructions", o.instructions}};
      j["elements"] = o.elements >= 0 ? nlohmann::json(o.elements) : nlohmann::json(nullptr);
      occ.push_back(j);
    }
    regions.push_back({
        {"name", d.name},
        {"category", d.category},
        {"spec", d.spec},
        {"intrusive", d.category == "mark"},
        {"count", s.count},
        {"cycles", s.cycles},
        {"min_cycles", s.min_cycles},
        {"max_cycles", s.max_cycles},
        {"instructions", s.instructions},
        {"cpi", s.instructions ? double(s.cycles) / s.instructions : 0.0},
        {"time_us", s.cycles / info.clock_mhz},
        {"share", last_cycle_ ? double(s.cycles) / last_cycle_ : 0.0},
        {"elements", s.has_elements ? nlohmann::json(s.elements) : nlohmann::json(nullptr)},
        {"occurrences", occ},
        {"occurrences_truncated", s.truncated},
    });
  }
  nlohmann::json j = {
      {"schema", "socsim-probes/1"},
      {"cpu_model", info.cpu_model},
      {"cycles_exact", info.cycles_exact},
      {"clock_mhz", info.clock_mhz},
      {"firmware", info.firmware},
      {"total_cycles", last_cycle_},
      {"total_instructions", retired_},
      {"unmatched_returns", stack_.unmatched_returns()},
      {"unmatched_marks", regions_.unmatched_marks()},
      {"regions", regions},
  };
  out << json_text(j, 2) << "\n";
}

void ProbeEngine::write_csv(std::ostream& out, const ProbeRunInfo& info) const {
  out << "region,category,count,cycles,min_cycles,max_cycles,instructions,cpi,time_us,share,"
         "elements,cycles_exact\n";
  for (size_t i = 0; i < regions_.size(); ++i) {
    const RegionDef& d = regions_.def(i);
    const RegionStats& s = regions_.stats(i);
    if (!listed(d, s)) continue;
    std::string name = d.name;
    if (name.find_first_of(",\"") != std::string::npos) {
      std::string quoted = "\"";
      for (char c : name) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
      name = quoted + "\"";
    }
    char line[256];
    std::snprintf(line, sizeof line, ",%s,%llu,%llu,%llu,%llu,%llu,%.6f,%.6f,%.6f,",
                  d.category.c_str(), static_cast<unsigned long long>(s.count),
                  static_cast<unsigned long long>(s.cycles),
                  static_cast<unsigned long long>(s.min_cycles),
                  static_cast<unsigned long long>(s.max_cycles),
                  static_cast<unsigned long long>(s.instructions),
                  s.instructions ? double(s.cycles) / s.instructions : 0.0,
                  s.cycles / info.clock_mhz, last_cycle_ ? double(s.cycles) / last_cycle_ : 0.0);
    out << name << line << (s.has_elements ? std::to_string(s.elements) : "") << ","
        << (info.cycles_exact ? "true" : "false") << "\n";
  }
}

}  // namespace socsim
