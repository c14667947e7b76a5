/* The console: picolibc's stdout and stderr write to the SoC's console TX register, so
 * printf, puts and putchar work. socsim_console_putc writes one character directly. */
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/** Writes one character to the console TX register. */
void socsim_console_putc(char c);

#ifdef __cplusplus
}
#endif
