#include "platform/boot_info.h"

#include <gtest/gtest.h>

#include <cstring>

#include "models/common/config.h"

namespace socsim {
namespace {

uint32_t word(const std::vector<uint8_t>& b, uint32_t off) {
  uint32_t v;
  std::memcpy(&v, b.data() + off, 4);
  return v;
}

TEST(BootInfo, LayoutMatchesTheDocumentedBlock) {
  BootInfo info;
  info.argv = {"app.elf", "--n", "7"};
  info.model_addr = 0x8FF00000;
  info.model_size = 1234;
  info.cpu_clock_hz = 400000000;
  info.pool_addr = 0x80000000;
  info.pool_size = 0x0FF00000;
  const uint32_t base = 0x03000000;
  std::vector<uint8_t> b = encode_boot_info(info, base, 4096);
  ASSERT_FALSE(b.empty());
  EXPECT_EQ(word(b, 0x00), kBootInfoMagic);
  EXPECT_EQ(word(b, 0x04), 2u);
  EXPECT_EQ(word(b, 0x08), 3u);
  EXPECT_EQ(word(b, 0x0C), base + 0x30);
  EXPECT_EQ(word(b, 0x10), 0x8FF00000u);
  EXPECT_EQ(word(b, 0x14), 1234u);
  EXPECT_EQ(word(b, 0x20), 400000000u);
  EXPECT_EQ(word(b, 0x28), 0x80000000u);
  EXPECT_EQ(word(b, 0x2C), 0x0FF00000u);
  for (uint32_t i = 0; i < 3; ++i) {
    const uint32_t p = word(b, 0x30 + 4 * i) - base;
    EXPECT_STREQ(reinterpret_cast<const char*>(b.data() + p), info.argv[i].c_str());
  }
  EXPECT_EQ(word(b, 0x30 + 12), 0u);  // argv[argc] == NULL
}

TEST(BootInfo, TooLargeIsRefused) {
  BootInfo info;
  info.argv = {std::string(5000, 'x')};
  EXPECT_TRUE(encode_boot_info(info, 0, 4096).empty());
}

TEST(BootInfo, PoolIsTheFreePartBelowTheFilesAndAboveTheSegments) {
  const AddressRange ddr{0x80000000, 0x90000000};
  // Nothing used: everything below the files (aligned down to 64 bytes).
  AddressRange pool = place_pool(ddr, 0x8FF00010, {}, 0, "loader.pool_size");
  EXPECT_EQ(pool.begin, 0x80000000u);
  EXPECT_EQ(pool.end, 0x8FF00000u);
  // A firmware segment in the region: the pool starts above it (64-byte aligned); segments
  // outside the region do not matter.
  pool = place_pool(ddr, 0x8FF00000, {{0x80000000, 0x80001001}, {0x0, 0x10000}}, 0, "k");
  EXPECT_EQ(pool.begin, 0x80001040u);
  EXPECT_EQ(pool.end, 0x8FF00000u);
  // A size takes the top of the free part.
  pool = place_pool(ddr, 0x8FF00000, {}, 100, "k");
  EXPECT_EQ(pool.begin, 0x8FF00000u - 128);
  EXPECT_EQ(pool.end, 0x8FF00000u);
}

TEST(BootInfo, PoolThatDoesNotFitNamesTheKey) {
  const AddressRange ddr{0x80000000, 0x80010000};
  try {
    place_pool(ddr, 0x80010000, {{0x80000000, 0x8000F000}}, 8192, "soc.yaml: loader.pool_size");
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "soc.yaml: loader.pool_size: a pool of 8192 bytes does not fit: "
                           "4096 bytes are free in the region");
  }
  EXPECT_EQ(place_pool(ddr, 0x80000000, {}, 0, "k").end, 0u);  // nothing free: no pool
}

}  // namespace
}  // namespace socsim
