/* The boot-info block that `socsim run` writes before reset (docs/boot-info.md): command-line
 * arguments, where the model file and input data were placed, the clocks, and a pool of free
 * memory the firmware may use (loader.pool_region). platform/boot_info.cpp encodes it,
 * firmware/hal/boot_info.c reads it. Plain C. */
#pragma once

#include <stdint.h>

#define SOCSIM_BOOTINFO_MAGIC 0x31494253u /* "SBI1" in memory order */
#define SOCSIM_BOOTINFO_VERSION 2u /* 2: pool_addr, pool_size (words that were 0 in 1) */
#define SOCSIM_BOOTINFO_FLAG_CYCLE_EXACT 1u /* the CPU model is the cycle-exact RTL core */

/** Layout of the block, version 2 (48 bytes), followed by argv's pointers and strings. */
struct socsim_bootinfo {
  uint32_t magic;
  uint32_t version;
  uint32_t argc;
  uint32_t argv;       /**< address of a NULL-terminated array of argc string pointers */
  uint32_t model_addr; /**< model file given by --model, 0 if none */
  uint32_t model_size;
  uint32_t input_addr; /**< input data given by --input, 0 if none */
  uint32_t input_size;
  uint32_t cpu_clock_hz;
  uint32_t flags;     /**< SOCSIM_BOOTINFO_FLAG_* */
  uint32_t pool_addr; /**< free memory for the firmware (loader.pool_region), 0 if none */
  uint32_t pool_size; /**< its size in bytes, a multiple of 64 */
};
