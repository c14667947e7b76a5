/* The probe register block (region type `probe`, docs/probes.md): register offsets and the
 * magic value. models/probe/probe_device.h implements it; firmware/hal/probe.h stores to it.
 * Plain C (the HAL is C). */
#pragma once

#define SOCSIM_PROBE_REG_BEGIN 0x0u /* write: BEGIN region id */
#define SOCSIM_PROBE_REG_END 0x4u   /* write: END region id */
#define SOCSIM_PROBE_REG_VALUE 0x8u /* write: elements processed by the innermost open id */
#define SOCSIM_PROBE_REG_MAGIC 0xCu /* read: SOCSIM_PROBE_MAGIC_VALUE */
#define SOCSIM_PROBE_MAGIC_VALUE 0x50524F42u /* "PROB" */
