// SoC YAML: the shipped presets load; bad files fail naming file, line and key.
#include "platform/soc_config.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <unistd.h>
#include <fstream>

namespace socsim {
namespace {

std::string write_temp(const std::string& text) {
  char name[] = "/tmp/socsim_cfg_XXXXXX.yaml";
  const int fd = mkstemps(name, 5);
  std::ofstream(name) << text;
  close(fd);
  return name;
}

std::string error_of(const std::string& text, const std::vector<std::string>& sets = {}) {
  const std::string file = write_temp(text);
  try {
    load_soc_config(file, sets);
  } catch (const ConfigError& e) {
    std::remove(file.c_str());
    return e.what();
  }
  std::remove(file.c_str());
  return "";
}

const char* kMinimal = R"(name: t
cpu: {clock_mhz: 100}
memory_map:
  ram: {type: sram, base: 0, size: 64KiB}
  exit: {type: exit, base: 0x20000000, size: 4KiB}
)";

TEST(SocConfig, ShippedPresetsLoad) {
  SocConfig d = load_soc_config(SOCSIM_SOURCE_DIR "/configs/soc/default.yaml", {});
  EXPECT_EQ(d.cpu.clock_mhz, 400);
  EXPECT_EQ(d.cpu.boot_addr, 0x80u);
  ASSERT_NE(d.find_region("ram"), nullptr);
  EXPECT_EQ(d.find_region("ram")->size, 4u << 20);
  EXPECT_EQ(d.first_of_type("console")->base, 0x10000000u);
  EXPECT_EQ(d.first_of_type("exit")->base, 0x20000000u);
  SocConfig c = load_soc_config(SOCSIM_SOURCE_DIR "/configs/soc/corev-verif.yaml", {});
  EXPECT_TRUE(c.loader.lenient_unmapped);
  EXPECT_TRUE(c.corev_end_line);
  EXPECT_EQ(c.find_region("debug_area")->alias_offset, 0x3FC000u);
  EXPECT_EQ(c.cpu.fetch_wrap, 4u << 20);
  EXPECT_EQ(d.cpu.fetch_wrap, 0u);
}

TEST(SocConfig, FetchWrapMustBeAPowerOfTwo) {
  const std::string map = "memory_map:\n  ram: {type: sram, base: 0, size: 64KiB}\n";
  EXPECT_EQ(error_of("cpu: {fetch_wrap: 64KiB}\n" + map), "");
  const std::string e = error_of("cpu: {fetch_wrap: 3000}\n" + map);
  EXPECT_NE(e.find("cpu.fetch_wrap"), std::string::npos) << e;
  EXPECT_NE(e.find("power of two"), std::string::npos) << e;
}

TEST(SocConfig, OverridesApply) {
  SocConfig d = load_soc_config(SOCSIM_SOURCE_DIR "/configs/soc/default.yaml",
                                {"cpu.clock_mhz=200", "memory_map.ram.size=8MiB"});
  EXPECT_EQ(d.cpu.clock_mhz, 200);
  EXPECT_EQ(d.find_region("ram")->size, 8u << 20);
}

TEST(SocConfig, MinimalLoads) { EXPECT_EQ(error_of(kMinimal), ""); }

TEST(SocConfig, UnknownKeyIsNamedWithItsLine) {
  const std::string msg = error_of(std::string(kMinimal) + "bogus: 1\n");
  EXPECT_NE(msg.find(":6: key 'bogus'"), std::string::npos) << msg;
  const std::string msg2 = error_of("name: t\ncpu: {clock_mhz: 100, clok: 3}\nmemory_map:\n"
                                    "  ram: {type: sram, base: 0, size: 64KiB}\n");
  EXPECT_NE(msg2.find("cpu.clok"), std::string::npos) << msg2;
}

TEST(SocConfig, OverlapsAreErrorsNamingBothRegions) {
  const std::string msg = error_of(std::string(kMinimal) + "  rom: {type: rom, base: 0x8000, size: 64KiB}\n");
  EXPECT_NE(msg.find("'rom'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("overlaps region 'ram'"), std::string::npos) << msg;
}

TEST(SocConfig, BadSizesAndTypes) {
  EXPECT_NE(error_of("cpu: {}\nmemory_map:\n  ram: {type: sram, base: 0, size: 0}\n")
                .find("memory_map.ram.size"),
            std::string::npos);
  EXPECT_NE(error_of("cpu: {}\nmemory_map:\n  ram: {type: sram, base: 0, size: lots}\n")
                .find("expected a size"),
            std::string::npos);
  EXPECT_NE(error_of("cpu: {}\nmemory_map:\n  ram: {type: flash, base: 0, size: 4KiB}\n")
                .find("unknown region type 'flash'"),
            std::string::npos);
  EXPECT_NE(error_of("cpu: {}\nmemory_map:\n  ram: {type: sram, base: 0xFFFFF000, size: 8KiB}\n")
                .find("does not fit"),
            std::string::npos);
}

TEST(SocConfig, BootAddressMustBeInMemory) {
  const std::string msg = error_of(
      "cpu: {boot_addr: 0x10000}\nmemory_map:\n  ram: {type: sram, base: 0, size: 4KiB}\n");
  EXPECT_NE(msg.find("cpu.boot_addr"), std::string::npos) << msg;
}

TEST(SocConfig, SyntaxErrorNamesTheLine) {
  const std::string msg = error_of("cpu: {clock_mhz: 100\nmemory_map: {}\n");
  EXPECT_NE(msg.find("YAML syntax error"), std::string::npos) << msg;
}

TEST(SocConfig, BadOverrideIsNamed) {
  const std::string msg = error_of(kMinimal, {"cpu.clock_mhz=fast"});
  EXPECT_NE(msg.find("--set"), std::string::npos) << msg;
  EXPECT_NE(msg.find("cpu.clock_mhz"), std::string::npos) << msg;
}

}  // namespace
}  // namespace socsim
