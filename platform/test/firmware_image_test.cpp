// Hex images (objcopy -O verilog format) and ELF error handling.
#include "platform/firmware_image.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <unistd.h>
#include <fstream>

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
