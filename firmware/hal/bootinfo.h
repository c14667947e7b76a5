/* The boot-info block that `socsim run` writes before reset (docs/boot-info.md): command-line
 * arguments, where the model file and input data were placed, the clocks. */
#pragma once

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SOCSIM_BOOTINFO_MAGIC 0x31494253u  /* "SBI1" in memory order */
#define SOCSIM_BOOTINFO_FLAG_CYCLE_EXACT 1u /* the CPU model is the cycle-exact RTL core */

/** Layout of the block, version 1. */
struct socsim_bootinfo {
  uint32_t magic;
  uint32_t version;
  uint32_t argc;
  uint32_t argv;         /**< address of a NULL-terminated array of argc string pointers */
  uint32_t model_addr;   /**< model file given by --model, 0 if none */
  uint32_t model_size;
  uint32_t input_addr;   /**< input data given by --input, 0 if none */
  uint32_t input_size;
  uint32_t cpu_clock_hz;
  uint32_t flags;        /**< SOCSIM_BOOTINFO_FLAG_* */
  uint32_t reserved[2];
};

/** The block, or NULL when the SoC has none or its magic does not match (e.g. on the
 *  core-v-verif testbench). */
const volatile struct socsim_bootinfo* socsim_bootinfo(void);

#ifdef __cplusplus
}
#endif
