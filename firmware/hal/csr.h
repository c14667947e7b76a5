/* Access to machine-mode CSRs by name, for HAL code and firmware that needs it directly.
 * The name is the assembler's (mstatus, mcycleh, 0x7c0 ...). */
#pragma once

#include <stdint.h>

#define SOCSIM_CSR_READ(csr)                                   \
  ({                                                           \
    uint32_t socsim_csr_value_;                                \
    __asm__ volatile("csrr %0, " #csr : "=r"(socsim_csr_value_)); \
    socsim_csr_value_;                                         \
  })
#define SOCSIM_CSR_WRITE(csr, value) __asm__ volatile("csrw " #csr ", %0" ::"rK"(value))
#define SOCSIM_CSR_SET(csr, bits) __asm__ volatile("csrs " #csr ", %0" ::"rK"(bits))
#define SOCSIM_CSR_CLEAR(csr, bits) __asm__ volatile("csrc " #csr ", %0" ::"rK"(bits))

/* mstatus / mie / mip bits used by the HAL. */
#define SOCSIM_MSTATUS_MIE (1u << 3)
#define SOCSIM_MSTATUS_MPIE (1u << 7)
#define SOCSIM_MIE_MTIE (1u << 7)
#define SOCSIM_MIP_MTIP (1u << 7)
