#include "models/probe/symbols.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <memory>

namespace socsim {

std::string demangle(const std::string& name) {
  if (name.rfind("_Z", 0) != 0) return name;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && out ? std::string(out.get()) : name;
}

// The name up to the parameter list's opening parenthesis, skipping "(anonymous namespace)".
std::string without_parameters(const std::string& name) {
  size_t depth = 0;
  for (size_t i = 0; i < name.size(); ++i) {
    if (name.compare(i, 21, "(anonymous namespace)") == 0) {
      i += 20;
      continue;
    }
    if (name[i] == '<') ++depth;
    if (name[i] == '>' && depth > 0) --depth;
    if (name[i] == '(' && depth == 0) return name.substr(0, i);
  }
  return name;
}

SymbolMap::SymbolMap(const std::vector<ProbeSymbol>& symbols) : all_(symbols) {
  std::vector<ProbeSymbol> funcs;
  for (const ProbeSymbol& s : symbols) {
    if (s.is_function) funcs.push_back(s);
  }
  // By address; at equal addresses the larger symbol first (aliases of one body).
  std::sort(funcs.begin(), funcs.end(), [](const ProbeSymbol& a, const ProbeSymbol& b) {
    return a.addr != b.addr ? a.addr < b.addr : a.size > b.size;
  });
  for (size_t i = 0; i < funcs.size(); ++i) {
    const ProbeSymbol& s = funcs[i];
    if (!functions_.empty() && functions_.back().addr == s.addr) continue;  // alias
    uint32_t end = s.addr + (s.size ? s.size : 2);
    // A symbol without a size extends to the next function.
    if (s.size == 0 && i + 1 < funcs.size()) end = funcs[i + 1].addr;
    if (!functions_.empty() && functions_.back().end > s.addr) functions_.back().end = s.addr;
    functions_.push_back({demangle(s.name), s.name, s.addr, end});
  }
}

int SymbolMap::lookup(uint32_t pc) const {
  auto it = std::upper_bound(functions_.begin(), functions_.end(), pc,
                             [](uint32_t v, const Function& f) { return v < f.addr; });
  if (it == functions_.begin()) return kUnknown;
  --it;
  return pc < it->end ? static_cast<int>(it - functions_.begin()) : kUnknown;
}

int SymbolMap::function_starting_at(uint32_t addr) const {
  const int i = function_at(addr);
  return i != kUnknown && functions_[i].addr == addr ? i : kUnknown;
}

const std::string& SymbolMap::name_of(int index) const {
  static const std::string unknown = "[unknown]";
  return index == kUnknown ? unknown : functions_.at(index).name;
}

std::optional<uint32_t> SymbolMap::address_of(const std::string& raw_name) const {
  for (const ProbeSymbol& s : all_) {
    if (s.name == raw_name) return s.addr;
  }
  return std::nullopt;
}

std::vector<int> SymbolMap::functions_named(const std::string& name) const {
  std::vector<int> out;
  for (size_t i = 0; i < functions_.size(); ++i) {
    const Function& f = functions_[i];
    if (f.raw == name || f.name == name || without_parameters(f.name) == name) {
      out.push_back(static_cast<int>(i));
    }
  }
  return out;
}

}  // namespace socsim
