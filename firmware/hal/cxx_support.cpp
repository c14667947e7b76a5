// What freestanding C++ needs from a runtime library, since the target has no libstdc++:
// pure-virtual calls and failed allocations abort through the HAL; operator new/delete use
// picolibc's malloc/free (firmware that must not use a heap simply never calls new).
#include <stddef.h>
#include <stdlib.h>

#include "hal/exit.h"

extern "C" void __cxa_pure_virtual() { socsim_abort("pure virtual function called"); }

namespace {
void* allocate(size_t size) {
  void* p = malloc(size == 0 ? 1 : size);
  if (p == nullptr) socsim_abort("operator new: out of memory");
  return p;
}
}  // namespace

void* operator new(size_t size) { return allocate(size); }
void* operator new[](size_t size) { return allocate(size); }
void operator delete(void* p) noexcept { free(p); }
void operator delete[](void* p) noexcept { free(p); }
void operator delete(void* p, size_t) noexcept { free(p); }
void operator delete[](void* p, size_t) noexcept { free(p); }
