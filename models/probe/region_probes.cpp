#include "models/probe/region_probes.h"

#include <algorithm>

#include "firmware/abi/runtime_probe_abi.h"
#include "models/common/config.h"

namespace socsim {

void RegionStats::add(const RegionOccurrence& o) {
  const uint64_t c = o.cycles();
  min_cycles = count == 0 ? c : std::min(min_cycles, c);
  max_cycles = count == 0 ? c : std::max(max_cycles, c);
  ++count;
  cycles += c;
  instructions += o.instructions;
  if (o.elements >= 0) {
    elements += static_cast<uint64_t>(o.elements);
    has_elements = true;
  }
  if (occurrences.size() < kMaxOccurrences) {
    occurrences.push_back(o);
  } else {
    truncated = true;
  }
}

namespace {

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  const size_t e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

uint32_t resolve_address(const std::string& text, const SymbolMap& symbols,
                         const std::string& where) {
  if (auto sym = symbols.address_of(text)) return *sym;
  if (text.rfind("0x", 0) == 0 || text.rfind("0X", 0) == 0) {
    if (auto v = parse_u64(text); v && *v <= 0xFFFFFFFFull) return static_cast<uint32_t>(*v);
  }
  const std::vector<int> f = symbols.functions_named(text);
  if (f.size() == 1) return symbols.function(f[0]).addr;
  throw ConfigError(where + ": no symbol '" + text + "' in the firmware");
}

}  // namespace

RegionDef parse_region_spec(const std::string& name, const std::string& spec_text,
                            const SymbolMap& symbols, const std::string& where) {
  const std::string spec = trim(spec_text);
  if (trim(name).empty()) throw ConfigError(where + ": a probe needs a name (name=spec)");
  if (spec.empty()) throw ConfigError(where + ": probe '" + name + "' has an empty spec");
  RegionDef def;
  def.name = trim(name);
  def.category = "user";
  def.spec = spec;
  def.always_report = true;
  const size_t dots = spec.find("..");
  if (dots != std::string::npos) {
    def.trigger = RegionTrigger::kRange;
    def.start = resolve_address(trim(spec.substr(0, dots)), symbols, where);
    def.end = resolve_address(trim(spec.substr(dots + 2)), symbols, where);
    if (def.end <= def.start) {
      throw ConfigError(where + ": probe '" + name + "': the range '" + spec + "' is empty");
    }
    return def;
  }
  def.trigger = RegionTrigger::kFunction;
  def.functions = symbols.functions_named(spec);
  if (def.functions.empty()) {
    throw ConfigError(where + ": probe '" + name + "': no function '" + spec +
                      "' in the firmware (use start..end for a symbol range)");
  }
  return def;
}

RegionProbes::RegionProbes(const SymbolMap& symbols, MemoryPeek peek)
    : symbols_(symbols), peek_(std::move(peek)) {}

size_t RegionProbes::add(const RegionDef& def) {
  for (const RegionDef& d : defs_) {
    if (d.name == def.name) throw ConfigError("two probes are named '" + def.name + "'");
  }
  const size_t i = defs_.size();
  defs_.push_back(def);
  stats_.emplace_back();
  state_.emplace_back();
  switch (def.trigger) {
    case RegionTrigger::kRange:
      ranges_.push_back(i);
      boundaries_.push_back(def.start);
      boundaries_.push_back(def.end);
      break;
    case RegionTrigger::kFirst:
      firsts_.push_back(i);
      boundaries_.push_back(def.start);
      boundaries_.push_back(uint64_t{def.start} + 1);
      break;
    case RegionTrigger::kFunction:
      for (int f : def.functions) by_function_[f].push_back(i);
      break;
    case RegionTrigger::kMark:
      by_mark_[def.mark_id] = i;
      break;
  }
  std::sort(boundaries_.begin(), boundaries_.end());
  boundaries_.erase(std::unique(boundaries_.begin(), boundaries_.end()), boundaries_.end());
  calm_size_ = 0;
  return i;
}

void RegionProbes::name_mark(uint32_t id, const std::string& name) {
  mark_names_[id] = name;
}

size_t RegionProbes::mark_region(uint32_t id) {
  auto it = by_mark_.find(id);
  if (it != by_mark_.end()) return it->second;
  RegionDef def;
  auto named = mark_names_.find(id);
  def.name = named != mark_names_.end() ? named->second : "mark " + std::to_string(id);
  def.category = "mark";
  def.spec = "probe register id " + std::to_string(id);
  def.trigger = RegionTrigger::kMark;
  def.mark_id = id;
  return add(def);
}

void RegionProbes::open(size_t i, uint64_t cycle, uint64_t order, unsigned depth,
                        int64_t elements) {
  OpenState& s = state_[i];
  s.open = true;
  s.depth = depth;
  s.start_cycle = cycle;
  s.start_order = order;
  s.elements = elements;
}

void RegionProbes::close(size_t i, uint64_t cycle, uint64_t order) {
  OpenState& s = state_[i];
  if (!s.open) return;
  s.open = false;
  RegionOccurrence o;
  o.start_cycle = s.start_cycle;
  o.end_cycle = std::max(cycle, s.start_cycle);
  o.instructions = order > s.start_order ? order - s.start_order : 0;
  o.elements = s.elements;
  stats_[i].add(o);
}

void RegionProbes::on_record(const RetireRecord& r, uint64_t prev_cycle, unsigned depth) {
  for (size_t i : firsts_) {
    if (r.pc == defs_[i].start && stats_[i].count == 0 && !state_[i].open) {
      open(i, 0, 0, 0, -1);
      close(i, r.cycle, r.order + 1);
    }
  }
  for (size_t i : ranges_) {
    const bool inside = r.pc >= defs_[i].start && r.pc < defs_[i].end;
    OpenState& s = state_[i];
    if (s.open && !inside && depth <= s.depth) close(i, prev_cycle, r.order);
    if (!s.open && inside) open(i, prev_cycle, r.order, depth, -1);
  }
  update_calm(r.pc, depth);
}

void RegionProbes::update_calm(uint32_t pc, unsigned depth) {
  const auto above = std::upper_bound(boundaries_.begin(), boundaries_.end(), uint64_t{pc});
  const uint64_t start = above == boundaries_.begin() ? 0 : *(above - 1);
  const uint64_t end = above == boundaries_.end() ? uint64_t{1} << 32 : *above;
  calm_start_ = static_cast<uint32_t>(start);
  calm_size_ = end - start;
  calm_depth_ = depth;
}

void RegionProbes::after_record(const RetireRecord& r) {
  if (mark_size_ == 0 || !r.mem_valid || !r.mem_write) return;
  if (r.mem_addr < mark_base_ || r.mem_addr - mark_base_ >= mark_size_) return;
  on_mark((r.mem_addr - mark_base_) & ~3u, r.mem_data, r.cycle, r.order + 1);
}

void RegionProbes::on_mark(uint32_t offset, uint32_t value, uint64_t cycle, uint64_t order) {
  if (offset == 0) {  // BEGIN id
    const size_t i = mark_region(value);
    OpenState& s = state_[i];
    if (s.nesting++ == 0) {
      open(i, cycle, order, 0, -1);
      open_marks_.push_back(i);
    }
  } else if (offset == 4) {  // END id
    auto it = by_mark_.find(value);
    if (it == by_mark_.end() || state_[it->second].nesting == 0) {
      ++unmatched_marks_;
      return;
    }
    const size_t i = it->second;
    if (--state_[i].nesting == 0) {
      close(i, cycle, order);
      open_marks_.erase(std::find(open_marks_.begin(), open_marks_.end(), i));
    }
  } else if (offset == 8) {  // VALUE: elements of the innermost open mark
    if (!open_marks_.empty()) state_[open_marks_.back()].elements = value;
  }
}

bool RegionProbes::peek_tensor_numel(uint32_t tensor, int64_t* numel) const {
  using namespace runtime_abi;
  uint32_t rank = 0;
  if (!peek_ || !peek_(tensor + kTensorRank, &rank) || rank > kMaxRank) return false;
  uint64_t n = 1;
  for (uint32_t d = 0; d < rank; ++d) {
    uint32_t size = 0;
    if (!peek_(tensor + kTensorSizes + 4 * d, &size)) return false;
    n *= size;
  }
  *numel = static_cast<int64_t>(n);
  return true;
}

int64_t RegionProbes::read_elements(ElementSource source, const uint32_t* regs) const {
  using namespace runtime_abi;
  uint32_t outputs = 0, tensor = 0;
  int64_t numel = -1;
  switch (source) {
    case ElementSource::kNone:
      return -1;
    case ElementSource::kKernelArgs:
      if (!peek_ || !peek_(regs[kA0] + kKernelArgsOutputs, &outputs)) return -1;
      if (!peek_(outputs, &tensor)) return -1;
      break;
    case ElementSource::kDelegateArgs:
      if (!peek_ || !peek_(regs[kA2] + 4 * regs[kA3], &tensor)) return -1;
      break;
  }
  return peek_tensor_numel(tensor, &numel) ? numel : -1;
}

void RegionProbes::on_enter(const CallFrame& frame, const uint32_t* regs) {
  auto it = by_function_.find(frame.function);
  if (it == by_function_.end() || frame.entry_pc != symbols_.function(frame.function).addr) {
    return;
  }
  for (size_t i : it->second) {
    if (state_[i].open || (defs_[i].to_end && stats_[i].count > 0)) continue;
    open(i, frame.start_cycle, frame.start_order, frame.depth,
         read_elements(defs_[i].elements, regs));
    if (!defs_[i].to_end) open_functions_.push_back(i);
  }
}

void RegionProbes::on_leave(const CallFrame& frame, uint64_t end_cycle, uint64_t end_order,
                            bool tail_call) {
  // A tail call keeps the region open: the callee returns in the caller's place.
  if (tail_call) return;
  for (size_t k = open_functions_.size(); k-- > 0;) {
    const size_t i = open_functions_[k];
    if (state_[i].depth < frame.depth) continue;
    close(i, end_cycle, end_order);
    open_functions_.erase(open_functions_.begin() + static_cast<std::ptrdiff_t>(k));
  }
}

void RegionProbes::finish(uint64_t end_cycle, uint64_t end_order) {
  for (size_t i = 0; i < defs_.size(); ++i) {
    if (state_[i].open) close(i, end_cycle, end_order);
  }
}

}  // namespace socsim
