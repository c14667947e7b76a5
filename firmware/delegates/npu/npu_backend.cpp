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

Error init(const runtime::BackendInitContext& context, const uint8_t* blob, size_t size,
           void** handle) {
  if (blob == nullptr || size < header::kSize ||
      memcmp(blob + header::kMagic, npu::kBlobMagic, 4) != 0 ||
      read_u32(blob + header::kVersion) != npu::kBlobVersion ||
      read_u32(blob + header::kDescriptorSize) != npu::kDescriptorSize) {
    return Error::kDelegateInitFailed;
  }
  const uint32_t count = read_u32(blob + header::kLayerCount);
  if (count == 0 || (size - header::kSize) / npu::kDescriptorSize != count ||
      (size - header::kSize) % npu::kDescriptorSize != 0) {
    return Error::kDelegateInitFailed;
  }
  auto* h = static_cast<Handle*>(context.method_allocator->allocate(sizeof(Handle), 4));
  auto* list = static_cast<npu::LayerDescriptor*>(
      context.method_allocator->allocate(count * npu::kDescriptorSize, 16));
  if (h == nullptr || list == nullptr) return Error::kMemoryAllocationFailed;
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
  *handle = h;
  return Error::kOk;
}

Error execute(const runtime::BackendExecuteContext&, void* handle, Tensor* const* args,
              uint32_t input_count, uint32_t output_count) {
  auto* h = static_cast<Handle*>(handle);
  if (h == nullptr || h->max_index >= input_count + output_count) {
    return Error::kDelegateExecuteFailed;
  }
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
  const uint32_t status = run_list(h->list, h->count);
  g_status.status = status;
  g_status.error = (status & npu::kStatusError) ? (status >> npu::kStatusErrorShift) & 0xFF : 0;
  g_status.layer = status >> npu::kStatusLayerShift;
  g_status.error_name = npu::npu_error_name(g_status.error);
  return g_status.error == 0 ? Error::kOk : Error::kDelegateExecuteFailed;
}

void destroy(void*) {}  // handle and copy live in the method allocator

const runtime::Backend kNpuBackend = {kNpuBackendId, is_available, init, execute, destroy};

}  // namespace

void npu_backend_set_polling(bool polling) { g_polling = polling; }
const NpuRunStatus& npu_backend_last_status() { return g_status; }

SOCSIM_REGISTER_BACKEND(kNpuBackend);

}  // namespace socsim::delegates
