// Functional test on the core (compiled with -O2, no C library): CRC-32, sorting and a
// multiply/divide mix, checked against independent computations. Prints through the console
// and exits 0 on success. Also run with random wait states on both buses.
#include <stdint.h>

void put_str(const char* s);
void put_hex(uint32_t v);
__attribute__((noreturn)) void exit_with(uint32_t value);

static uint32_t lcg_state = 12345;
static uint32_t lcg(void) {
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return lcg_state;
}

static int failures;
static void expect(int ok, const char* what, uint32_t got) {
  if (!ok) {
    put_str("FAIL ");
    put_str(what);
    put_str(": ");
    put_hex(got);
    put_str("\n");
    ++failures;
  }
}

static uint32_t crc32(const uint8_t* p, uint32_t n) {
  uint32_t crc = 0xFFFFFFFFu;
  for (uint32_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int b = 0; b < 8; ++b) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

// 32x32 -> 64 product from 16-bit halves, independent of the hardware multiplier's mulhu.
static uint32_t mulhu_by_halves(uint32_t a, uint32_t b) {
  uint32_t al = a & 0xFFFF, ah = a >> 16, bl = b & 0xFFFF, bh = b >> 16;
  uint32_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
  uint32_t mid = (ll >> 16) + (lh & 0xFFFF) + (hl & 0xFFFF);
  return hh + (lh >> 16) + (hl >> 16) + (mid >> 16);
}

static uint32_t mulhu_hw(uint32_t a, uint32_t b) {
  uint32_t r;
  __asm__ volatile("mulhu %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

static int32_t values[64];

int main(void) {
  // CRC-32 check value of "123456789"
  static const uint8_t check[] = "123456789";
  expect(crc32(check, 9) == 0xCBF43926u, "crc32", crc32(check, 9));

  // insertion sort (unaligned halfword copies too)
  int64_t sum_before = 0, sum_after = 0;
  for (int i = 0; i < 64; ++i) {
    values[i] = (int32_t)lcg();
    sum_before += values[i];
  }
  for (int i = 1; i < 64; ++i) {
    int32_t v = values[i];
    int j = i - 1;
    while (j >= 0 && values[j] > v) {
      values[j + 1] = values[j];
      --j;
    }
    values[j + 1] = v;
  }
  int sorted = 1;
  for (int i = 0; i < 64; ++i) {
    sum_after += values[i];
    if (i > 0 && values[i - 1] > values[i]) sorted = 0;
  }
  expect(sorted, "sorted", 0);
  expect(sum_before == sum_after, "sum", (uint32_t)sum_after);

  // multiply / divide identities
  for (int i = 0; i < 200; ++i) {
    uint32_t a = lcg(), b = lcg() >> (i % 31);
    if (b != 0) {
      uint32_t q = a / b, r = a % b;
      expect(q * b + r == a && r < b, "divu", a);
    }
    int32_t sa = (int32_t)a, sb = (int32_t)(b | (i & 1 ? 0x80000000u : 0));
    if (sb != 0 && !(sa == INT32_MIN && sb == -1)) {
      int32_t q = sa / sb, r = sa % sb;
      expect(q * sb + r == sa, "div", a);
      expect(r == 0 || (r < 0) == (sa < 0), "rem sign", (uint32_t)r);
    }
    expect(mulhu_hw(a, b) == mulhu_by_halves(a, b), "mulhu", a);
  }

  if (failures == 0) {
    put_str("functional: all checks passed\n");
  }
  return failures;
}
