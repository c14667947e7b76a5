// Word-wise memcpy, memmove and memset for socsim firmware.
//
// picolibc as packaged for this toolchain is built for size: its memcpy and memset move one
// byte per loop iteration, about 9 cycles per byte on the CV32E40P, which made them a tenth of
// an NPU inference's cycles. These move aligned 32-bit words, four per iteration where the
// length allows. The HAL is linked as objects ahead of libc.a, so libc's versions are never
// pulled in. Callers that need a byte loop (a device's registers) must not use these.
//
// The target build (SOCSIM_HAL_PROVIDES_LIBC_MEM) names the functions memcpy, memmove and
// memset, so profiles and link maps show the names callers know; host builds name them
// socsim_memcpy etc. (hal/mem.h), so tests can run them beside the host C library's. The file
// is compiled with -fno-tree-loop-distribute-patterns: the compiler must not turn these loops
// back into calls of themselves.
#include <stddef.h>
#include <stdint.h>

#ifdef SOCSIM_HAL_PROVIDES_LIBC_MEM
#define SOCSIM_MEM_FN(name) name
#else
#include "firmware/hal/mem.h"
#define SOCSIM_MEM_FN(name) socsim_##name
#endif

// may_alias: these words overlay bytes of any type, as memcpy does.
typedef uint32_t __attribute__((may_alias)) Word;
enum { kWordBytes = sizeof(Word) };

static inline int word_aligned(uintptr_t address) {
  return (address & (kWordBytes - 1)) == 0;
}

// Copies n bytes forwards, one at a time.
static void copy_bytes_forward(uint8_t* d, const uint8_t* s, size_t n) {
  while (n-- != 0) *d++ = *s++;
}

// Copies n / 4 words forwards between word-aligned addresses; returns the words copied * 4.
static size_t copy_words_forward(Word* d, const Word* s, size_t n) {
  size_t words = n / kWordBytes;
  size_t left = words;
  while (left >= 4) {
    Word w0 = s[0], w1 = s[1], w2 = s[2], w3 = s[3];
    d[0] = w0;
    d[1] = w1;
    d[2] = w2;
    d[3] = w3;
    d += 4;
    s += 4;
    left -= 4;
  }
  while (left-- != 0) *d++ = *s++;
  return words * kWordBytes;
}

// Copies n / 4 words to an aligned d from an s that is not word-aligned, reading aligned words
// only (two per output word, combined by shifts); returns the bytes copied. Reads no word
// that holds none of the source bytes.
static size_t copy_words_shifted(Word* d, const uint8_t* s, size_t n) {
  size_t words = n / kWordBytes;
  const unsigned shift = (unsigned)((uintptr_t)s & (kWordBytes - 1)) * 8;  // 8, 16 or 24
  const Word* ws = (const Word*)((uintptr_t)s & ~(uintptr_t)(kWordBytes - 1));
  Word low = *ws++;
  for (size_t i = 0; i < words; ++i) {
    Word high = *ws++;
    d[i] = (low >> shift) | (high << (32 - shift));  // little-endian
    low = high;
  }
  return words * kWordBytes;
}

// Copies n bytes forwards: bytes up to a word boundary of d, then words, then the tail.
// Correct for overlapping ranges when d is below s: every source word is read before the
// word written over it.
static void copy_forward(uint8_t* d, const uint8_t* s, size_t n) {
  if (n >= 2 * kWordBytes) {
    while (!word_aligned((uintptr_t)d)) {
      *d++ = *s++;
      --n;
    }
    size_t done = word_aligned((uintptr_t)s) ? copy_words_forward((Word*)d, (const Word*)s, n)
                                             : copy_words_shifted((Word*)d, s, n);
    d += done;
    s += done;
    n -= done;
  }
  copy_bytes_forward(d, s, n);
}

void* SOCSIM_MEM_FN(memcpy)(void* restrict dst, const void* restrict src, size_t n) {
  copy_forward((uint8_t*)dst, (const uint8_t*)src, n);
  return dst;
}

void* SOCSIM_MEM_FN(memmove)(void* dst, const void* src, size_t n) {
  uint8_t* d = (uint8_t*)dst;
  const uint8_t* s = (const uint8_t*)src;
  if ((uintptr_t)d - (uintptr_t)s >= n) {
    copy_forward(d, s, n);  // d is below s, or the ranges do not overlap
    return dst;
  }
  // d lies inside [s, s + n): copy backwards.
  d += n;
  s += n;
  if (n >= 2 * kWordBytes && word_aligned((uintptr_t)d ^ (uintptr_t)s)) {
    while (!word_aligned((uintptr_t)d)) {
      *--d = *--s;
      --n;
    }
    Word* wd = (Word*)d;
    const Word* ws = (const Word*)s;
    for (; n >= kWordBytes; n -= kWordBytes) *--wd = *--ws;
    d = (uint8_t*)wd;
    s = (const uint8_t*)ws;
  }
  while (n-- != 0) *--d = *--s;
  return dst;
}

void* SOCSIM_MEM_FN(memset)(void* dst, int value, size_t n) {
  uint8_t* d = (uint8_t*)dst;
  const uint8_t byte = (uint8_t)value;
  if (n >= 2 * kWordBytes) {
    while (!word_aligned((uintptr_t)d)) {
      *d++ = byte;
      --n;
    }
    const Word w = 0x01010101u * byte;
    Word* wd = (Word*)d;
    for (; n >= 4 * kWordBytes; n -= 4 * kWordBytes, wd += 4) {
      wd[0] = w;
      wd[1] = w;
      wd[2] = w;
      wd[3] = w;
    }
    for (; n >= kWordBytes; n -= kWordBytes) *wd++ = w;
    d = (uint8_t*)wd;
  }
  while (n-- != 0) *d++ = byte;
  return dst;
}
