// Hex images (objcopy -O verilog format) and ELF error handling.
#include "platform/firmware_image.h"

#include <gtest/gtest.h>

#include <elf.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

#include "models/common/config.h"

namespace socsim {
namespace {

std::string write_temp(const std::string& text, const char* suffix = ".hex") {
  char name[64];
  std::snprintf(name, sizeof name, "/tmp/socsim_fw_XXXXXX%s", suffix);
  const int fd = mkstemps(name, static_cast<int>(std::strlen(suffix)));
  std::ofstream(name, std::ios::binary) << text;
  close(fd);
  return name;
}

TEST(FirmwareImage, ReadsVerilogHex) {
  const std::string f = write_temp("@00000080\n13 05 00 00 6F 00 00 00\n@00001000\nAA BB\n");
  FirmwareImage img = load_firmware_image(f);
  std::remove(f.c_str());
  ASSERT_EQ(img.segments.size(), 2u);
  EXPECT_EQ(img.segments[0].addr, 0x80u);
  EXPECT_EQ(img.segments[0].bytes.size(), 8u);
  EXPECT_EQ(img.segments[0].bytes[4], 0x6F);
  EXPECT_EQ(img.segments[1].addr, 0x1000u);
  EXPECT_EQ(img.segments[1].bytes[1], 0xBB);
  EXPECT_FALSE(img.is_elf);
}

// A RISC-V ELF32 executable with the given PT_LOAD segments (address, file bytes, memory
// size); `phentsize` as written in the header.
struct TestSegment {
  uint32_t addr;
  uint32_t file_bytes;
  uint32_t mem_size;
};
std::string make_elf(const std::vector<TestSegment>& segments,
                     uint16_t phentsize = sizeof(Elf32_Phdr)) {
  Elf32_Ehdr eh{};
  std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS32;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_type = ET_EXEC;
  eh.e_machine = 243;  // RISC-V
  eh.e_version = EV_CURRENT;
  eh.e_entry = 0x80;
  eh.e_phoff = sizeof(Elf32_Ehdr);
  eh.e_ehsize = sizeof(Elf32_Ehdr);
  eh.e_phentsize = phentsize;
  eh.e_phnum = static_cast<uint16_t>(segments.size());
  std::string out(reinterpret_cast<const char*>(&eh), sizeof eh);
  uint32_t offset = sizeof(Elf32_Ehdr) + segments.size() * sizeof(Elf32_Phdr);
  for (const TestSegment& s : segments) {
    Elf32_Phdr ph{};
    ph.p_type = PT_LOAD;
    ph.p_offset = offset;
    ph.p_vaddr = ph.p_paddr = s.addr;
    ph.p_filesz = s.file_bytes;
    ph.p_memsz = s.mem_size;
    ph.p_flags = PF_R | PF_X;
    out.append(reinterpret_cast<const char*>(&ph), sizeof ph);
    offset += s.file_bytes;
  }
  for (const TestSegment& s : segments) out.append(s.file_bytes, '\x13');
  return out;
}

std::string load_error(const std::string& contents, const char* suffix) {
  const std::string f = write_temp(contents, suffix);
  std::string message;
  try {
    load_firmware_image(f);
  } catch (const ConfigError& e) {
    message = e.what();
  }
  std::remove(f.c_str());
  return message;
}

TEST(FirmwareImage, ElfSegmentsKeepTheirZerosUnallocated) {
  // .bss-like memory sizes are recorded, not filled: 3.5 GiB of memsz costs nothing here.
  const std::string f = write_temp(make_elf({{0x80, 8, 8}, {0x1000, 4, 0xE0000000u}}), ".elf");
  FirmwareImage img = load_firmware_image(f);
  std::remove(f.c_str());
  ASSERT_EQ(img.segments.size(), 2u);
  EXPECT_EQ(img.segments[1].bytes.size(), 4u);
  EXPECT_EQ(img.segments[1].mem_size, 0xE0000000u);
  EXPECT_TRUE(img.is_elf);
}

TEST(FirmwareImage, OverlappingElfSegmentsAreRefused) {
  // Eight segments of 3.75 GiB each (30 GiB in all), every one over the others.
  std::vector<TestSegment> segments;
  for (uint32_t i = 0; i < 8; ++i) segments.push_back({0x1000 * i, 4, 0xF0000000u});
  const std::string message = load_error(make_elf(segments), ".elf");
  EXPECT_NE(message.find("segment 1 at 0x00001000 overlaps segment 0"), std::string::npos)
      << message;
}

TEST(FirmwareImage, BadProgramHeaderEntrySizeIsRefused) {
  const std::string message = load_error(make_elf({{0x80, 8, 8}}, 0), ".elf");
  EXPECT_NE(message.find("e_phentsize"), std::string::npos) << message;
}

TEST(FirmwareImage, ProgramHeadersAtAnUnalignedOffsetAreRead) {
  // Found by fuzz_elf: e_phoff need not be a multiple of 4, and the table was read in place
  // as Elf32_Phdr (undefined behaviour, reported by UBSan in the sanitizer build).
  std::string elf = make_elf({{0x80, 8, 8}, {0x1000, 4, 16}});
  elf.insert(sizeof(Elf32_Ehdr), 2, '\0');
  Elf32_Ehdr eh;
  std::memcpy(&eh, elf.data(), sizeof eh);
  eh.e_phoff += 2;
  std::memcpy(elf.data(), &eh, sizeof eh);
  for (unsigned i = 0; i < eh.e_phnum; ++i) {
    Elf32_Phdr ph;
    const size_t at = eh.e_phoff + i * sizeof ph;
    std::memcpy(&ph, elf.data() + at, sizeof ph);
    ph.p_offset += 2;
    std::memcpy(elf.data() + at, &ph, sizeof ph);
  }
  const std::string f = write_temp(elf, ".elf");
  FirmwareImage img = load_firmware_image(f);
  std::remove(f.c_str());
  ASSERT_EQ(img.segments.size(), 2u);
  EXPECT_EQ(img.segments[0].addr, 0x80u);
  EXPECT_EQ(img.segments[0].bytes, std::vector<uint8_t>(8, 0x13));
  EXPECT_EQ(img.segments[1].addr, 0x1000u);
  EXPECT_EQ(img.segments[1].mem_size, 16u);
}

TEST(FirmwareImage, HexRecordsThatRedefineBytesAreRefused) {
  const std::string message = load_error("@00000080\n13 05 00 00\n@00000082\nAA\n", ".hex");
  EXPECT_NE(message.find("line 3 at 0x00000082 overlaps line 1"), std::string::npos) << message;
}

TEST(FirmwareImage, DevicesAndFoldersAreNotFirmware) {
  for (const char* path : {"/dev/zero", "/tmp"}) {
    try {
      load_firmware_image(path);
      FAIL() << path;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
    }
  }
}

TEST(FirmwareImage, BadHexNamesTheLine) {
  const std::string f = write_temp("@0\n00 11\n22 zz\n");
  try {
    load_firmware_image(f);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(":3: expected a hex byte, got 'zz'"), std::string::npos)
        << e.what();
  }
  std::remove(f.c_str());
}

TEST(FirmwareImage, TruncatedElfIsRefused) {
  // An ELF header that claims RISC-V but stops short.
  std::string bytes("\x7f" "ELF\x01\x01\x01", 7);
  bytes.resize(40, '\0');
  const std::string f = write_temp(bytes, ".elf");
  EXPECT_THROW(load_firmware_image(f), ConfigError);
  std::remove(f.c_str());
}

TEST(FirmwareImage, MissingFileIsNamed) {
  try {
    load_firmware_image("/nonexistent/fw.elf");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/fw.elf"), std::string::npos);
  }
}

}  // namespace
}  // namespace socsim

namespace socsim {
namespace {

TEST(FirmwareImage, HexAddressesAreReadmemhAddresses) {
  // '@' and hex digits, counting the file's words (bytes): "@0x80" is not such an address
  // (strtoull would take it as 0x80; $readmemh would not), nor is "@-1" or "@".
  for (const char* bad : {"@0x80\nAA\n", "@-1\nAA\n", "@\nAA\n", "@80g\nAA\n"}) {
    const std::string message = load_error(bad, ".hex");
    EXPECT_NE(message.find(":1: bad address '@"), std::string::npos) << bad << ": " << message;
  }
  EXPECT_NE(load_error("@100000000\nAA\n", ".hex").find("beyond 0xffffffff"), std::string::npos);
  // Leading zeros are not digits that count.
  const std::string f = write_temp("@00000000000080\nAA\n@ff\nBB\n");
  FirmwareImage img = load_firmware_image(f);
  std::remove(f.c_str());
  ASSERT_EQ(img.segments.size(), 2u);
  EXPECT_EQ(img.segments[0].addr, 0x80u);
  EXPECT_EQ(img.segments[1].addr, 0xFFu);
}

}  // namespace
}  // namespace socsim
