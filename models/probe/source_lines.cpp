#include "models/probe/source_lines.h"

#include <elfutils/libdw.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>

namespace socsim {

// Every row of every compile unit's line table, by address. The units' address ranges are
// not used: assembler units can carry ranges from before linker relaxation, which libdw then
// refuses or which claim other units' code; the line tables themselves are exact.
struct SourceLines::Handle {
  struct Row {
    uint32_t addr;
    bool end_sequence;  ///< the first address after a sequence: no line here
    unsigned line;
    uint32_t file;  ///< index in files
  };
  std::vector<Row> rows;
  std::vector<std::string> files;
};

std::unique_ptr<SourceLines> SourceLines::load(const std::string& elf_path) {
  const int fd = ::open(elf_path.c_str(), O_RDONLY);
  if (fd < 0) return nullptr;
  Dwarf* dwarf = dwarf_begin(fd, DWARF_C_READ);
  if (dwarf == nullptr) {
    ::close(fd);
    return nullptr;
  }
  auto handle = std::make_unique<Handle>();
  std::map<std::string, uint32_t> file_index;
  Dwarf_Off offset = 0, next;
  size_t header_size;
  while (dwarf_nextcu(dwarf, offset, &next, &header_size, nullptr, nullptr, nullptr) == 0) {
    Dwarf_Die cu;
    Dwarf_Lines* lines;
    size_t count;
    if (dwarf_offdie(dwarf, offset + header_size, &cu) != nullptr &&
        dwarf_getsrclines(&cu, &lines, &count) == 0) {
      for (size_t i = 0; i < count; ++i) {
        Dwarf_Line* line = dwarf_onesrcline(lines, i);
        Dwarf_Addr addr;
        int lineno = 0;
        bool end = false;
        if (line == nullptr || dwarf_lineaddr(line, &addr) != 0) continue;
        dwarf_lineno(line, &lineno);
        dwarf_lineendsequence(line, &end);
        const char* file = dwarf_linesrc(line, nullptr, nullptr);
        const std::string name = file != nullptr ? file : "???";
        auto it = file_index.emplace(name, static_cast<uint32_t>(handle->files.size())).first;
        if (it->second == handle->files.size()) handle->files.push_back(name);
        handle->rows.push_back({static_cast<uint32_t>(addr), end,
                                lineno > 0 ? static_cast<unsigned>(lineno) : 0u, it->second});
      }
    }
    offset = next;
  }
  dwarf_end(dwarf);
  ::close(fd);
  if (handle->rows.empty()) return nullptr;
  // At one address the end of a sequence sorts first: the row after it starts the next one.
  std::stable_sort(handle->rows.begin(), handle->rows.end(),
                   [](const Handle::Row& a, const Handle::Row& b) {
                     return a.addr != b.addr ? a.addr < b.addr : a.end_sequence > b.end_sequence;
                   });
  std::unique_ptr<SourceLines> out(new SourceLines());
  out->handle_ = std::move(handle);
  return out;
}

SourceLines::~SourceLines() = default;

bool SourceLines::lookup(uint32_t addr, SourceLine* out) const {
  const auto& rows = handle_->rows;
  auto it = std::upper_bound(rows.begin(), rows.end(), addr,
                             [](uint32_t a, const Handle::Row& r) { return a < r.addr; });
  if (it == rows.begin()) return false;
  --it;
  if (it->end_sequence) return false;
  out->file = handle_->files[it->file];
  out->line = it->line;
  return true;
}

}  // namespace socsim
