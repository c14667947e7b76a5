#include "platform/boot_info.h"

#include <gtest/gtest.h>

#include <cstring>

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
  const uint32_t base = 0x03000000;
  std::vector<uint8_t> b = encode_boot_info(info, base, 4096);
  ASSERT_FALSE(b.empty());
  EXPECT_EQ(word(b, 0x00), kBootInfoMagic);
  EXPECT_EQ(word(b, 0x04), 1u);
  EXPECT_EQ(word(b, 0x08), 3u);
  EXPECT_EQ(word(b, 0x0C), base + 0x30);
  EXPECT_EQ(word(b, 0x10), 0x8FF00000u);
  EXPECT_EQ(word(b, 0x14), 1234u);
  EXPECT_EQ(word(b, 0x20), 400000000u);
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

}  // namespace
}  // namespace socsim
