/* mem_check: the image's memcpy, memmove and memset (firmware/hal/mem.c) on the target, against
 * byte-by-byte references: every destination and source alignment within a word, lengths
 * 0..64 and 4096, overlapping moves in both directions, copies between SRAM and DDR, and guard
 * bytes that must stay untouched. Prints the cycles per byte of large copies, then
 * "mem_check: PASS" and exits 0, or names the first failing case and exits 1. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hal/socsim_hal.h"

enum { kMaxLength = 64, kLarge = 4096, kGuard = 8, kGuardByte = 0xA5 };
enum { kBufferSize = kLarge + 2 * kGuard + 16 };

static uint8_t src_sram[kBufferSize] __attribute__((aligned(16)));
static uint8_t dst_sram[kBufferSize] __attribute__((aligned(16)));
static uint8_t src_ddr[kBufferSize] __attribute__((aligned(16), section(".ddr_bss")));
static uint8_t dst_ddr[kBufferSize] __attribute__((aligned(16), section(".ddr_bss")));

static int failed = 0;

static void fail(const char* what, unsigned dst_off, unsigned src_off, unsigned n) {
  if (!failed) printf("mem_check: FAIL: %s dst+%u src+%u n=%u\n", what, dst_off, src_off, n);
  failed = 1;
}

/* The references go through volatile pointers so the compiler cannot turn them into calls of
 * the functions under test. */
static void fill_pattern(volatile uint8_t* p, unsigned n, unsigned seed) {
  for (unsigned i = 0; i < n; ++i) p[i] = (uint8_t)(seed + i * 37u);
}
static void fill_guard(volatile uint8_t* p, unsigned n) {
  for (unsigned i = 0; i < n; ++i) p[i] = kGuardByte;
}
/* 1 when dst[kGuard + off ..) holds want[0..n) and every other byte of dst the guard value. */
static int holds(const volatile uint8_t* dst, unsigned off, const volatile uint8_t* want,
                 unsigned n, unsigned span) {
  for (unsigned i = 0; i < span; ++i) {
    unsigned k = i - (kGuard + off);
    uint8_t expected = (i >= kGuard + off && k < n) ? want[k] : kGuardByte;
    if (dst[i] != expected) return 0;
  }
  return 1;
}

static void check_copy(uint8_t* dst, uint8_t* src, unsigned d, unsigned s, unsigned n) {
  const unsigned span = n + 2 * kGuard + 8;
  fill_pattern(src, span, n + d + s);
  fill_guard(dst, span);
  if (memcpy(dst + kGuard + d, src + s, n) != dst + kGuard + d) fail("memcpy return", d, s, n);
  if (!holds(dst, d, src + s, n, span)) fail("memcpy", d, s, n);
}

static void check_set(uint8_t* dst, unsigned d, unsigned n) {
  static uint8_t want[kLarge];
  const unsigned span = n + 2 * kGuard + 8;
  for (unsigned i = 0; i < n; ++i) ((volatile uint8_t*)want)[i] = 0x5C;
  fill_guard(dst, span);
  if (memset(dst + kGuard + d, 0x15C, n) != dst + kGuard + d) fail("memset return", d, 0, n);
  if (!holds(dst, d, want, n, span)) fail("memset", d, 0, n);
}

/* memmove inside one buffer: destination = source + shift. */
static void check_move(uint8_t* buf, unsigned base, int shift, unsigned n) {
  static uint8_t want[kMaxLength + 64];
  volatile uint8_t* w = want;
  const unsigned span = n + 48;
  const unsigned src = 16 + base;
  const unsigned dst = (unsigned)((int)src + shift);
  fill_pattern(buf, span, n + base);
  for (unsigned i = 0; i < span; ++i) w[i] = buf[i];
  for (unsigned i = 0; i < n; ++i) w[dst + i] = ((volatile uint8_t*)buf)[src + i];
  memmove(buf + dst, buf + src, n);
  for (unsigned i = 0; i < span; ++i) {
    if (buf[i] != w[i]) {
      fail(shift < 0 ? "memmove down" : "memmove up", dst, src, n);
      return;
    }
  }
}

/* Every alignment pair and length through SRAM; `stride` > 1 samples the lengths (DDR is
 * slower to simulate and has no alignment rules of its own). */
static void copy_alignments(uint8_t* dst, uint8_t* src, unsigned stride) {
  for (unsigned d = 0; d < 4; ++d)
    for (unsigned s = 0; s < 4; ++s) {
      for (unsigned n = 0; n <= kMaxLength; n += (n < 12 ? 1 : stride))
        check_copy(dst, src, d, s, n);
      if (d == s || d + s == 3) check_copy(dst, src, d, s, kLarge);
    }
}

static void report_speed(const char* what, uint8_t* dst, uint8_t* src, unsigned offset) {
  uint64_t start = socsim_cycles();
  memcpy(dst + kGuard, src + offset, kLarge);
  uint64_t cycles = socsim_cycles() - start;
  printf("mem_check: memcpy %s %u bytes: %u cycles (%u.%02u per byte)\n", what, kLarge,
         (unsigned)cycles, (unsigned)(cycles / kLarge), (unsigned)(cycles * 100 / kLarge % 100));
}

int main(void) {
  copy_alignments(dst_sram, src_sram, 1);
  copy_alignments(dst_ddr, src_sram, 13);
  copy_alignments(dst_sram, src_ddr, 13);
  for (unsigned d = 0; d < 4; ++d) {
    for (unsigned n = 0; n <= kMaxLength; ++n) check_set(dst_sram, d, n);
    check_set(dst_sram, d, kLarge);
  }
  check_set(dst_ddr, 1, kLarge);
  for (unsigned base = 0; base < 4; ++base)
    for (int shift = -12; shift <= 12; ++shift)
      for (unsigned n = 0; n <= kMaxLength; n += (n < 16 ? 1 : 7))
        check_move(dst_sram, base, shift, n);
  report_speed("SRAM->SRAM aligned", dst_sram, src_sram, 0);
  report_speed("SRAM->SRAM misaligned", dst_sram, src_sram, 1);
  report_speed("DDR->SRAM aligned", dst_sram, src_ddr, 0);
  if (failed) return 1;
  printf("mem_check: PASS\n");
  return 0;
}
