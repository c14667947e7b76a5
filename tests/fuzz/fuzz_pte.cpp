// Fuzz target: the ExecuTorch program reader of the firmware runtime (PteProgram::load) and
// what runs on a file it accepts: PteMethod::load (values, tensors, delegates, operators) and
// one execute(). Seeds: the checked-in programs of tests/runtime/pte/. The reader promises
// never to read outside the file; ASan checks it, libFuzzer's -timeout checks that no input
// hangs (an execution runs at most PteMethod::kMaxStepsPerInstruction steps an instruction).
//
// Planned buffers come from the heap at the sizes the file asks for (each its own allocation,
// so ASan sees any write past one); files with a large memory plan are loaded, not run.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "firmware/runtime/pte_method.h"
#include "firmware/runtime/pte_program.h"

namespace {

using namespace socsim::runtime;

constexpr uint64_t kMaxPlannedBytes = 1u << 20;  ///< larger plans are read, not bound
constexpr uint64_t kMaxWork = 1u << 26;          ///< bound on (planned)^2 for executing

void run(const PteProgram& program, size_t file_size) {
  uint64_t planned_total = 0;
  for (uint32_t i = 0; i < program.num_memory_planned_buffers(); ++i) {
    planned_total += program.memory_planned_buffer_size(i);
  }
  if (planned_total > kMaxPlannedBytes) return;
  std::vector<std::unique_ptr<uint8_t[]>> planned;
  std::vector<Span> spans;
  for (uint32_t i = 0; i < program.num_memory_planned_buffers(); ++i) {
    const size_t size = program.memory_planned_buffer_size(i);
    planned.emplace_back(new uint8_t[size == 0 ? 1 : size]());
    spans.push_back({planned.back().get(), size});
  }
  std::vector<uint64_t> method_pool(1 << 15), temp_pool(1 << 12);
  MemoryAllocator method_alloc(method_pool.data(), method_pool.size() * 8);
  MemoryAllocator temp_alloc(temp_pool.data(), temp_pool.size() * 8);
  MemoryManager manager{&method_alloc, spans.data(), spans.size(), &temp_alloc};
  PteDiagnostics diag;
  Result<PteMethod> method = PteMethod::load(program, manager, &diag);
  if (!method.ok()) return;
  if (planned_total * (planned_total + file_size) <= kMaxWork) (void)method->execute(&diag);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // A 16-byte aligned exact-size heap copy: ASan catches a read one byte past its end.
  std::unique_ptr<uint8_t[]> file(new uint8_t[size == 0 ? 1 : size]);
  if (size > 0) std::memcpy(file.get(), data, size);
  PteDiagnostics diag;
  Result<PteProgram> program = PteProgram::load(file.get(), size, &diag);
  if (program.ok()) run(*program, size);
  return 0;
}
