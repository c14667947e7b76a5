#include "platform/firmware_image.h"

#include <gelf.h>
#include <libelf.h>

#include <algorithm>
#include <cctype>
#include <sstream>

#include "models/common/config.h"
#include "models/common/hex.h"
#include "models/common/input_file.h"

namespace socsim {

namespace {

constexpr unsigned kEmRiscv = 243;

// Two segments (or hex records) that give bytes for one address: which one is loaded would
// depend on the order, so it is an error.
void check_no_overlap(const FirmwareImage& image) {
  std::vector<const FirmwareSegment*> order;
  for (const FirmwareSegment& s : image.segments) order.push_back(&s);
  std::sort(order.begin(), order.end(),
            [](const FirmwareSegment* a, const FirmwareSegment* b) { return a->addr < b->addr; });
  for (size_t i = 1; i < order.size(); ++i) {
    const FirmwareSegment& prev = *order[i - 1];
    const FirmwareSegment& next = *order[i];
    if (uint64_t{prev.addr} + prev.mem_size > next.addr) {
      throw ConfigError(next.where + " at " + hex(next.addr) + " overlaps " + prev.where +
                        " [" + hex(prev.addr) + ", " + hex(uint64_t{prev.addr} + prev.mem_size) +
                        "): two definitions of the same bytes");
    }
  }
}

// `data`: the whole file.
FirmwareImage load_elf(const std::string& path, std::vector<uint8_t>& data) {
  if (elf_version(EV_CURRENT) == EV_NONE) throw ConfigError("libelf is too old");
  Elf* elf = elf_memory(reinterpret_cast<char*>(data.data()), data.size());
  auto fail = [&](const std::string& what) {
    if (elf) elf_end(elf);
    throw ConfigError(path + ": " + what);
  };
  if (elf == nullptr || elf_kind(elf) != ELF_K_ELF) fail("not an ELF file");
  Elf32_Ehdr* ehdr = elf32_getehdr(elf);
  if (ehdr == nullptr) fail("not a 32-bit ELF file (socsim simulates RV32)");
  if (ehdr->e_machine != kEmRiscv) fail("not a RISC-V ELF file (e_machine " +
                                        std::to_string(ehdr->e_machine) + ")");
  if (ehdr->e_ident[EI_DATA] != ELFDATA2LSB) fail("not a little-endian ELF file");

  FirmwareImage image;
  image.path = path;
  image.is_elf = true;
  image.entry = ehdr->e_entry;

  size_t file_size = 0;
  const char* raw = elf_rawfile(elf, &file_size);
  size_t phnum = 0;
  if (elf_getphdrnum(elf, &phnum) != 0) fail("cannot read program headers");
  if (phnum > 0 && ehdr->e_phentsize != sizeof(Elf32_Phdr)) {
    fail("program header entries of " + std::to_string(ehdr->e_phentsize) +
         " bytes (e_phentsize), expected " + std::to_string(sizeof(Elf32_Phdr)));
  }
  if (phnum > 0 && elf32_getphdr(elf) == nullptr) fail("cannot read program headers");
  for (size_t i = 0; i < phnum; ++i) {
    // A copy: the table lies in the file's bytes wherever e_phoff says, aligned or not.
    GElf_Phdr p;
    if (gelf_getphdr(elf, static_cast<int>(i), &p) == nullptr) fail("cannot read program headers");
    if (p.p_type != PT_LOAD || p.p_memsz == 0) continue;
    if (p.p_filesz > p.p_memsz) fail("segment " + std::to_string(i) + ": file size > memory size");
    if (p.p_offset > file_size || p.p_filesz > file_size - p.p_offset) {
      fail("segment " + std::to_string(i) + " at " + hex(p.p_paddr) +
           " extends past the end of the file (truncated?)");
    }
    if (static_cast<uint64_t>(p.p_paddr) + p.p_memsz > 0x100000000ull) {
      fail("segment " + std::to_string(i) + " at " + hex(p.p_paddr) + " wraps the address space");
    }
    FirmwareSegment seg;
    seg.addr = static_cast<uint32_t>(p.p_paddr);
    seg.bytes.assign(raw + p.p_offset, raw + p.p_offset + p.p_filesz);
    seg.mem_size = p.p_memsz;
    seg.where = "segment " + std::to_string(i);
    image.segments.push_back(std::move(seg));
  }
  if (image.segments.empty()) fail("no loadable segment");
  try {
    check_no_overlap(image);
  } catch (const ConfigError& e) {
    fail(e.what());
  }

  // Symbols, for probes and profiles.
  Elf_Scn* scn = nullptr;
  while ((scn = elf_nextscn(elf, scn)) != nullptr) {
    GElf_Shdr shdr;
    if (gelf_getshdr(scn, &shdr) == nullptr || shdr.sh_type != SHT_SYMTAB) continue;
    Elf_Data* data = elf_getdata(scn, nullptr);
    if (data == nullptr || shdr.sh_entsize == 0) continue;
    const size_t count = shdr.sh_size / shdr.sh_entsize;
    for (size_t i = 0; i < count; ++i) {
      GElf_Sym sym;
      if (gelf_getsym(data, static_cast<int>(i), &sym) == nullptr) continue;
      const int type = GELF_ST_TYPE(sym.st_info);
      if (type != STT_FUNC && type != STT_OBJECT && type != STT_NOTYPE) continue;
      const char* name = elf_strptr(elf, shdr.sh_link, sym.st_name);
      if (name == nullptr || *name == '\0' || sym.st_shndx == SHN_UNDEF) continue;
      image.symbols.push_back({name, static_cast<uint32_t>(sym.st_value),
                               static_cast<uint32_t>(sym.st_size), type == STT_FUNC});
    }
  }
  elf_end(elf);
  return image;
}

FirmwareImage load_hex(const std::string& path, std::istream& in) {
  FirmwareImage image;
  image.path = path;
  FirmwareSegment* current = nullptr;
  uint64_t next_addr = 0;
  std::string line;
  size_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    std::istringstream tokens(line);
    std::string tok;
    while (tokens >> tok) {
      if (tok[0] == '@') {
        // As $readmemh reads it (IEEE 1800-2017, 21.4): '@' and hex digits, no "0x" (strtoull
        // would take one), no sign or space. The address counts the file's words, which are
        // bytes here: each data token is one byte, as `objcopy -O verilog` writes them.
        const std::string digits = tok.substr(1);
        if (digits.empty() ||
            digits.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) {
          throw ConfigError(path + ":" + std::to_string(line_no) + ": bad address '" + tok +
                            "': expected '@' and hex digits only (a byte address, no 0x)");
        }
        const size_t significant =
            digits.size() - std::min(digits.find_first_not_of('0'), digits.size());
        const unsigned long long addr =
            significant > 8 ? ~0ull : std::strtoull(digits.c_str(), nullptr, 16);
        if (addr > 0xFFFFFFFFull) {
          throw ConfigError(path + ":" + std::to_string(line_no) + ": bad address '" + tok +
                            "': beyond 0xffffffff");
        }
        image.segments.push_back({static_cast<uint32_t>(addr), {}, 0,
                                  "line " + std::to_string(line_no)});
        current = &image.segments.back();
        next_addr = addr;
        continue;
      }
      if (tok.size() != 2 || !std::isxdigit(static_cast<unsigned char>(tok[0])) ||
          !std::isxdigit(static_cast<unsigned char>(tok[1]))) {
        throw ConfigError(path + ":" + std::to_string(line_no) + ": expected a hex byte, got '" +
                          tok + "'");
      }
      if (current == nullptr) {
        image.segments.push_back({0, {}, 0, "line " + std::to_string(line_no)});
        current = &image.segments.back();
      }
      if (next_addr > 0xFFFFFFFFull) {
        throw ConfigError(path + ":" + std::to_string(line_no) + ": data past 0xffffffff");
      }
      current->bytes.push_back(static_cast<uint8_t>(std::stoul(tok, nullptr, 16)));
      ++next_addr;
    }
  }
  std::vector<FirmwareSegment> nonempty;
  for (auto& s : image.segments) {
    s.mem_size = s.bytes.size();
    if (!s.bytes.empty()) nonempty.push_back(std::move(s));
  }
  image.segments = std::move(nonempty);
  if (image.segments.empty()) throw ConfigError(path + ": no data in the hex file");
  try {
    check_no_overlap(image);
  } catch (const ConfigError& e) {
    throw ConfigError(path + ": " + e.what());
  }
  image.entry = image.segments.front().addr;
  return image;
}

}  // namespace

FirmwareImage load_firmware_image(const std::string& path) {
  std::vector<uint8_t> data = read_input_file(path, kMaxFirmwareFileBytes, "firmware file");
  if (data.size() >= 4 && data[0] == 0x7f && data[1] == 'E' && data[2] == 'L' && data[3] == 'F') {
    return load_elf(path, data);
  }
  std::istringstream in(std::string(data.begin(), data.end()));
  return load_hex(path, in);
}

}  // namespace socsim
