/* System calls in the core-v-verif BSP's form: _write prints through the testbench's virtual
 * console (each byte stored as a word to 0x1000_0000, fd 1 only) and _exit stores the status to
 * 0x2000_0004, which ends the simulation. Picolibc's stdio calls no _write: the stdout stream
 * below hands each character to _write. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define CONSOLE_TX ((volatile uint32_t*)0x10000000u)
#define EXIT_VALUE ((volatile uint32_t*)0x20000004u)

ssize_t _write(int fd, const void* buffer, size_t count) {
  if (fd != 1) {
    errno = ENOSYS;
    return -1;
  }
  const uint8_t* bytes = (const uint8_t*)buffer;
  for (size_t i = 0; i < count; ++i) *CONSOLE_TX = bytes[i];
  return (ssize_t)count;
}

void _exit(int status) {
  *EXIT_VALUE = (uint32_t)status;
  for (;;) __asm__ volatile("wfi");
}

static int stdout_put(char c, FILE* file) {
  (void)file;
  return _write(1, &c, 1) == 1 ? (uint8_t)c : EOF;
}

static FILE stdout_stream = FDEV_SETUP_STREAM(stdout_put, NULL, NULL, _FDEV_SETUP_WRITE);
FILE* const stdout = &stdout_stream;
FILE* const stderr = &stdout_stream;
