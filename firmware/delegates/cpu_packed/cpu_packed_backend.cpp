// cpu-packed backend: parses its blob at init, runs packed int8 adds at execute.
#include "firmware/delegates/cpu_packed/cpu_packed_backend.h"

#include <string.h>

#include "firmware/abi/generated/operators.h"
#include "firmware/abi/generated/program_layout.h"
#include "firmware/runtime/backend_registry.h"

namespace socsim::delegates {
namespace {

using runtime::Error;
using runtime::ScalarType;
using runtime::Tensor;

// A word that may alias the int8 activations it is read from.
typedef uint32_t __attribute__((may_alias)) PackedWord;

struct Handle {
  uint32_t op;
  uint32_t elements;
};

// The delegate call's tensors are those of the int8 aten::add.out it replaces: its inputs, then
// its output.
using Add = ops::Add;
constexpr uint32_t kTensorA = Add::kA;
constexpr uint32_t kTensorB = Add::kB;
constexpr uint32_t kTensorOut = Add::kInputs + Add::kOut;
constexpr uint32_t kTensors = Add::kInputs + Add::kOutputs;

uint32_t read_u32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}

bool is_available() {
  return true;
}

namespace blob_layout = abi::cpu_packed_blob;

Error init(const runtime::BackendInitContext& context, const uint8_t* blob, size_t size,
           void** handle) {
  if (blob == nullptr || size != blob_layout::kSize ||
      memcmp(blob + blob_layout::kMagic, abi::kCpuPackedMagic, 4) != 0 ||
      read_u32(blob + blob_layout::kVersion) != abi::kCpuPackedVersion ||
      read_u32(blob + blob_layout::kOp) != abi::kCpuPackedOpAdd) {
    return Error::kDelegateInitFailed;
  }
  auto* h = static_cast<Handle*>(context.method_allocator->allocate(sizeof(Handle), 4));
  if (h == nullptr) return Error::kMemoryAllocationFailed;
  h->op = abi::kCpuPackedOpAdd;
  h->elements = read_u32(blob + blob_layout::kElements);
  *handle = h;
  return Error::kOk;
}

Error execute(const runtime::BackendExecuteContext&, void* handle, Tensor* const* args,
              uint32_t input_count, uint32_t output_count) {
  const auto* h = static_cast<const Handle*>(handle);
  if (h == nullptr || input_count != Add::kInputs || output_count != Add::kOutputs) {
    return Error::kDelegateExecuteFailed;
  }
  for (uint32_t i = 0; i < kTensors; ++i) {  // every one int8, of the blob's element count
    if (args[i]->dtype != ScalarType::kInt8 || args[i]->numel() != h->elements) {
      return Error::kDelegateExecuteFailed;
    }
  }
  cpu_packed_add_i8(args[kTensorA]->data_as<int8_t>(), args[kTensorB]->data_as<int8_t>(),
                    args[kTensorOut]->data_as<int8_t>(), h->elements);
  return Error::kOk;
}

void destroy(void*) {}  // The handle lives in the method allocator.

const runtime::Backend kCpuPackedBackend = {kCpuPackedBackendId, is_available, init, execute,
                                            destroy};
// The same backend under the id ExecuTorch's exporter gives it (scripts/socsim_executorch).
const runtime::Backend kCpuPackedExecutorchBackend = {kCpuPackedExecutorchBackendId,
                                                      is_available, init, execute, destroy};

}  // namespace

void cpu_packed_add_i8(const int8_t* a, const int8_t* b, int8_t* out, uint32_t n) {
  uint32_t i = 0;
  const uintptr_t misalignment = reinterpret_cast<uintptr_t>(a) | reinterpret_cast<uintptr_t>(b) |
                                 reinterpret_cast<uintptr_t>(out);
  if ((misalignment & 3u) == 0) {
    const auto* wa = reinterpret_cast<const PackedWord*>(a);
    const auto* wb = reinterpret_cast<const PackedWord*>(b);
    auto* wo = reinterpret_cast<PackedWord*>(out);
    const uint32_t words = n / 4;
    for (uint32_t w = 0; w < words; ++w) {
      const uint32_t x = wa[w];
      const uint32_t y = wb[w];
      // Add the low 7 bits of each byte (no carry can cross a byte), then put back each
      // byte's top bit as the sum modulo 2 of the two top bits and the carry into it.
      wo[w] = ((x & 0x7F7F7F7Fu) + (y & 0x7F7F7F7Fu)) ^ ((x ^ y) & 0x80808080u);
    }
    i = words * 4;
  }
  for (; i < n; ++i) {
    out[i] = static_cast<int8_t>(
        static_cast<uint8_t>(static_cast<uint8_t>(a[i]) + static_cast<uint8_t>(b[i])));
  }
}

SOCSIM_REGISTER_BACKEND(kCpuPackedBackend);
SOCSIM_REGISTER_BACKEND(kCpuPackedExecutorchBackend);

}  // namespace socsim::delegates
