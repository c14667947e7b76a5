// The firmware's code symbols, for attributing program counters to functions and for
// resolving probe specifications (`name=function`, `name=start..end`) to addresses.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace socsim {

/// One ELF symbol as the probes need it (the platform converts its ELF reader's output).
struct ProbeSymbol {
  std::string name;  ///< as in the symbol table (C++ names mangled)
  uint32_t addr = 0;
  uint32_t size = 0;
  bool is_function = false;
};

/// Demangles a C++ symbol name; other names are returned unchanged.
std::string demangle(const std::string& name);
/// A demangled name without its parameter list: "ns::f(int) const" -> "ns::f".
std::string without_parameters(const std::string& name);

class SymbolMap {
 public:
  static constexpr int kUnknown = -1;

  struct Function {
    std::string name;  ///< demangled
    std::string raw;   ///< as in the symbol table
    uint32_t addr = 0;
    uint32_t end = 0;  ///< one past the last byte
  };

  SymbolMap() = default;
  explicit SymbolMap(const std::vector<ProbeSymbol>& symbols);

  /// Index of the function whose code contains `pc`, or kUnknown.
  int function_at(uint32_t pc) const {
    if (last_ >= 0 && pc >= functions_[last_].addr && pc < functions_[last_].end) return last_;
    last_ = lookup(pc);
    return last_;
  }
  /// Index of the function that starts exactly at `addr`, or kUnknown.
  int function_starting_at(uint32_t addr) const;
  const Function& function(int index) const { return functions_.at(index); }
  size_t function_count() const { return functions_.size(); }
  /// "name" of a function index, "[unknown]" for kUnknown.
  const std::string& name_of(int index) const;

  /// Address of a symbol by its raw name (any type).
  std::optional<uint32_t> address_of(const std::string& raw_name) const;
  /// Functions whose raw name, demangled name, or demangled name without its parameter
  /// list equals `name`.
  std::vector<int> functions_named(const std::string& name) const;

 private:
  int lookup(uint32_t pc) const;

  std::vector<Function> functions_;  ///< sorted by address, non-overlapping
  std::vector<ProbeSymbol> all_;
  mutable int last_ = kUnknown;
};

}  // namespace socsim
