// crt_check: what crt0 and the C/C++ support promise main. Static constructors ran (in
// priority order), BSS is zero, .data holds its initial values, errno works (picolibc keeps it in
// TLS, reached through tp), the heap and C++ virtual calls work, DDR buffers are zeroed, and
// mcycle counts. Prints "crt_check: PASS" and exits 0, or names the failing check and exits 1.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hal/socsim_hal.h"

namespace {

int failures = 0;

void check(bool ok, const char* what) {
  if (!ok) {
    printf("crt_check: FAIL: %s\n", what);
    ++failures;
  }
}

int construction_order[2];
int constructed = 0;

__attribute__((constructor(101))) void construct_first() { construction_order[constructed++] = 1; }
__attribute__((constructor(102))) void construct_second() { construction_order[constructed++] = 2; }

struct Shape {
  virtual ~Shape() = default;
  virtual int sides() const = 0;
};
struct Triangle : Shape {
  int sides_;
  Triangle() : sides_(3) {}
  int sides() const override { return sides_; }
};
Triangle global_triangle;  // constructed by .init_array

unsigned char zeroed[256];
int initialised[4] = {1, 2, 3, 4};
__attribute__((section(".ddr_bss"))) unsigned char ddr_zeroed[256];

}  // namespace

int main(int argc, char** argv) {
  check(constructed == 2 && construction_order[0] == 1 && construction_order[1] == 2,
        "constructors ran in priority order");
  check(static_cast<const Shape&>(global_triangle).sides() == 3, "global object constructed");
  bool all_zero = true;
  for (unsigned char byte : zeroed) all_zero = all_zero && byte == 0;
  check(all_zero, "BSS is zero");
  all_zero = true;
  for (unsigned char byte : ddr_zeroed) all_zero = all_zero && byte == 0;
  check(all_zero, "DDR BSS is zero");
  check(initialised[0] == 1 && initialised[3] == 4, ".data has its initial values");
  check(argc >= 0 && argv != nullptr && argv[argc] == nullptr, "argv is NULL-terminated");

  errno = 0;
  long value = strtol("99999999999999", nullptr, 10);
  check(errno == ERANGE && value == 0x7fffffffL, "errno (thread-local) set by strtol");

  char* text = static_cast<char*>(malloc(32));
  check(text != nullptr, "malloc");
  if (text != nullptr) {
    strcpy(text, "heap");
    check(strcmp(text, "heap") == 0, "heap memory usable");
    free(text);
  }
  Shape* shape = new Triangle;
  check(shape->sides() == 3, "operator new and virtual call");
  delete shape;

  uint64_t before = socsim_cycles();
  uint64_t instructions = socsim_instret();
  check(socsim_cycles() > before, "mcycle counts");
  check(instructions > 0, "minstret counted start-up");

  if (failures != 0) return 1;
  printf("crt_check: PASS\n");
  return 0;
}
