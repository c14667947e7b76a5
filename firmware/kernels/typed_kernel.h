// Typed kernels: how a kernel file defines and registers an operator's CPU kernel.
//
// A kernel is a function of the typed signature the operator schema generates for its
// operator (Unboxed<Op>::Fn in firmware/kernels/generated/signatures.h): one named parameter
// per operand (a TensorList for a variadic one), the operator's argument view when it has
// arguments, and the scratch allocator, e.g.
//
//   Error add_f32(const Tensor& a, const Tensor& b, Tensor& out, MemoryAllocator* temp);
//
// SOCSIM_KERNEL(ops::Add, add_f32, kFloat32) then defines the boxed entry point the runtime
// calls, an overload `Error add_f32(const KernelArgs&)` in the same anonymous namespace: the
// generated wrapper checks the operand counts, the argument word count and the element types
// the schema declares, then calls the typed function, which the compiler folds into it (it
// is called once). The entry point keeps the kernel's name, so profiles and probes name the
// operator's region after it (docs/probes.md). The schema must list every element type
// given (checked at compile time); docs/extending.md shows the whole recipe.
#pragma once

#include "firmware/abi/generated/operators.h"
#include "firmware/kernels/generated/signatures.h"
#include "firmware/runtime/kernel_registry.h"

/// SOCSIM_KERNEL(op, fn, dtype...): at namespace scope in socsim::kernels, after the typed
/// function `fn` (in the file's anonymous namespace), once per function; `op` is the
/// operator's type in socsim::ops, the dtypes are kFloat32, kInt8, kInt32 or kUInt8.
#define SOCSIM_KERNEL(op, fn, ...)                                                            \
  static_assert(                                                                              \
      [] {                                                                                    \
        using namespace ::socsim::runtime::kernel_dtypes;                                     \
        return ::socsim::runtime::KernelDtypes{__VA_ARGS__};                                  \
      }()                                                                                     \
          .in_schema<op>(),                                                                   \
      #op " lists " #__VA_ARGS__ ": not every one is a kernel of the operator schema");       \
  namespace {                                                                                 \
  ::socsim::runtime::Error fn(const ::socsim::runtime::KernelArgs& k) {                       \
    return ::socsim::kernels::Unboxed<op>::call(                                              \
        k, static_cast<::socsim::kernels::Unboxed<op>::Fn>(fn));                              \
  }                                                                                           \
  }                                                                                           \
  static ::socsim::runtime::KernelRegistrar SOCSIM_RT_CONCAT(socsim_kernel_, __LINE__)(       \
      op::kName, op::kNameLength,                                                             \
      [] {                                                                                    \
        using namespace ::socsim::runtime::kernel_dtypes;                                     \
        return ::socsim::runtime::KernelDtypes{__VA_ARGS__};                                  \
      }(),                                                                                    \
      static_cast<::socsim::runtime::KernelFn>(fn))
