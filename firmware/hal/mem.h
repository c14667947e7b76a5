// Host-side names of the firmware's word-wise memcpy, memmove and memset (hal/mem.c), so that
// host tests can run them beside the host C library's. On the target the same code is the
// image's memcpy, memmove and memset; firmware calls those through <string.h>.
#pragma once

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// memcpy: copies n bytes from src to dst (the ranges must not overlap). Returns dst.
void* socsim_memcpy(void* __restrict dst, const void* __restrict src, size_t n);
/// memmove: copies n bytes from src to dst; the ranges may overlap. Returns dst.
void* socsim_memmove(void* dst, const void* src, size_t n);
/// memset: fills n bytes at dst with (unsigned char)value. Returns dst.
void* socsim_memset(void* dst, int value, size_t n);

#ifdef __cplusplus
}
#endif
