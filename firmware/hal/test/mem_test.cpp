// The firmware's memcpy, memmove and memset (firmware/hal/mem.c, built for the host under
// their socsim_ names) against byte-by-byte references: every alignment of destination and
// source within a word pair, every length 0..64, large lengths, overlapping moves in both
// directions, and guard bytes around the destination that must stay untouched.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "firmware/hal/mem.h"

namespace {

constexpr size_t kGuard = 16;
constexpr uint8_t kGuardByte = 0xA5;
const size_t kLargeLengths[] = {255, 1000, 4096, 4096 + 3, 65537};

std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(seed + i * 37 + (i >> 8));
  return v;
}

// A destination buffer whose offset 0 lies kGuard bytes in, on a 16-byte boundary.
struct Destination {
  explicit Destination(size_t n) : bytes(n + 2 * kGuard + 16, kGuardByte) {}
  uint8_t* at(size_t offset) {
    auto base = reinterpret_cast<uintptr_t>(bytes.data()) + kGuard;
    return reinterpret_cast<uint8_t*>((base + 15) & ~uintptr_t{15}) + offset;
  }
  // True when every byte outside [offset, offset + n) still holds the guard value.
  bool guards_intact(size_t offset, size_t n) {
    const uint8_t* first = at(offset);
    for (const uint8_t* p = bytes.data(); p < bytes.data() + bytes.size(); ++p) {
      if ((p < first || p >= first + n) && *p != kGuardByte) return false;
    }
    return true;
  }
  std::vector<uint8_t> bytes;
};

void check_copy(size_t dst_offset, size_t src_offset, size_t n) {
  std::vector<uint8_t> src_buffer = pattern(n + 32, static_cast<uint8_t>(n));
  auto src_base = (reinterpret_cast<uintptr_t>(src_buffer.data()) + 15) & ~uintptr_t{15};
  const uint8_t* src = reinterpret_cast<const uint8_t*>(src_base) + src_offset;
  Destination dst(n + 8);
  void* ret = socsim_memcpy(dst.at(dst_offset), src, n);
  ASSERT_EQ(ret, dst.at(dst_offset));
  ASSERT_EQ(std::memcmp(dst.at(dst_offset), src, n), 0)
      << "memcpy dst+" << dst_offset << " src+" << src_offset << " n=" << n;
  ASSERT_TRUE(dst.guards_intact(dst_offset, n))
      << "memcpy wrote outside dst+" << dst_offset << " n=" << n;
}

TEST(HalMem, MemcpyEveryAlignmentAndSmallLength) {
  for (size_t d = 0; d < 8; ++d)
    for (size_t s = 0; s < 8; ++s)
      for (size_t n = 0; n <= 64; ++n) check_copy(d, s, n);
}

TEST(HalMem, MemcpyLargeLengths) {
  for (size_t n : kLargeLengths)
    for (size_t d = 0; d < 4; ++d)
      for (size_t s = 0; s < 4; ++s) check_copy(d, s, n);
}

void check_set(size_t offset, size_t n, int value) {
  Destination dst(n + 8);
  void* ret = socsim_memset(dst.at(offset), value, n);
  ASSERT_EQ(ret, dst.at(offset));
  for (size_t i = 0; i < n; ++i) {
    ASSERT_EQ(dst.at(offset)[i], static_cast<uint8_t>(value))
        << "memset +" << offset << " n=" << n << " at " << i;
  }
  ASSERT_TRUE(dst.guards_intact(offset, n)) << "memset wrote outside +" << offset << " n=" << n;
}

TEST(HalMem, MemsetEveryAlignmentAndLength) {
  for (size_t d = 0; d < 8; ++d)
    for (size_t n = 0; n <= 64; ++n) check_set(d, n, 0x3C);
  for (size_t n : kLargeLengths)
    for (size_t d = 0; d < 4; ++d) check_set(d, n, 0);
}

TEST(HalMem, MemsetUsesTheLowByteOfTheValue) {
  check_set(1, 37, 0x1FF);  // (unsigned char)0x1FF = 0xFF
  check_set(2, 20, -2);     // 0xFE
}

// memmove within one buffer, the destination `shift` bytes from the source (both signs).
void check_move(size_t base, ptrdiff_t shift, size_t n) {
  const size_t span = n + 2 * 16 + 64;
  std::vector<uint8_t> buffer = pattern(span, static_cast<uint8_t>(n + shift));
  std::vector<uint8_t> expected = buffer;
  const size_t src = 16 + base + 16;
  const size_t dst = static_cast<size_t>(static_cast<ptrdiff_t>(src) + shift);
  std::memmove(expected.data() + dst, expected.data() + src, n);  // the host's as reference
  void* ret = socsim_memmove(buffer.data() + dst, buffer.data() + src, n);
  ASSERT_EQ(ret, buffer.data() + dst);
  ASSERT_EQ(buffer, expected) << "memmove base+" << base << " shift " << shift << " n=" << n;
}

TEST(HalMem, MemmoveOverlappingBothDirections) {
  for (size_t base = 0; base < 4; ++base)
    for (ptrdiff_t shift = -16; shift <= 16; ++shift)
      for (size_t n = 0; n <= 64; ++n) check_move(base, shift, n);
}

TEST(HalMem, MemmoveLargeOverlaps) {
  for (size_t n : {1000u, 4099u})
    for (ptrdiff_t shift : {-13, -8, -4, -1, 1, 3, 4, 12, 32})
      for (size_t base = 0; base < 4; ++base) check_move(base, shift, n);
}

}  // namespace
