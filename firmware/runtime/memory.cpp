// Bump allocation with a high-water mark.
#include "firmware/runtime/memory.h"

namespace socsim::runtime {

void* MemoryAllocator::allocate(size_t size, size_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) return nullptr;
  const uintptr_t base = reinterpret_cast<uintptr_t>(base_);
  const uintptr_t start = (base + used_ + alignment - 1) & ~(uintptr_t{alignment} - 1);
  const size_t offset = start - base;
  if (offset > size_ || size > size_ - offset) return nullptr;
  used_ = offset + size;
  if (used_ > high_water_) high_water_ = used_;
  return base_ + offset;
}

}  // namespace socsim::runtime
