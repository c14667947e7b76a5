/* The socsim hardware abstraction layer, all of it: console (printf), exit and abort, cycle and
 * instruction counters, the machine timer, trap and interrupt hooks, the boot-info block,
 * intrusive probe marks, and the SoC's addresses (socsim_memmap.h, generated from the YAML). */
#pragma once

#include "hal/boot_info.h"
#include "hal/console.h"
#include "hal/counters.h"
#include "hal/csr.h"
#include "hal/exit.h"
#include "hal/probe.h"
#include "hal/timer.h"
#include "hal/trap.h"
#include "socsim_memmap.h"
