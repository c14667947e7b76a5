/* Intrusive probes: one store to the SoC's probe register block (region type `probe`) marks
 * the begin or the end of a region id; socsim reports the cycles between the two stores
 * (the END store included), the instructions, and the count per id (docs/probes.md).
 *
 *   SOCSIM_PROBE_BEGIN(id)      store id to +0x0
 *   SOCSIM_PROBE_END(id)        store id to +0x4
 *   SOCSIM_PROBE_VALUE(n)       store n to +0x8: elements processed by the innermost open id
 *
 * Each macro is exactly one `sw` (plus the address and value set-up the compiler needs, often
 * hoisted out of loops). On a SoC without a probe block the macros compile to nothing. For
 * what the symbols can tell, prefer the non-intrusive probes (`socsim run --probe`), which
 * cost nothing. */
#pragma once

#include <stdint.h>

#include "firmware/abi/probe_registers.h"
#include "socsim_memmap.h"

#ifdef SOCSIM_PROBE_BASE
#define SOCSIM_PROBE_STORE_(offset, value) \
  (*(volatile uint32_t*)(uintptr_t)(SOCSIM_PROBE_BASE + (offset)) = (uint32_t)(value))
#define SOCSIM_PROBE_BEGIN(id) SOCSIM_PROBE_STORE_(SOCSIM_PROBE_REG_BEGIN, (id))
#define SOCSIM_PROBE_END(id) SOCSIM_PROBE_STORE_(SOCSIM_PROBE_REG_END, (id))
#define SOCSIM_PROBE_VALUE(n) SOCSIM_PROBE_STORE_(SOCSIM_PROBE_REG_VALUE, (n))
/** Reads SOCSIM_PROBE_MAGIC_VALUE ("PROB") when the probe block is present. */
#define SOCSIM_PROBE_MAGIC() \
  (*(volatile uint32_t*)(uintptr_t)(SOCSIM_PROBE_BASE + SOCSIM_PROBE_REG_MAGIC))
#else
#define SOCSIM_PROBE_BEGIN(id) ((void)(id))
#define SOCSIM_PROBE_END(id) ((void)(id))
#define SOCSIM_PROBE_VALUE(n) ((void)(n))
#define SOCSIM_PROBE_MAGIC() 0u
#endif
