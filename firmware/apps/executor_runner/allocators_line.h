// The executor_runner's closing "Allocators:" line, shared by the program and language-model
// loops (docs/runtime.md: the high-water marks of the three allocators a run uses).
#pragma once

#include <stdio.h>

#include "firmware/runtime/memory.h"

namespace socsim::apps {

/// Prints "Allocators: method U of S bytes, temp U of S bytes, boot-info pool U of S bytes
/// (high-water marks)".
inline void print_allocators(const runtime::MemoryAllocator& method_alloc,
                             const runtime::MemoryAllocator& temp_alloc,
                             const runtime::MemoryAllocator& region_alloc) {
  printf("Allocators: method %lu of %lu bytes, temp %lu of %lu bytes, boot-info pool %lu of "
         "%lu bytes (high-water marks)\n",
         static_cast<unsigned long>(method_alloc.high_water_mark()),
         static_cast<unsigned long>(method_alloc.size()),
         static_cast<unsigned long>(temp_alloc.high_water_mark()),
         static_cast<unsigned long>(temp_alloc.size()),
         static_cast<unsigned long>(region_alloc.high_water_mark()),
         static_cast<unsigned long>(region_alloc.size()));
}

}  // namespace socsim::apps
