// The delegate backend registry.
//
// A backend executes delegate segments the compiler cut out of the graph. It is a table of
// plain function pointers (no virtual calls, no RTTI) registered, like kernels, from a
// static initialiser. Method::load looks each delegate's backend up by id, checks
// is_available(), calls init() on the delegate's blob, and at execution calls execute() with
// the delegate call's input and output tensors; a DelegateHandle calls destroy() when it is
// destroyed (with its Method).
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "firmware/runtime/error.h"
#include "firmware/runtime/memory.h"
#include "firmware/runtime/tensor.h"

namespace socsim::runtime {

struct BackendInitContext {
  /// Allocator for the delegate's handle and state (lives as long as the method).
  MemoryAllocator* method_allocator = nullptr;
  /// Allocator for large buffers that do not fit the method allocator (lives as long as the
  /// method; may be null).
  MemoryAllocator* data_allocator = nullptr;
  /// Where init() may store the name of the blob's field it refused (a static string), for
  /// the loader's one-line message; may be null.
  const char** detail = nullptr;
};

struct BackendExecuteContext {
  MemoryAllocator* temp = nullptr;  ///< Scratch memory, reset after the call.
};

struct Backend {
  const char* id = nullptr;  ///< Matches the delegate segment's backend id.
  bool (*is_available)() = nullptr;
  /// Parses `blob` (read-only, 16-byte aligned, in the program) and returns a handle.
  Error (*init)(const BackendInitContext& context, const uint8_t* blob, size_t blob_size,
                void** handle) = nullptr;
  /// args = the call's inputs, then its outputs.
  Error (*execute)(const BackendExecuteContext& context, void* handle, Tensor* const* args,
                   uint32_t input_count, uint32_t output_count) = nullptr;
  void (*destroy)(void* handle) = nullptr;
};

constexpr size_t kMaxBackends = 8;

/// Adds a backend (the pointer must stay valid). kRegistryFull or kInvalidArgument (null
/// function, duplicate id); failures are also kept for backend_registry_status().
Error register_backend(const Backend* backend);
const Backend* find_backend(const char* id, size_t id_length);
Error backend_registry_status();

/// A delegate segment's backend and the handle its init() returned. It owns the handle:
/// destroying it calls the backend's destroy(). Movable, not copyable, so a handle is
/// released exactly once.
class DelegateHandle {
 public:
  DelegateHandle() = default;
  DelegateHandle(const Backend* backend, void* handle) : backend_(backend), handle_(handle) {}
  DelegateHandle(DelegateHandle&& other) : backend_(other.backend_), handle_(other.handle_) {
    other.backend_ = nullptr;
    other.handle_ = nullptr;
  }
  DelegateHandle& operator=(DelegateHandle&& other) {
    if (this != &other) {
      release();
      backend_ = other.backend_;
      handle_ = other.handle_;
      other.backend_ = nullptr;
      other.handle_ = nullptr;
    }
    return *this;
  }
  DelegateHandle(const DelegateHandle&) = delete;
  DelegateHandle& operator=(const DelegateHandle&) = delete;
  ~DelegateHandle() { release(); }

  const Backend* backend() const { return backend_; }
  void* handle() const { return handle_; }

 private:
  void release() {
    if (backend_ != nullptr) backend_->destroy(handle_);
    backend_ = nullptr;
    handle_ = nullptr;
  }

  const Backend* backend_ = nullptr;
  void* handle_ = nullptr;
};

/// The delegate handles of one method: an array from the method allocator (pool memory, never
/// freed) whose first size() entries it owns. Destroying or reassigning it destroys them
/// (each calls its backend's destroy()); moving it moves the ownership, so every handle is
/// released exactly once.
class DelegateHandles {
 public:
  DelegateHandles() = default;
  DelegateHandles(DelegateHandles&& other) { *this = move_from(other); }
  DelegateHandles& operator=(DelegateHandles&& other) {
    if (this != &other) {
      release();
      handles_ = other.handles_;
      count_ = other.count_;
      other.handles_ = nullptr;
      other.count_ = 0;
    }
    return *this;
  }
  DelegateHandles(const DelegateHandles&) = delete;
  DelegateHandles& operator=(const DelegateHandles&) = delete;
  ~DelegateHandles() { release(); }

  /// Releases any handles held, then takes room for `capacity` handles from `alloc`; false if
  /// the allocator is out of memory (and capacity > 0).
  bool allocate(MemoryAllocator& alloc, uint32_t capacity) {
    release();
    handles_ = alloc.allocate_array<DelegateHandle>(capacity);
    return handles_ != nullptr || capacity == 0;
  }
  /// Stores the next handle (entry size()); the room must have been allocated.
  void push(DelegateHandle&& handle) { handles_[count_++] = move_from(handle); }

  uint32_t size() const { return count_; }
  const DelegateHandle& operator[](uint32_t index) const { return handles_[index]; }

 private:
  void release() {
    for (uint32_t i = 0; i < count_ && handles_ != nullptr; ++i) handles_[i].~DelegateHandle();
    handles_ = nullptr;
    count_ = 0;
  }

  DelegateHandle* handles_ = nullptr;
  uint32_t count_ = 0;
};

struct BackendRegistrar {
  explicit BackendRegistrar(const Backend* backend) { (void)register_backend(backend); }
};

}  // namespace socsim::runtime

/// SOCSIM_REGISTER_BACKEND(kMyBackend);  (a `const Backend` object at namespace scope)
#define SOCSIM_REGISTER_BACKEND(backend) \
  static ::socsim::runtime::BackendRegistrar SOCSIM_RT_CONCAT(socsim_backend_, __LINE__)(&(backend))
