/* 64-bit cycle and retired-instruction counters (mcycle/minstret and their high halves).
 *
 * crt0 clears mcountinhibit, so both count from just after reset. A read costs a few cycles
 * (CSR accesses to counters take 4 cycles each on the CV32E40P); subtract the cost of an empty
 * measurement when timing very short code. While the core sleeps in WFI, mcycle stops: time
 * that includes sleep (waiting for an accelerator) is measured with socsim_elapsed_cycles(). */
#pragma once

#include <stdint.h>

#include "hal/csr.h"
#include "socsim_memmap.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Cycles since reset (since crt0 enabled counting). */
static inline uint64_t socsim_cycles(void) {
  uint32_t hi, lo;
  do {
    hi = SOCSIM_CSR_READ(mcycleh);
    lo = SOCSIM_CSR_READ(mcycle);
  } while (hi != SOCSIM_CSR_READ(mcycleh));
  return ((uint64_t)hi << 32) | lo;
}

/** Instructions retired since reset (since crt0 enabled counting). */
static inline uint64_t socsim_instret(void) {
  uint32_t hi, lo;
  do {
    hi = SOCSIM_CSR_READ(minstreth);
    lo = SOCSIM_CSR_READ(minstret);
  } while (hi != SOCSIM_CSR_READ(minstreth));
  return ((uint64_t)hi << 32) | lo;
}

/** CPU clock cycles since reset, sleep included, modulo 2^32 (difference two readings): the
 * core-v-verif control block's cycle counter (+0x1004) where the SoC has one, else mcycle. A
 * read is a load from the device, a few cycles. */
static inline uint32_t socsim_elapsed_cycles(void) {
#ifdef SOCSIM_COREV_CTRL_BASE
  return *(volatile uint32_t*)(SOCSIM_COREV_CTRL_BASE + 0x1004u);
#else
  return SOCSIM_CSR_READ(mcycle);
#endif
}

#ifdef __cplusplus
}
#endif
