// SoC YAML: the shipped presets load; bad files fail naming file, line and key.
#include "platform/soc_config.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "models/ddr/ddr_config.h"
#include "models/npu/npu_config.h"

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
  EXPECT_EQ(c.find_region("debug_area")->u64("offset"), 0x3FC000u);
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

// ---- bad input that used to pass or crash (each from its reproducer) ------------------------

namespace socsim {
namespace {

const char* kRamAndExit = R"(cpu: {clock_mhz: 100}
memory_map:
  ram: {type: sram, base: 0, size: 4MiB}
  exit: {type: exit, base: 0x20000000, size: 4KiB}
)";

TEST(SocConfigHardening, AliasOffsetCannotWrapPastItsRegion) {
  // offset + size wrapped the 64-bit check and gave firmware host memory before the SRAM.
  std::string msg = error_of(std::string(kRamAndExit) +
                             "  dbg: {type: alias, of: ram, offset: 0xFFFFFFFFFFFFF000, "
                             "base: 0x1A110800, size: 16KiB}\n");
  EXPECT_NE(msg.find("memory_map.dbg.offset"), std::string::npos) << msg;
  EXPECT_NE(msg.find("must be in 0..0xFFFFFFFF"), std::string::npos) << msg;
  msg = error_of(std::string(kRamAndExit) +
                 "  dbg: {type: alias, of: ram, offset: 0xFFFFF000, base: 0x1A110800, "
                 "size: 16KiB}\n");
  EXPECT_NE(msg.find("does not fit in region 'ram'"), std::string::npos) << msg;
  EXPECT_EQ(error_of(std::string(kRamAndExit) +
                     "  dbg: {type: alias, of: ram, offset: 0x3FC000, base: 0x1A110800, "
                     "size: 16KiB}\n"),
            "");
}

TEST(SocConfigHardening, ClocksHaveDocumentedRanges) {
  // timer_mhz 1e308 divided by zero in the timer; clock_mhz 1e-12 misreported the cycles.
  std::string msg = error_of(std::string(kRamAndExit) +
                             "  timer: {type: clint, base: 0x02000000, size: 64KiB, timer_mhz: "
                             "1e308}\n");
  EXPECT_NE(msg.find("memory_map.timer.timer_mhz': must be a number in [0.001, 10000]"),
            std::string::npos)
      << msg;
  msg = error_of(kRamAndExit, {"cpu.clock_mhz=1e-12"});
  EXPECT_NE(msg.find("command line --set cpu.clock_mhz=1e-12: key 'cpu.clock_mhz': must be a "
                     "number in [1, 10000]"),
            std::string::npos)
      << msg;
}

TEST(SocConfigHardening, DuplicateKeysAndRegionNamesAreErrors) {
  std::string msg = error_of("cpu: {clock_mhz: 100}\ncpu: {clock_mhz: 200}\nmemory_map:\n"
                             "  ram: {type: sram, base: 0, size: 64KiB}\n");
  EXPECT_NE(msg.find(":2: key 'cpu': duplicate key 'cpu' (first given at line 1)"),
            std::string::npos)
      << msg;
  msg = error_of(std::string(kRamAndExit) + "  ram: {type: sram, base: 0x100000, size: 4KiB}\n");
  EXPECT_NE(msg.find(":5: key 'memory_map.ram': duplicate key 'ram'"), std::string::npos) << msg;
  // Names that become the same firmware macro.
  msg = error_of(std::string(kRamAndExit) + "  ram-a: {type: sram, base: 0x400000, size: 4KiB}\n"
                 "  ram_a: {type: sram, base: 0x500000, size: 4KiB}\n");
  EXPECT_NE(msg.find("both become SOCSIM_REGION_RAM_A_*"), std::string::npos) << msg;
}

TEST(SocConfigHardening, IntegersAreRangeCheckedBefore32BitTruncation) {
  std::string msg = error_of(
      "cpu: {num_mhpmcounters: 4294967296}\nmemory_map:\n  ram: {type: sram, base: 0, size: 64KiB}\n");
  EXPECT_NE(msg.find("cpu.num_mhpmcounters': must be in 0..29, got 0x100000000"),
            std::string::npos)
      << msg;
  msg = error_of(
      "cpu: {}\nmemory_map:\n  ram: {type: sram, base: 0, size: 64KiB, latency_cycles: "
      "4294967296}\n");
  EXPECT_NE(msg.find("memory_map.ram.latency_cycles': must be in 0..10000"), std::string::npos)
      << msg;
  msg = error_of(std::string(kRamAndExit) +
                 "  npu: {type: npu, base: 0x30000000, size: 4KiB, irq: 4294967312}\n"
                 "npu: {preset: " SOCSIM_SOURCE_DIR "/configs/npu/npu-16x16.yaml}\n");
  EXPECT_NE(msg.find("memory_map.npu.irq': must be in 0..31"), std::string::npos) << msg;
}

TEST(SocConfigHardening, HexSizeEndingInBIsHex) {
  const std::string file = write_temp(
      "cpu: {}\nmemory_map:\n  ram: {type: sram, base: 0, size: 0x40000B}\n");
  const SocConfig c = load_soc_config(file, {});
  std::remove(file.c_str());
  EXPECT_EQ(c.find_region("ram")->size, 0x40000Bu);
}

TEST(SocConfigHardening, InterruptLinesAreNotShared) {
  const std::string npu_preset = "npu: {preset: " SOCSIM_SOURCE_DIR "/configs/npu/npu-16x16.yaml}\n";
  const std::string timer = "  timer: {type: clint, base: 0x02000000, size: 64KiB}\n";
  // The timer's line 7 is not a device line the core takes.
  std::string msg = error_of(std::string(kRamAndExit) + timer +
                             "  npu: {type: npu, base: 0x30000000, size: 4KiB, irq: 7}\n" +
                             npu_preset);
  EXPECT_NE(msg.find("irq 7 is not an interrupt line the core takes from a device"),
            std::string::npos)
      << msg;
  msg = error_of(std::string(kRamAndExit) + timer +
                 "  npu0: {type: npu, base: 0x30000000, size: 4KiB, irq: 20}\n"
                 "  npu1: {type: npu, base: 0x30001000, size: 4KiB, irq: 20}\n" + npu_preset);
  EXPECT_NE(msg.find("region 'npu1' drives interrupt line 20, which region 'npu0' (npu) drives "
                     "too"),
            std::string::npos)
      << msg;
  EXPECT_EQ(error_of(std::string(kRamAndExit) + timer +
                     "  npu: {type: npu, base: 0x30000000, size: 4KiB, irq: 11}\n" + npu_preset),
            "");
}

TEST(SocConfigHardening, BootInfoBlockStaysOffTheFirmware) {
  std::string msg = error_of(std::string(kRamAndExit) + "loader: {bootinfo_region: ram}\n");
  EXPECT_NE(msg.find("loader.bootinfo_region': the boot-info block would overwrite the "
                     "firmware"),
            std::string::npos)
      << msg;
  msg = error_of("cpu: {boot_addr: 0x100080}\nmemory_map:\n"
                 "  ram: {type: sram, base: 0, size: 1MiB}\n"
                 "  info: {type: sram, base: 0x100000, size: 4KiB}\n"
                 "loader: {bootinfo_region: info}\n");
  EXPECT_NE(msg.find("boot code at cpu.boot_addr 0x00100080"), std::string::npos) << msg;
  msg = error_of("cpu: {mtvec_addr: 0x100000}\nmemory_map:\n"
                 "  ram: {type: sram, base: 0, size: 1MiB}\n"
                 "  info: {type: sram, base: 0x100000, size: 4KiB}\n"
                 "loader: {bootinfo_region: info}\n");
  EXPECT_NE(msg.find("vectors at cpu.mtvec_addr 0x00100000"), std::string::npos) << msg;
}

TEST(SocConfigHardening, PoolRegionIsAMemoryOtherThanTheRam) {
  std::string msg = error_of(std::string(kRamAndExit) + "loader: {pool_region: ram}\n");
  EXPECT_NE(msg.find("loader.pool_region': the pool cannot be in loader.ram_region 'ram'"),
            std::string::npos)
      << msg;
  msg = error_of(std::string(kRamAndExit) + "loader: {pool_region: exit}\n");
  EXPECT_NE(msg.find("region 'exit' is not a memory"), std::string::npos) << msg;
  msg = error_of(std::string(kRamAndExit) + "loader: {pool_size: 1MiB}\n");
  EXPECT_NE(msg.find("a pool size needs loader.pool_region"), std::string::npos) << msg;
  const SocConfig d = load_soc_config(SOCSIM_SOURCE_DIR "/configs/soc/default.yaml", {});
  EXPECT_EQ(d.loader.pool_region, "ddr");
  EXPECT_EQ(d.loader.pool_size, 0u);
}

TEST(SocConfigHardening, ComplexKeysAndNonUtf8TextAreConfigErrors) {
  std::string msg = error_of(std::string(kRamAndExit) + "? [a, b]\n: 1\n");
  EXPECT_NE(msg.find(":5: a key must be a single plain value"), std::string::npos) << msg;
  msg = error_of(std::string("name: \xff\xfe\n") + kRamAndExit);
  EXPECT_NE(msg.find(":1:7: not UTF-8 text (byte 0xFF)"), std::string::npos) << msg;
}

TEST(SocConfig, SetReachesEveryValueOfTheEffectiveConfiguration) {
  // The DDR preset's timing map and the NPU preset's maps exist only in the presets.
  const SocConfig d = load_soc_config(
      SOCSIM_SOURCE_DIR "/configs/soc/default.yaml",
      {"memory_map.ddr.timing.tRCD=24", "npu.mac_array.rows=16", "npu.alignment.int8.other=32",
       "loader.unmapped=ignore"});
  EXPECT_EQ(d.find_region("ddr")->model_as<DdrConfig>().timing.t_rcd, 24u);
  EXPECT_EQ(d.find_region("npu")->model_as<NpuConfig>().rows, 16u);
  EXPECT_EQ(d.find_region("npu")->model_as<NpuConfig>().alignment[0].other, 32u);
  EXPECT_TRUE(d.loader.lenient_unmapped);
  const std::string msg = error_of(kMinimal, {"cpu.clok_mhz=3"});
  EXPECT_NE(msg.find("command line --set cpu.clok_mhz=3: key 'cpu.clok_mhz': unknown key "
                     "'clok_mhz' (did you mean 'clock_mhz'?)"),
            std::string::npos)
      << msg;
}

TEST(SocConfig, EffectiveConfigurationReadsBackTheSame) {
  for (const char* name : {"default", "corev-verif"}) {
    const SocConfig a = load_soc_config(
        std::string(SOCSIM_SOURCE_DIR "/configs/soc/") + name + ".yaml", {"cpu.hart_id=3"});
    // The plain YAML is a SoC description of the same configuration. Its presets stay named
    // relative to the SoC folder: the copy sits in a folder beside links to the presets.
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(testing::TempDir()) / "effective";
    fs::create_directories(dir / "soc");
    for (const char* presets : {"ddr", "npu"}) {
      std::error_code ignored;
      fs::create_directory_symlink(fs::path(SOCSIM_SOURCE_DIR "/configs") / presets,
                                   dir / presets, ignored);
    }
    const std::string copy = (dir / "soc" / (std::string(name) + ".yaml")).string();
    std::ofstream(copy) << a.yaml_text;
    const SocConfig b = load_soc_config(copy, {});
    EXPECT_EQ(a.yaml_text, b.yaml_text) << name;
    EXPECT_EQ(b.cpu.hart_id, 3u);
    EXPECT_EQ(a.regions.size(), b.regions.size());
  }
}

}  // namespace
}  // namespace socsim
