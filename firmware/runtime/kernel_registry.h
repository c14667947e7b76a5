// The kernel registry: a fixed-size table filled by static registration.
//
// Each kernel file registers its functions with SOCSIM_KERNEL (firmware/kernels/typed_kernel.h:
// a typed function, unboxed by a wrapper generated from the operator schema), which creates a
// static object whose constructor runs from .init_array before main: operator
// initialisation is start-up cost, as in ExecuTorch. Operators are named by their type in
// the operator schema (firmware/abi/generated/operators.h), which gives the name and checks
// at compile time that the schema lists the kernel's element type. The table has one entry
// per (operator, element type) kernel the schema declares, so it cannot overflow; it is plain
// initialised data (.data: an empty entry's dtype is not 0), valid before any constructor
// runs. Selective builds simply leave kernel files out (see firmware/kernels/CMakeLists.txt).
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "firmware/abi/generated/operators.h"
#include "firmware/runtime/error.h"
#include "firmware/runtime/memory.h"
#include "firmware/runtime/tensor.h"

namespace socsim::runtime {

/// Everything a kernel call receives (the boxed form; SOCSIM_KERNEL unboxes it). Kernels are
/// "out" style: outputs are preallocated tensors (shape and memory fixed by the program), the
/// kernel only writes their data.
struct KernelArgs {
  Tensor* const* inputs = nullptr;
  uint32_t input_count = 0;
  Tensor* const* outputs = nullptr;
  uint32_t output_count = 0;
  const int32_t* args = nullptr;  ///< Operator arguments: read them with Op::Args(args).
  uint32_t arg_count = 0;
  MemoryAllocator* temp = nullptr;  ///< Scratch memory, reset after the call.
};

using KernelFn = Error (*)(const KernelArgs& args);

/// A kernel is found by operator name and the dtype of its first input.
struct Kernel {
  const char* name = nullptr;
  ScalarType dtype = ScalarType::kFloat32;
  KernelFn fn = nullptr;
  /// strlen(name) (register_kernel() computes it when 0): schema names share long prefixes
  /// (quantized_decomposed::...), so lookups compare lengths before characters.
  size_t name_length = 0;
};

/// The table size: every (operator, element type) kernel the operator schema declares. A
/// registration must name one of them (checked at compile time) and each only once.
constexpr size_t kMaxKernels = sizeof(ops::kSchemaKernels) / sizeof(ops::kSchemaKernels[0]);

/// Adds a kernel. kRegistryFull when the table is full, kInvalidArgument for a duplicate
/// name+dtype. Failures are also remembered for kernel_registry_status().
Error register_kernel(const Kernel& kernel);
/// The kernel for `name` (not necessarily NUL-terminated) and `dtype`, or nullptr.
const Kernel* find_kernel(const char* name, size_t name_length, ScalarType dtype);
size_t registered_kernel_count();
const Kernel& registered_kernel(size_t index);
/// kOk, or the first error any registration hit (checked by Method::load).
Error kernel_registry_status();

/// The element types one kernel function is registered for (SOCSIM_KERNEL's list).
struct KernelDtypes {
  static constexpr uint32_t kMax = 4;
  ScalarType types[kMax];
  uint32_t count;

  template <typename... T>
  constexpr KernelDtypes(T... t) : types{t...}, count(sizeof...(T)) {
    static_assert(sizeof...(T) >= 1 && sizeof...(T) <= kMax, "one to four element types");
  }
  /// True when the schema lists operator Op's kernel for every type.
  template <typename Op>
  constexpr bool in_schema() const {
    for (uint32_t i = 0; i < count; ++i) {
      if (!Op::has_kernel(static_cast<uint8_t>(types[i]))) return false;
    }
    return true;
  }
};

/// The element type names SOCSIM_KERNEL's list is written in (kFloat32, kInt8, ...).
namespace kernel_dtypes {
constexpr ScalarType kFloat32 = ScalarType::kFloat32;
constexpr ScalarType kInt8 = ScalarType::kInt8;
constexpr ScalarType kInt32 = ScalarType::kInt32;
constexpr ScalarType kUInt8 = ScalarType::kUInt8;
}  // namespace kernel_dtypes

/// Registers a kernel from a static initialiser, for one or several element types. Inlined
/// into the file's initialiser: no function of its own takes a KernelFn, since the probes
/// take every function whose parameters mention `(KernelArgs const&)` for a kernel
/// (firmware/abi/runtime_probe_abi.h).
struct KernelRegistrar {
  KernelRegistrar(const char* name, size_t name_length, ScalarType dtype, KernelFn fn) {
    (void)register_kernel(Kernel{name, dtype, fn, name_length});
  }
  __attribute__((always_inline)) KernelRegistrar(const char* name, size_t name_length,
                                                 const KernelDtypes& dtypes, KernelFn fn) {
    for (uint32_t i = 0; i < dtypes.count; ++i) {
      (void)register_kernel(Kernel{name, dtypes.types[i], fn, name_length});
    }
  }
};

}  // namespace socsim::runtime
