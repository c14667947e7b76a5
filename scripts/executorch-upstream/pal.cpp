// ExecuTorch's platform layer (the et_pal_* functions its runtime/platform/platform.h
// declares) on socsim's HAL: time is the CPU cycle counter, a log message goes to the
// console, abort (and the C library's abort()) is socsim_abort (exit status 134).
// Allocation is refused: the runner gives the runtime all its memory through allocators.
#include <stdio.h>

#include <executorch/runtime/platform/platform.h>

#include "hal/socsim_hal.h"

extern "C" {

void et_pal_init(void) {}

ET_NORETURN void et_pal_abort(void) {
  socsim_abort("ExecuTorch runtime");
  for (;;) {
  }
}

et_timestamp_t et_pal_current_ticks(void) { return socsim_cycles(); }

et_tick_ratio_t et_pal_ticks_to_ns_multiplier(void) {
  // ticks are CPU cycles: ns = ticks * 1e9 / f
  const volatile struct socsim_bootinfo* info = socsim_bootinfo();
  const uint64_t hz = info != nullptr && info->cpu_clock_hz != 0 ? info->cpu_clock_hz
                                                                  : SOCSIM_CPU_CLOCK_HZ;
  return {1000000000ull, hz};
}

void et_pal_emit_log_message(et_timestamp_t timestamp, et_pal_log_level_t level,
                             const char* filename, const char* function, size_t line,
                             const char* message, size_t length) {
  (void)timestamp;
  (void)function;
  printf("[et %c] %s:%lu: %.*s\n", static_cast<char>(level), filename != nullptr ? filename : "?",
         static_cast<unsigned long>(line), static_cast<int>(length), message);
}

void* et_pal_allocate(size_t size) {
  (void)size;
  return nullptr;
}

void et_pal_free(void* ptr) { (void)ptr; }

// The C library's abort() raises SIGABRT, which needs getpid() and kill(); a bare-metal
// program has neither, so abort() (the C++ headers' and the kernels' last resort) ends the
// run as et_pal_abort does.
void abort(void) {
  socsim_abort("abort()");
  for (;;) {
  }
}

}  // extern "C"
