/* The boot-info block that `socsim run` writes before reset (docs/boot-info.md): command-line
 * arguments, where the model file and input data were placed, the clocks. Its layout is
 * firmware/abi/boot_info.h (shared with the simulator). */
#pragma once

#include "firmware/abi/boot_info.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The block, or NULL when the SoC has none or its magic does not match (e.g. on the
 *  core-v-verif testbench). */
const volatile struct socsim_bootinfo* socsim_bootinfo(void);

#ifdef __cplusplus
}
#endif
