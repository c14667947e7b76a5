/* picolibc stdio streams on the console TX register (a word store prints its low byte; this
 * also suits the core-v-verif testbench, which ignores byte enables). stdin reads EOF. */
#include "hal/console.h"

#include <stdint.h>
#include <stdio.h>

#include "socsim_memmap.h"

void socsim_console_putc(char c) {
  *(volatile uint32_t*)SOCSIM_CONSOLE_TX = (uint8_t)c;
}

static int console_put(char c, FILE* file) {
  (void)file;
  socsim_console_putc(c);
  return (uint8_t)c;
}

static int console_get(FILE* file) {
  (void)file;
  return _FDEV_EOF;
}

static FILE console_stream = FDEV_SETUP_STREAM(console_put, console_get, NULL, _FDEV_SETUP_RW);

FILE* const stdin = &console_stream;
FILE* const stdout = &console_stream;
FILE* const stderr = &console_stream;
