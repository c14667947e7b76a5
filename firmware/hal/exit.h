/* Ending a run: the exit device of the SoC (SOCSIM_EXIT_BASE + 4) and the HAL's exit statuses.
 *
 * main's return value and exit() end the run the same way (crt0 calls exit, picolibc's exit
 * calls _exit, which is socsim_exit). */
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/** Status of a run ended by an exception: SOCSIM_EXIT_TRAP_BASE + mcause (e.g. 130 for an
 *  illegal instruction, 139 for an ecall). */
#define SOCSIM_EXIT_TRAP_BASE 128
/** Status of a run ended by an interrupt nobody handles: SOCSIM_EXIT_IRQ_BASE + its id. */
#define SOCSIM_EXIT_IRQ_BASE 160
/** Status of socsim_abort() (as a process killed by SIGABRT). */
#define SOCSIM_EXIT_ABORT 134

/** Ends the run with `status` (0 = success). Never returns. */
__attribute__((noreturn)) void socsim_exit(int status);

/** Prints "ABORT: <message>" on the console and ends the run with SOCSIM_EXIT_ABORT. */
__attribute__((noreturn)) void socsim_abort(const char* message);

#ifdef __cplusplus
}
#endif
