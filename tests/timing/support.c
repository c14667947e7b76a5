// Console output and exit for the timing and functional tests (freestanding, no C library).
#include <stdint.h>

#define CONSOLE (*(volatile uint32_t*)0x10000000u)
#define EXIT_VALUE (*(volatile uint32_t*)0x20000004u)

void put_char(char c) { CONSOLE = (uint8_t)c; }

void put_str(const char* s) {
  while (*s) put_char(*s++);
}

void put_dec(uint32_t v) {
  char buf[10];
  int n = 0;
  do {
    buf[n++] = (char)('0' + v % 10u);
    v /= 10u;
  } while (v != 0);
  while (n > 0) put_char(buf[--n]);
}

void put_hex(uint32_t v) {
  put_str("0x");
  for (int i = 28; i >= 0; i -= 4) put_char("0123456789abcdef"[(v >> i) & 0xFu]);
}

__attribute__((noreturn)) void exit_with(uint32_t value) {
  EXIT_VALUE = value;
  for (;;) __asm__ volatile("wfi");
}

__attribute__((noreturn)) void timing_fail(uint32_t expected, uint32_t measured, uint32_t line,
                                           const char* file) {
  put_str(file);
  put_char(':');
  put_dec(line);
  put_str(": expected ");
  put_dec(expected);
  put_str(" cycles, measured ");
  put_dec(measured);
  put_char('\n');
  exit_with(1);
}

__attribute__((noreturn)) void value_fail(uint32_t expected, uint32_t got, uint32_t line,
                                          const char* file) {
  put_str(file);
  put_char(':');
  put_dec(line);
  put_str(": expected ");
  put_hex(expected);
  put_str(", got ");
  put_hex(got);
  put_char('\n');
  exit_with(1);
}

__attribute__((noreturn)) void unexpected_trap(uint32_t mcause, uint32_t mepc) {
  put_str("unexpected trap: mcause ");
  put_hex(mcause);
  put_str(" mepc ");
  put_hex(mepc);
  put_char('\n');
  exit_with(3);
}
