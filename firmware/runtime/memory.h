// Memory for a loaded method: allocators over caller-given pools and the planned buffers.
//
// Nothing here allocates from a heap: every byte comes from pools the application declares
// (usually in BSS) and hands over through MemoryManager.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "firmware/runtime/error.h"

#if __has_include(<new>)
#include <new>
#else
// The bare-metal toolchain has no C++ library: the placement form of operator new, as <new>
// declares it, so that objects can be constructed in pool memory.
inline void* operator new(size_t, void* place) noexcept {
  return place;
}
#endif

namespace socsim::runtime {

/// A bump allocator over one caller-owned pool. It never frees single blocks; reset()
/// releases everything. It records the high-water mark (most bytes ever in use).
class MemoryAllocator {
 public:
  MemoryAllocator() = default;
  MemoryAllocator(void* base, size_t size) : base_(static_cast<uint8_t*>(base)), size_(size) {}

  /// `size` bytes aligned to `alignment` (a power of two), or nullptr when the pool is
  /// exhausted. A zero-size request returns a valid, unique-enough pointer.
  void* allocate(size_t size, size_t alignment = 8);
  /// Typed helper: `count` objects of T, value-initialised in place. The pool never runs
  /// destructors: whoever owns objects that need one destroys them (Method does).
  template <typename T>
  T* allocate_array(size_t count) {
    T* p = static_cast<T*>(allocate(sizeof(T) * count, alignof(T)));
    if (p != nullptr) {
      for (size_t i = 0; i < count; ++i) new (p + i) T();
    }
    return p;
  }
  void reset() { used_ = 0; }

  size_t size() const { return size_; }
  size_t used() const { return used_; }
  size_t high_water_mark() const { return high_water_; }

 private:
  uint8_t* base_ = nullptr;
  size_t size_ = 0;
  size_t used_ = 0;
  size_t high_water_ = 0;
};

/// A caller-owned buffer for one planned memory id of the program.
struct Span {
  uint8_t* data = nullptr;
  size_t size = 0;
};

/// The three kinds of memory a method uses (as in ExecuTorch): the method allocator holds
/// tensor descriptors, instruction tables and delegate handles for the method's lifetime;
/// planned buffers hold activations at offsets decided by the compiler; the temp allocator
/// gives kernels and delegates scratch space and is reset after every instruction.
struct MemoryManager {
  MemoryAllocator* method_allocator = nullptr;
  Span* planned_buffers = nullptr;
  size_t planned_buffer_count = 0;
  MemoryAllocator* temp_allocator = nullptr;
  /// Where delegate backends take buffers too large for the method allocator (an NPU
  /// partition's intermediate results); may be null.
  MemoryAllocator* backend_data_allocator = nullptr;
};

}  // namespace socsim::runtime
