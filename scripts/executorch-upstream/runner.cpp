// A runner for ExecuTorch's own runtime on socsim, written for comparing it with socsim's
// runtime (docs/executorch.md, "ExecuTorch's own runtime on socsim"). It runs the .pte file
// and input that `socsim run --model/--input` placed in memory (the boot-info block) with
// ExecuTorch's Program and Method, and prints the same figures as socsim's executor_runner:
//
//   Program load: P cycles; method load: M cycles
//   Execution 1: E cycles            (setting the inputs, then Method::execute)
//   op I NAME: C cycles              (--profile: a second execution, one Method::step each)
//   res[i] = v                       (--print-outputs; int8 as unsigned bytes, float32 %.9g)
//
// Options (after `--` on the socsim command line):
//   --print-outputs   every output element
//   --profile         the cycles of every instruction, from a second execution by steps
//   --verify          Program::load with Verification::InternalConsistency (the FlatBuffer
//                     verifier) instead of the default Minimal
// Cycles are socsim_elapsed_cycles() differences, as in socsim's runner. Planned memory,
// the method allocator and the temp allocator are static buffers in SRAM (socsim's runner
// puts its pools there too); the program stays where the loader put it (DDR).
// Exit status 0 on success, 1 with a line naming the failing step and ExecuTorch's error code.
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <executorch/extension/data_loader/buffer_data_loader.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/executor/method.h>
#include <executorch/runtime/executor/program.h>
#include <executorch/runtime/platform/runtime.h>
#include <executorch/schema/program_generated.h>

#include "hal/socsim_hal.h"

namespace {

using executorch::aten::ScalarType;
using executorch::aten::Tensor;
using executorch::aten::TensorImpl;
using executorch::extension::BufferDataLoader;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::HierarchicalAllocator;
using executorch::runtime::MemoryAllocator;
using executorch::runtime::MemoryManager;
using executorch::runtime::Method;
using executorch::runtime::MethodMeta;
using executorch::runtime::Program;
using executorch::runtime::Result;
using executorch::runtime::Span;
using executorch::runtime::TensorInfo;

#ifndef ET_RUNNER_METHOD_POOL
#define ET_RUNNER_METHOD_POOL (512 * 1024)
#endif
#ifndef ET_RUNNER_PLANNED_POOL
#define ET_RUNNER_PLANNED_POOL (1024 * 1024)
#endif
#ifndef ET_RUNNER_TEMP_POOL
#define ET_RUNNER_TEMP_POOL (64 * 1024)
#endif
constexpr size_t kMaxPlannedBuffers = 8;
constexpr size_t kMaxInputs = 16;
constexpr size_t kMaxRank = 8;

alignas(16) uint8_t g_method_pool[ET_RUNNER_METHOD_POOL];
alignas(16) uint8_t g_planned_pool[ET_RUNNER_PLANNED_POOL];
alignas(16) uint8_t g_temp_pool[ET_RUNNER_TEMP_POOL];

unsigned long long as_ull(uint32_t v) { return static_cast<unsigned long long>(v); }

int fail(const char* what, Error error) {
  printf("et_upstream_runner: %s: error 0x%02x\n", what, static_cast<unsigned>(error));
  return 1;
}

struct InputTensor {
  int32_t sizes[kMaxRank];
  uint8_t dim_order[kMaxRank];
  int32_t strides[kMaxRank];
};

/// Hands every input's bytes to Method::set_input, which copies them into the planned input
/// tensors; the input data holds each input's bytes in order, as for socsim's runner.
Error set_inputs(Method& method, const MethodMeta& meta, const uint8_t* data, uint32_t size) {
  static InputTensor shapes[kMaxInputs];
  const size_t n = meta.num_inputs();
  if (n > kMaxInputs) return Error::NotSupported;
  uint32_t at = 0;
  for (size_t i = 0; i < n; ++i) {
    Result<TensorInfo> info = meta.input_tensor_meta(i);
    if (!info.ok()) return info.error();
    const size_t rank = info->sizes().size();
    if (rank > kMaxRank) return Error::NotSupported;
    InputTensor& s = shapes[i];
    for (size_t d = 0; d < rank; ++d) {
      s.sizes[d] = info->sizes()[d];
      s.dim_order[d] = info->dim_order()[d];
    }
    int32_t stride = 1;
    for (size_t d = rank; d-- > 0;) {
      s.strides[s.dim_order[d]] = stride;
      stride *= s.sizes[s.dim_order[d]];
    }
    const size_t nbytes = info->nbytes();
    if (data == nullptr || at + nbytes > size) return Error::InvalidArgument;
    TensorImpl impl(info->scalar_type(), static_cast<ssize_t>(rank), s.sizes,
                    const_cast<uint8_t*>(data + at), s.dim_order, s.strides);
    Error e = method.set_input(EValue(Tensor(&impl)), i);
    if (e != Error::Ok) return e;
    at += nbytes;
  }
  return Error::Ok;
}

void print_outputs(const Method& method) {
  unsigned long index = 0;
  for (size_t o = 0; o < method.outputs_size(); ++o) {
    const EValue& v = method.get_output(o);
    if (!v.isTensor()) {
      printf("res[%lu] = ?\n", index++);
      continue;
    }
    const Tensor t = v.toTensor();
    const uint8_t* p = static_cast<const uint8_t*>(t.const_data_ptr());
    for (ssize_t i = 0; i < t.numel(); ++i, ++index) {
      switch (t.scalar_type()) {
        case ScalarType::Float: {
          float f;
          memcpy(&f, p + 4 * i, 4);
          printf("res[%lu] = %.9g\n", index, static_cast<double>(f));
          break;
        }
        case ScalarType::Int: {
          int32_t x;
          memcpy(&x, p + 4 * i, 4);
          printf("res[%lu] = %ld\n", index, static_cast<long>(x));
          break;
        }
        case ScalarType::Char:
        case ScalarType::Byte:
        case ScalarType::Bool:
          printf("res[%lu] = %u\n", index, static_cast<unsigned>(p[i]));
          break;
        case ScalarType::Long: {
          int64_t x;
          memcpy(&x, p + 8 * i, 8);
          printf("res[%lu] = %lld\n", index, static_cast<long long>(x));
          break;
        }
        default:
          printf("res[%lu] = ?\n", index);
          break;
      }
    }
  }
}

/// The operator name of instruction `index` of the first chain of plan 0 (the fixtures have
/// one chain), or the instruction's kind.
const char* instruction_name(const uint8_t* model, uint32_t index) {
  const executorch_flatbuffer::Program* program = executorch_flatbuffer::GetProgram(model);
  const auto* plan = program->execution_plan()->Get(0);
  const auto* instr = plan->chains()->Get(0)->instructions()->Get(index);
  switch (instr->instr_args_type()) {
    case executorch_flatbuffer::InstructionArguments::KernelCall: {
      const auto* op = plan->operators()->Get(instr->instr_args_as_KernelCall()->op_index());
      static char name[96];
      snprintf(name, sizeof(name), "%s%s%s", op->name()->c_str(),
               op->overload()->size() > 0 ? "." : "", op->overload()->c_str());
      return name;
    }
    case executorch_flatbuffer::InstructionArguments::DelegateCall:
      return "DelegateCall";
    case executorch_flatbuffer::InstructionArguments::MoveCall:
      return "MoveCall";
    case executorch_flatbuffer::InstructionArguments::JumpFalseCall:
      return "JumpFalseCall";
    case executorch_flatbuffer::InstructionArguments::FreeCall:
      return "FreeCall";
    default:
      return "?";
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool print = false, profile = false, verify = false;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--print-outputs") == 0) {
      print = true;
    } else if (strcmp(argv[i], "--profile") == 0) {
      profile = true;
    } else if (strcmp(argv[i], "--verify") == 0) {
      verify = true;
    } else {
      printf("et_upstream_runner: unknown option %s (--print-outputs, --profile, --verify)\n",
             argv[i]);
      return 1;
    }
  }
  const volatile struct socsim_bootinfo* info = socsim_bootinfo();
  if (info == nullptr || info->model_addr == 0) {
    printf("et_upstream_runner: no model (socsim run --model FILE.pte)\n");
    return 1;
  }
  const uint8_t* model = reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(info->model_addr));
  const uint32_t model_size = info->model_size;
  const uint8_t* input = reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(info->input_addr));
  const uint32_t input_size = info->input_addr != 0 ? info->input_size : 0;

  executorch::runtime::runtime_init();
  BufferDataLoader loader(model, model_size);

  const uint32_t t0 = socsim_elapsed_cycles();
  Result<Program> program = Program::load(
      &loader, verify ? Program::Verification::InternalConsistency
                      : Program::Verification::Minimal);
  const uint32_t t1 = socsim_elapsed_cycles();
  if (!program.ok()) return fail("program load", program.error());

  Result<const char*> name = program->get_method_name(0);
  if (!name.ok()) return fail("method name", name.error());
  Result<MethodMeta> meta = program->method_meta(*name);
  if (!meta.ok()) return fail("method meta", meta.error());

  // Planned buffers, carved from one static pool.
  Span<uint8_t> planned[kMaxPlannedBuffers];
  const size_t n_planned = meta->num_memory_planned_buffers();
  if (n_planned > kMaxPlannedBuffers) return fail("planned buffers", Error::NotSupported);
  size_t used = 0;
  for (size_t i = 0; i < n_planned; ++i) {
    Result<int64_t> planned_size = meta->memory_planned_buffer_size(i);
    if (!planned_size.ok()) return fail("planned buffers", planned_size.error());
    const size_t size = static_cast<size_t>(*planned_size);
    if (*planned_size < 0 || used + size > sizeof(g_planned_pool)) {
      return fail("planned buffers", Error::MemoryAllocationFailed);
    }
    planned[i] = Span<uint8_t>(g_planned_pool + used, size);
    used += (size + 15) & ~size_t{15};
  }
  HierarchicalAllocator planned_memory(Span<Span<uint8_t>>(planned, n_planned));
  MemoryAllocator method_allocator(sizeof(g_method_pool), g_method_pool);
  MemoryAllocator temp_allocator(sizeof(g_temp_pool), g_temp_pool);
  MemoryManager memory_manager(&method_allocator, &planned_memory, &temp_allocator);

  const uint32_t t2 = socsim_elapsed_cycles();
  Result<Method> method = program->load_method(*name, &memory_manager);
  const uint32_t t3 = socsim_elapsed_cycles();
  if (!method.ok()) return fail("method load", method.error());

  printf("Model: %lu bytes (ExecuTorch program, ExecuTorch runtime), method %s, %lu inputs, "
         "%lu outputs; planned memory %lu bytes\n",
         static_cast<unsigned long>(model_size), *name,
         static_cast<unsigned long>(meta->num_inputs()),
         static_cast<unsigned long>(meta->num_outputs()), static_cast<unsigned long>(used));
  printf("Program load: %llu cycles; method load: %llu cycles\n", as_ull(t1 - t0),
         as_ull(t3 - t2));

  const uint32_t start = socsim_elapsed_cycles();
  Error error = set_inputs(*method, *meta, input, input_size);
  if (error != Error::Ok) return fail("input data", error);
  error = method->execute();
  const uint32_t end = socsim_elapsed_cycles();
  if (error != Error::Ok) return fail("execute", error);
  printf("Execution 1: %llu cycles\n", as_ull(end - start));
  if (print) print_outputs(*method);

  if (profile) {
    error = set_inputs(*method, *meta, input, input_size);
    if (error != Error::Ok) return fail("input data", error);
    uint32_t index = 0;
    uint64_t total = 0;
    for (;;) {
      const uint32_t s = socsim_elapsed_cycles();
      error = method->step();
      const uint32_t e = socsim_elapsed_cycles();
      if (error == Error::EndOfMethod) break;
      if (error != Error::Ok) return fail("step", error);
      printf("  op %lu %s: %llu cycles\n", static_cast<unsigned long>(index),
             instruction_name(model, index), as_ull(e - s));
      total += e - s;
      ++index;
      if (!method->in_progress()) break;
    }
    printf("Steps: %lu instructions, %llu cycles\n", static_cast<unsigned long>(index),
           static_cast<unsigned long long>(total));
  }
  printf("Allocators: method %lu of %lu bytes, planned %lu of %lu bytes\n",
         static_cast<unsigned long>(method_allocator.used_size()),
         static_cast<unsigned long>(method_allocator.size()), static_cast<unsigned long>(used),
         static_cast<unsigned long>(sizeof(g_planned_pool)));
  return 0;
}
