// Fuzz target: the program-file verifier of the firmware runtime (Program::load), built for
// the host, and what runs on a file it accepts: Method::load (tensor binding, delegate init,
// kernel resolution) and one execute() of the CPU kernels and the packed-CPU delegate.
// Program::load promises never to read outside the file and never to loop more than its
// size; ASan checks the first, libFuzzer's -timeout the second.
//
// Planned buffers come from the heap at the sizes the file asks for (each its own
// allocation, so ASan sees any write past one). Files whose memory plan is large are only
// loaded, not executed, to keep an input's time bounded: a kernel's work is at most about
// (planned bytes) x (planned bytes + file bytes).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "firmware/runtime/method.h"
#include "firmware/runtime/program.h"

namespace {

using namespace socsim::runtime;

constexpr uint64_t kMaxPlannedBytes = 1u << 20;  ///< larger plans are verified, not bound
constexpr uint64_t kMaxWork = 1u << 26;          ///< bound on the work estimate above

void run(const Program& program, size_t file_size) {
  const MethodMeta meta = program.method_meta();
  uint64_t planned_total = 0;
  for (uint32_t i = 0; i < meta.num_memory_planned_buffers(); ++i) {
    planned_total += meta.memory_planned_buffer_size(i);
  }
  if (planned_total > kMaxPlannedBytes) return;

  std::vector<std::unique_ptr<uint8_t[]>> planned;
  std::vector<Span> spans;
  for (uint32_t i = 0; i < meta.num_memory_planned_buffers(); ++i) {
    const size_t size = meta.memory_planned_buffer_size(i);
    // operator new[] of max_align_t alignment (16 on this host), as the runtime requires
    planned.emplace_back(new uint8_t[size == 0 ? 1 : size]());
    spans.push_back({planned.back().get(), size});
  }
  std::vector<uint64_t> method_pool(1 << 15), temp_pool(1 << 15);
  MemoryAllocator method_alloc(method_pool.data(), method_pool.size() * 8);
  MemoryAllocator temp_alloc(temp_pool.data(), temp_pool.size() * 8);
  MemoryManager manager{&method_alloc, spans.data(), spans.size(), &temp_alloc};
  MethodDiagnostics diag;
  Result<Method> method = Method::load(program, manager, &diag);
  if (!method.ok()) return;
  if (planned_total * (planned_total + file_size) <= kMaxWork) {
    (void)method->execute(&diag);
  }
}  // the Method releases its delegate handles here

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The runtime needs a 16-byte aligned file; an exact-size heap copy lets ASan catch a read
  // one byte past its end.
  std::unique_ptr<uint8_t[]> file(new uint8_t[size == 0 ? 1 : size]);
  if (size > 0) std::memcpy(file.get(), data, size);
  Result<Program> program = Program::load(file.get(), size);
  if (program.ok()) run(*program, size);
  return 0;
}
