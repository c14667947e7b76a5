// Source lines of code addresses, from an ELF's DWARF line tables (libdw from elfutils): what
// the callgrind profile's fl=/fn= positions and line numbers come from.
#pragma once

#include <cstdint>
#include <memory>
#include <map>
#include <string>
#include <vector>

namespace socsim {

struct SourceLine {
  std::string file;  ///< as recorded by the compiler (absolute when it was compiled so)
  unsigned line = 0;
};

class SourceLines {
 public:
  /// Opens `elf_path`'s DWARF; nullptr when the file has none (no -g, a hex image).
  static std::unique_ptr<SourceLines> load(const std::string& elf_path);
  ~SourceLines();
  SourceLines(const SourceLines&) = delete;
  SourceLines& operator=(const SourceLines&) = delete;

  /// The line whose code contains `addr`; false when no line table covers it.
  bool lookup(uint32_t addr, SourceLine* out) const;

 private:
  SourceLines() = default;
  struct Handle;
  std::unique_ptr<Handle> handle_;
};

}  // namespace socsim
