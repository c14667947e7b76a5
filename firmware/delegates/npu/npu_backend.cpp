// npu backend: descriptors copied at init, addresses patched and the NPU run at execute.
#include "firmware/delegates/npu/npu_backend.h"

#include <string.h>

#include "firmware/abi/generated/npu_descriptor.h"
#include "firmware/abi/npu_registers.h"
#include "firmware/runtime/backend_registry.h"

#if defined(__riscv)
#include "socsim_memmap.h"  // generated from the SoC YAML: SOCSIM_NPU_BASE, SOCSIM_NPU_IRQ
#endif

namespace socsim::delegates {
namespace {

using runtime::Error;
using runtime::Tensor;

namespace header = npu::npu_blob_header;
using npu::kNoTensor;

struct Handle {
  const uint8_t* blob;         // the program's descriptors (tensor indices in addr[])
  npu::LayerDescriptor* list;  // the copy the NPU reads (addresses patched)
  uint32_t count;
  uint32_t max_index;          // largest tensor index any descriptor uses
  // Version 2 (self-contained) only: the call's tensor counts and the bytes each call tensor
  // must hold (inputs, then outputs); constants and scratch addresses are written at init.
  bool self_contained;
  uint32_t inputs;
  uint32_t outputs;
  uint32_t* call_bytes;
};

bool g_polling = false;
NpuRunStatus g_status;

uint32_t read_u32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}

#if defined(__riscv) && defined(SOCSIM_NPU_BASE)
volatile uint32_t& reg(uint32_t offset) {
  return *reinterpret_cast<volatile uint32_t*>(SOCSIM_NPU_BASE + offset);
}
bool is_available() { return reg(npu::kRegId) == npu::kIdValue; }

// Runs the list and waits for its end; returns the status register.
uint32_t run_list(const npu::LayerDescriptor* list, uint32_t count) {
  reg(npu::kRegCmdAddr) = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(list));
  reg(npu::kRegCmdCount) = count;
  const uint32_t line = 1u << SOCSIM_NPU_IRQ;
  if (!g_polling) {
    // WFI wakes on a pending interrupt enabled in mie even with mstatus.MIE clear, so no
    // handler is involved: the interrupt only ends the sleep.
    reg(npu::kRegIrqEnable) = 1;
    __asm__ volatile("csrs mie, %0" ::"r"(line));
  }
  reg(npu::kRegCtrl) = npu::kCtrlStart;
  uint32_t status;
  while (((status = reg(npu::kRegStatus)) & npu::kStatusDone) == 0) {
    if (!g_polling) __asm__ volatile("wfi");
  }
  if (!g_polling) __asm__ volatile("csrc mie, %0" ::"r"(line));
  g_status.cycles = reg(npu::kRegCyclesLo) | (static_cast<uint64_t>(reg(npu::kRegCyclesHi)) << 32);
  reg(npu::kRegIrqClear) = 1;
  reg(npu::kRegIrqEnable) = 0;
  return status;
}
#else
// No NPU in the memory map this firmware is linked for (or a host build).
bool is_available() { return false; }
uint32_t run_list(const npu::LayerDescriptor*, uint32_t) {
  return npu::kStatusDone | npu::kStatusError | (npu::kNpuBusError << npu::kStatusErrorShift);
}
#endif

Error fail(const runtime::BackendInitContext& context, const char* field) {
  if (context.detail != nullptr) *context.detail = field;
  return Error::kDelegateInitFailed;
}

bool known_opcode(uint32_t op) {
  for (const auto& entry : npu::kOpcodeClasses) {
    if (entry.opcode == op) return true;
  }
  return false;
}

// The bytes an int8 shape holds (each dimension at most 2^16, so no overflow in 64 bits).
uint64_t shape_bytes(const uint32_t* shape) {
  uint64_t n = 1;
  for (uint32_t i = 0; i < 4; ++i) n *= shape[i] > 0xFFFFu ? 0x10000u : shape[i];
  return n;
}

// Version 1 (a socsim program): descriptors whose every address is a call tensor index.
Error init_program_blob(const runtime::BackendInitContext& context, const uint8_t* blob,
                        size_t size, Handle* h) {
  const uint32_t count = read_u32(blob + header::kLayerCount);
  if (count == 0 || (size - header::kSize) / npu::kDescriptorSize != count ||
      (size - header::kSize) % npu::kDescriptorSize != 0) {
    return Error::kDelegateInitFailed;
  }
  auto* list = static_cast<npu::LayerDescriptor*>(
      context.method_allocator->allocate(count * npu::kDescriptorSize, 16));
  if (list == nullptr) return Error::kMemoryAllocationFailed;
  memcpy(list, blob + header::kSize, count * npu::kDescriptorSize);
  h->blob = blob + header::kSize;
  h->list = list;
  h->count = count;
  h->max_index = 0;
  for (uint32_t i = 0; i < count; ++i) {
    for (uint32_t slot = 0; slot < npu::kAddrCount; ++slot) {
      const uint32_t index = list[i].addr[slot];
      if (index != kNoTensor && index > h->max_index) h->max_index = index;
    }
  }
  return Error::kOk;
}

// Checks one address slot of a self-contained blob's descriptor and writes the constant or
// scratch address into the copy (a call tensor's comes at execute). `need` is the bytes the
// slot's shape says the layer reads or writes (0 when the slot's size is the operator's).
Error place_slot(const runtime::BackendInitContext& context, Handle* h, uint32_t slot,
                 uint64_t need, const uint8_t* constants, uint32_t constants_size,
                 uint8_t* scratch, uint32_t scratch_size, npu::LayerDescriptor* d) {
  const uint32_t value = d->addr[slot];
  if (value == kNoTensor) {
    if (slot == npu::kAddrInput || slot == npu::kAddrOutput) {
      return fail(context, "npu descriptor addr (input/output missing)");
    }
    return Error::kOk;
  }
  const uint32_t kind = value >> npu::kAddrKindShift;
  const uint32_t offset = value & npu::kAddrOffsetMask;
  if (kind == npu::kAddrKindCall) {
    if (offset >= h->inputs + h->outputs) return fail(context, "npu descriptor addr (call index)");
    if (slot == npu::kAddrOutput && offset < h->inputs) {
      return fail(context, "npu descriptor addr.output (a call input)");
    }
    if (need > h->call_bytes[offset]) h->call_bytes[offset] = static_cast<uint32_t>(need);
    d->addr[slot] = value;  // resolved at execute
    return Error::kOk;
  }
  if (kind == npu::kAddrKindConstant) {
    if (slot == npu::kAddrOutput) return fail(context, "npu descriptor addr.output (a constant)");
    if (offset % npu::kConstantAlignment != 0 || offset >= constants_size ||
        need > constants_size - offset) {
      return fail(context, "npu descriptor addr (constant offset)");
    }
    d->addr[slot] = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(constants + offset));
    return Error::kOk;
  }
  if (kind == npu::kAddrKindScratch) {
    if (offset % npu::kConstantAlignment != 0 || offset >= scratch_size ||
        need > scratch_size - offset) {
      return fail(context, "npu descriptor addr (scratch offset)");
    }
    d->addr[slot] = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(scratch + offset));
    return Error::kOk;
  }
  return fail(context, "npu descriptor addr (kind)");
}

// Version 2 (an ExecuTorch program): placement record, descriptors, constants; every field
// checked, the constants used where they are, scratch memory taken from the method allocator.
Error init_self_contained_blob(const runtime::BackendInitContext& context, const uint8_t* blob,
                               size_t size, Handle* h) {
  namespace place = npu::npu_blob_placement;
  if (size < header::kSize + place::kSize) return fail(context, "npu blob placement (truncated)");
  const uint8_t* p = blob + header::kSize;
  const uint32_t count = read_u32(blob + header::kLayerCount);
  const uint32_t inputs = read_u32(p + place::kInputCount);
  const uint32_t outputs = read_u32(p + place::kOutputCount);
  const uint32_t descriptors = read_u32(p + place::kDescriptorsOffset);
  const uint32_t constants_offset = read_u32(p + place::kConstantsOffset);
  const uint32_t constants_size = read_u32(p + place::kConstantsSize);
  const uint32_t scratch_size = read_u32(p + place::kScratchSize);
  const uint32_t scratch_alignment = read_u32(p + place::kScratchAlignment);
  if (count == 0) return fail(context, "npu blob layer_count");
  if (inputs == 0 || outputs == 0 || inputs > 255 || outputs > 255) {
    return fail(context, "npu blob input_count/output_count");
  }
  if (descriptors != header::kSize + place::kSize) {
    return fail(context, "npu blob descriptors_offset");
  }
  if (static_cast<uint64_t>(descriptors) + static_cast<uint64_t>(count) * npu::kDescriptorSize >
          constants_offset ||
      constants_offset % npu::kConstantAlignment != 0) {
    return fail(context, "npu blob constants_offset");
  }
  if (static_cast<uint64_t>(constants_offset) + constants_size != size) {
    return fail(context, "npu blob constants_size");
  }
  if (scratch_alignment < npu::kConstantAlignment || scratch_alignment > 4096 ||
      (scratch_alignment & (scratch_alignment - 1)) != 0) {
    return fail(context, "npu blob scratch_alignment");
  }
  if (read_u32(p + place::kReserved) != 0) return fail(context, "npu blob reserved");
  const uint8_t* constants = blob + constants_offset;
  if (reinterpret_cast<uintptr_t>(constants) % npu::kConstantAlignment != 0) {
    return fail(context, "npu blob constants (misaligned in the program)");
  }
  auto* list = static_cast<npu::LayerDescriptor*>(
      context.method_allocator->allocate(count * npu::kDescriptorSize, 16));
  auto* call_bytes = context.method_allocator->allocate_array<uint32_t>(inputs + outputs);
  uint8_t* scratch = nullptr;
  if (scratch_size > 0) {  // in the method pool if it fits, as the runner places planned memory
    scratch = static_cast<uint8_t*>(
        context.method_allocator->allocate(scratch_size, scratch_alignment));
    if (scratch == nullptr && context.data_allocator != nullptr) {
      scratch = static_cast<uint8_t*>(
          context.data_allocator->allocate(scratch_size, scratch_alignment));
    }
  }
  if (list == nullptr || call_bytes == nullptr || (scratch_size > 0 && scratch == nullptr)) {
    return Error::kMemoryAllocationFailed;
  }
  memcpy(list, blob + descriptors, count * npu::kDescriptorSize);
  for (uint32_t k = 0; k < inputs + outputs; ++k) call_bytes[k] = 0;
  h->blob = blob + descriptors;
  h->list = list;
  h->count = count;
  h->max_index = 0;
  h->self_contained = true;
  h->inputs = inputs;
  h->outputs = outputs;
  h->call_bytes = call_bytes;
  for (uint32_t i = 0; i < count; ++i) {
    npu::LayerDescriptor* d = &list[i];
    if (!known_opcode(d->op)) return fail(context, "npu descriptor op");
    if (d->post_op != 0 && !known_opcode(d->post_op)) {
      return fail(context, "npu descriptor post_op");
    }
    if (d->dtype != npu::kDtypeInt8 && d->dtype != npu::kDtypeUInt8) {
      return fail(context, "npu descriptor dtype");
    }
    if (d->arg_count > npu::kMaxArgs) return fail(context, "npu descriptor arg_count");
    if (d->flags != 0) return fail(context, "npu descriptor flags");
    for (uint32_t slot = 0; slot < npu::kAddrCount; ++slot) {
      const uint64_t need = slot == npu::kAddrInput     ? shape_bytes(d->in_shape)
                            : slot == npu::kAddrWeights ? shape_bytes(d->in1_shape)
                            : slot == npu::kAddrOutput  ? shape_bytes(d->out_shape)
                                                        : 0;
      SOCSIM_RT_TRY(place_slot(context, h, slot, need, constants, constants_size, scratch,
                               scratch_size, d));
    }
  }
  return Error::kOk;
}

Error init(const runtime::BackendInitContext& context, const uint8_t* blob, size_t size,
           void** handle) {
  if (blob == nullptr || size < header::kSize ||
      memcmp(blob + header::kMagic, npu::kBlobMagic, 4) != 0) {
    return fail(context, "npu blob magic");
  }
  const uint32_t version = read_u32(blob + header::kVersion);
  if (version != npu::kBlobVersion && version != npu::kBlobVersionSelfContained) {
    return fail(context, "npu blob version");
  }
  if (read_u32(blob + header::kDescriptorSize) != npu::kDescriptorSize) {
    return fail(context, "npu blob descriptor_size");
  }
  auto* h = static_cast<Handle*>(context.method_allocator->allocate(sizeof(Handle), 4));
  if (h == nullptr) return Error::kMemoryAllocationFailed;
  memset(h, 0, sizeof(Handle));
  const Error e = version == npu::kBlobVersion ? init_program_blob(context, blob, size, h)
                                               : init_self_contained_blob(context, blob, size, h);
  if (e != Error::kOk) return e;
  *handle = h;
  return Error::kOk;
}

Error execute(const runtime::BackendExecuteContext&, void* handle, Tensor* const* args,
              uint32_t input_count, uint32_t output_count) {
  auto* h = static_cast<Handle*>(handle);
  if (h == nullptr) return Error::kDelegateExecuteFailed;
  if (h->self_contained) {
    if (input_count != h->inputs || output_count != h->outputs) {
      return Error::kDelegateExecuteFailed;
    }
    for (uint32_t k = 0; k < h->inputs + h->outputs; ++k) {
      if (args[k]->nbytes < h->call_bytes[k]) return Error::kDelegateExecuteFailed;
    }
    // Constants and scratch were placed at init; the call's tensors are written here.
    for (uint32_t i = 0; i < h->count; ++i) {
      const auto* original = reinterpret_cast<const npu::LayerDescriptor*>(
          h->blob + i * npu::kDescriptorSize);
      for (uint32_t slot = 0; slot < npu::kAddrCount; ++slot) {
        uint32_t value;
        memcpy(&value, &original->addr[slot], sizeof value);
        if (value != kNoTensor && (value >> npu::kAddrKindShift) == npu::kAddrKindCall) {
          h->list[i].addr[slot] = static_cast<uint32_t>(
              reinterpret_cast<uintptr_t>(args[value & npu::kAddrOffsetMask]->data));
        }
      }
    }
  } else {
    if (h->max_index >= input_count + output_count) return Error::kDelegateExecuteFailed;
    // The runtime fixed every tensor's memory at load; the copy gets their addresses.
    for (uint32_t i = 0; i < h->count; ++i) {
      const auto* original = reinterpret_cast<const npu::LayerDescriptor*>(
          h->blob + i * npu::kDescriptorSize);
      for (uint32_t slot = 0; slot < npu::kAddrCount; ++slot) {
        uint32_t index;
        memcpy(&index, &original->addr[slot], sizeof index);
        const uintptr_t addr =
            index == kNoTensor ? 0 : reinterpret_cast<uintptr_t>(args[index]->data);
        h->list[i].addr[slot] = static_cast<uint32_t>(addr);
      }
    }
  }
  const uint32_t status = run_list(h->list, h->count);
  g_status.status = status;
  g_status.error = (status & npu::kStatusError) ? (status >> npu::kStatusErrorShift) & 0xFF : 0;
  g_status.layer = status >> npu::kStatusLayerShift;
  g_status.error_name = npu::npu_error_name(g_status.error);
  return g_status.error == 0 ? Error::kOk : Error::kDelegateExecuteFailed;
}

void destroy(void*) {}  // handle and copy live in the method allocator

const runtime::Backend kNpuBackend = {kNpuBackendId, is_available, init, execute, destroy};
// The same backend under the id ExecuTorch's exporter gives it (scripts/socsim_executorch).
const runtime::Backend kNpuExecutorchBackend = {kNpuExecutorchBackendId, is_available, init,
                                                execute, destroy};

}  // namespace

void npu_backend_set_polling(bool polling) { g_polling = polling; }
const NpuRunStatus& npu_backend_last_status() { return g_status; }

SOCSIM_REGISTER_BACKEND(kNpuBackend);
SOCSIM_REGISTER_BACKEND(kNpuExecutorchBackend);

}  // namespace socsim::delegates
