// Fixed-size kernel table. Plain arrays, zero-initialised in BSS before any constructor.
#include "firmware/runtime/kernel_registry.h"

#include <string.h>

#include "firmware/abi/generated/operators.h"

namespace socsim::runtime {
namespace {

// The firmware registers exactly the kernels the operator schema lists (or fewer, in a
// selective build), each (operator, dtype) once, so kMaxKernels (the schema's count) always
// suffices; kernel_cases_test checks that a full build registers every one.
Kernel g_kernels[kMaxKernels];
size_t g_kernel_count = 0;
Error g_status = Error::kOk;

bool name_equals(const Kernel& registered, const char* name, size_t length) {
  return registered.name_length == length && memcmp(registered.name, name, length) == 0;
}

}  // namespace

Error register_kernel(const Kernel& kernel) {
  Error error = Error::kOk;
  if (kernel.name == nullptr || kernel.fn == nullptr) {
    error = Error::kInvalidArgument;
  } else {
    Kernel entry = kernel;
    if (entry.name_length == 0) entry.name_length = strlen(entry.name);
    if (find_kernel(entry.name, entry.name_length, entry.dtype) != nullptr) {
      error = Error::kInvalidArgument;
    } else if (g_kernel_count == kMaxKernels) {
      error = Error::kRegistryFull;
    } else {
      g_kernels[g_kernel_count++] = entry;
    }
  }
  if (error != Error::kOk && g_status == Error::kOk) g_status = error;
  return error;
}

const Kernel* find_kernel(const char* name, size_t name_length, ScalarType dtype) {
  for (size_t i = 0; i < g_kernel_count; ++i) {
    if (g_kernels[i].dtype == dtype && name_equals(g_kernels[i], name, name_length)) {
      return &g_kernels[i];
    }
  }
  return nullptr;
}

size_t registered_kernel_count() {
  return g_kernel_count;
}
const Kernel& registered_kernel(size_t index) {
  return g_kernels[index];
}
Error kernel_registry_status() {
  return g_status;
}

}  // namespace socsim::runtime
