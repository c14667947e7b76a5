// executor_runner: runs the model that `socsim run --model FILE` placed in memory.
//
// One firmware runs any model: the boot-info block says where the model (and optional input
// data, `--input FILE`) are. The model is a socsim program file or an ExecuTorch program
// (.pte, recognised by its identifier "ET12"; docs/executorch.md). Weights are used where
// the model file lies (no copy). Method and temp pools are static buffers in BSS, sized at
// build time (SOCSIM_RUNNER_METHOD_POOL / SOCSIM_RUNNER_TEMP_POOL); planned memory comes
// from the method pool, or, for models whose activations do not fit it, from the pool the
// boot-info block offers (the SoC's `loader.pool_region`, DDR in the default SoC:
// docs/boot-info.md). Inputs are element i = i % 128 unless input data was given (every
// input's raw bytes, in order).
//
// Arguments (after `--` on the socsim command line):
//   --num-executions N   execute N times (default 1), setting the inputs before each
//   --copy-inputs        copy the input data into the inputs' planned memory before each
//                        execution (Method::set_input). By default the inputs read the data
//                        where the simulator placed it (Method::bind_input, as a deployed
//                        runtime binds a camera's frame buffer) when its size is the model's
//                        inputs' and every input starts Method::kInputAlignment-aligned;
//                        other data is copied
//   --inputs-in-place    always read the input data in place (the first bytes of longer data)
//   --pools WHERE        where planned memory and the temp pool go: `static` (the BSS pools),
//                        `region` (the boot-info pool: planned buffers and the temp pool),
//                        `auto` (default: the BSS pools; planned buffers that do not fit go
//                        to the boot-info pool, as do those that leave the method's own
//                        tables no room)
//   --print-outputs      print every output element as "res[i] = v" (int8 as unsigned
//                        bytes, as the seed's runner; float32 with 9 significant digits)
//   --profile            print the cycles of every operator and delegate call (for the npu
//                        backend also the NPU cycles of its command list)
//   --npu-poll           the npu backend polls the NPU's status register instead of
//                        sleeping in WFI until its interrupt
// A language-model bundle (magic "SLM1", docs/llm.md) runs prefill and decode steps instead
// (llm_runner.h); its arguments:
//   --prompt-tokens N    the prompt's length (must be the bundle's; default: the bundle's)
//   --generate K         tokens to generate (default 8): the first from prefill's logits,
//                        then K - 1 decode steps
//   --print-logits       every step's logits as "logits[step][i] = v"
// Cycles are CPU clock cycles elapsed (socsim_elapsed_cycles: they include time the core
// sleeps in WFI while the NPU runs, which mcycle does not count).
// Exit status 0 on success; 1 with a message naming the error otherwise (an NPU error: its
// name and the failing layer, from the status register; a .pte file the loader refuses: one
// line naming the error and the field, e.g. "executor_runner: model file: ProgramOutOfBounds
// (error 0x23): Tensor.sizes 12").
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "firmware/apps/executor_runner/allocators_line.h"
#include "firmware/apps/executor_runner/llm_runner.h"
#include "firmware/apps/executor_runner/pte_error_line.h"
#include "firmware/delegates/npu/npu_backend.h"
#include "firmware/runtime/method.h"
#include "firmware/runtime/program_formats.h"
#include "firmware/runtime/profiling.h"
#include "firmware/runtime/program.h"
#include "firmware/runtime/pte_method.h"
#include "firmware/runtime/pte_program.h"
#include "hal/socsim_hal.h"

#ifndef SOCSIM_RUNNER_METHOD_POOL
#define SOCSIM_RUNNER_METHOD_POOL (1024 * 1024)
#endif
#ifndef SOCSIM_RUNNER_TEMP_POOL
#define SOCSIM_RUNNER_TEMP_POOL (256 * 1024)
#endif

namespace {

using socsim::runtime::Error;
using socsim::runtime::MemoryAllocator;
using socsim::runtime::MemoryManager;
using socsim::runtime::Method;
using socsim::runtime::MethodDiagnostics;
using socsim::runtime::MethodMeta;
using socsim::runtime::ProfileEvent;
using socsim::runtime::ProfilingHooks;
using socsim::runtime::Program;
using socsim::runtime::PteDiagnostics;
using socsim::runtime::PteMethod;
using socsim::runtime::PteProgram;
using socsim::apps::fail_pte;
using socsim::runtime::PteScalarType;
using socsim::runtime::Result;
using socsim::runtime::ScalarType;
using socsim::runtime::Span;
using socsim::runtime::Tensor;

alignas(16) uint8_t g_method_pool[SOCSIM_RUNNER_METHOD_POOL];
alignas(16) uint8_t g_temp_pool[SOCSIM_RUNNER_TEMP_POOL];
constexpr uint32_t kMaxPlannedBuffers = 8;

enum class Pools { kAuto, kStatic, kRegion };
enum class Inputs { kAuto, kCopy, kInPlace };

struct Options {
  uint32_t executions = 1;
  Pools pools = Pools::kAuto;
  Inputs inputs = Inputs::kAuto;
  bool print_outputs = false;
  bool profile = false;
  bool npu_poll = false;
  socsim::apps::LlmOptions llm;
};

int fail(const char* what, Error error, const char* name = nullptr) {
  printf("executor_runner: %s: %s (error 0x%02x)%s%s\n", what, socsim::runtime::to_string(error),
         static_cast<unsigned>(error), name != nullptr ? ": " : "", name != nullptr ? name : "");
  return 1;
}

bool parse(int argc, char** argv, Options* options) {
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--num-executions") == 0 && i + 1 < argc) {
      char* end = nullptr;
      const long n = strtol(argv[++i], &end, 10);
      if (end == argv[i] || *end != '\0' || n < 1) {
        printf("executor_runner: --num-executions needs a positive number\n");
        return false;
      }
      options->executions = static_cast<uint32_t>(n);
    } else if (strcmp(argv[i], "--pools") == 0 && i + 1 < argc) {
      const char* where = argv[++i];
      if (strcmp(where, "auto") == 0) {
        options->pools = Pools::kAuto;
      } else if (strcmp(where, "static") == 0) {
        options->pools = Pools::kStatic;
      } else if (strcmp(where, "region") == 0) {
        options->pools = Pools::kRegion;
      } else {
        printf("executor_runner: --pools takes auto, static or region, not '%s'\n", where);
        return false;
      }
    } else if (strcmp(argv[i], "--inputs-in-place") == 0 ||
               strcmp(argv[i], "--copy-inputs") == 0) {
      const Inputs inputs =
          strcmp(argv[i], "--copy-inputs") == 0 ? Inputs::kCopy : Inputs::kInPlace;
      if (options->inputs != Inputs::kAuto && options->inputs != inputs) {
        printf("executor_runner: --copy-inputs and --inputs-in-place exclude each other\n");
        return false;
      }
      options->inputs = inputs;
    } else if ((strcmp(argv[i], "--prompt-tokens") == 0 || strcmp(argv[i], "--generate") == 0) &&
               i + 1 < argc) {
      const bool prompt = strcmp(argv[i], "--prompt-tokens") == 0;
      char* end = nullptr;
      const long n = strtol(argv[++i], &end, 10);
      if (end == argv[i] || *end != '\0' || n < 1 || n > 65536) {
        printf("executor_runner: %s needs a number from 1 to 65536\n",
               prompt ? "--prompt-tokens" : "--generate");
        return false;
      }
      (prompt ? options->llm.prompt_tokens : options->llm.generate) = static_cast<uint32_t>(n);
    } else if (strcmp(argv[i], "--print-logits") == 0) {
      options->llm.print_logits = true;
    } else if (strcmp(argv[i], "--print-outputs") == 0) {
      options->print_outputs = true;
    } else if (strcmp(argv[i], "--profile") == 0) {
      options->profile = true;
    } else if (strcmp(argv[i], "--npu-poll") == 0) {
      options->npu_poll = true;
    } else {
      printf(
          "executor_runner: unknown argument '%s' (known: --num-executions N, --pools "
          "auto|static|region, --copy-inputs, --inputs-in-place, --print-outputs, --profile, "
          "--npu-poll, --prompt-tokens N, --generate K, --print-logits)\n",
          argv[i]);
      return false;
    }
  }
  return true;
}

// ---- profiling: cycles per operator/delegate call ----------------------------------------

struct CallTimer {
  uint32_t start = 0;
};

void on_begin(void* context, ProfileEvent event, uint32_t, const char*, uint32_t) {
  if (event == ProfileEvent::kOperator || event == ProfileEvent::kDelegate) {
    static_cast<CallTimer*>(context)->start = socsim_elapsed_cycles();
  }
}

void on_end(void* context, ProfileEvent event, uint32_t index, const char* name,
            uint32_t elements) {
  if (event == ProfileEvent::kOperator || event == ProfileEvent::kDelegate) {
    const uint32_t cycles = socsim_elapsed_cycles() - static_cast<CallTimer*>(context)->start;
    printf("  %s %lu %s: %lu elements, %llu cycles",
           event == ProfileEvent::kOperator ? "op" : "delegate", static_cast<unsigned long>(index),
           name, static_cast<unsigned long>(elements), static_cast<unsigned long long>(cycles));
    if (event == ProfileEvent::kDelegate &&
        (strcmp(name, socsim::delegates::kNpuBackendId) == 0 ||
         strcmp(name, socsim::delegates::kNpuExecutorchBackendId) == 0)) {
      printf(", %llu npu cycles",
             static_cast<unsigned long long>(socsim::delegates::npu_backend_last_status().cycles));
    }
    printf("\n");
  }
}

// ---- inputs and outputs ------------------------------------------------------------------

/// Byte i of `n` bytes at `p` = i % 128, stored a 32-bit word (four bytes) at a time where
/// the address is word-aligned: one bus write per four elements instead of one per element.
void fill_bytes(uint8_t* p, uint32_t n) {
  uint32_t i = 0;
  for (; i < n && reinterpret_cast<uintptr_t>(p + i) % 4 != 0; ++i) p[i] = i % 128;
  using Word = uint32_t __attribute__((may_alias));
  if (i % 4 == 0) {
    // Bytes v, v+1, v+2, v+3 with v = i % 128 <= 124: no byte wraps inside a word.
    for (; i + 4 <= n; i += 4) {
      *reinterpret_cast<Word*>(p + i) = (i % 128) * 0x01010101u + 0x03020100u;
    }
  } else {
    for (; i + 4 <= n; i += 4) {
      *reinterpret_cast<Word*>(p + i) = (i % 128) | ((i + 1) % 128) << 8 |
                                        ((i + 2) % 128) << 16 | ((i + 3) % 128) << 24;
    }
  }
  for (; i < n; ++i) p[i] = i % 128;  // little-endian words: byte i is the lowest
}

void fill_default(Tensor& t) {
  const uint32_t n = t.numel();
  switch (t.dtype) {
    case ScalarType::kFloat32:
      for (uint32_t i = 0; i < n; ++i) t.data_as<float>()[i] = static_cast<float>(i % 128);
      break;
    case ScalarType::kInt32:
      for (uint32_t i = 0; i < n; ++i) t.data_as<int32_t>()[i] = static_cast<int32_t>(i % 128);
      break;
    case ScalarType::kInt8:
    case ScalarType::kUInt8:
      fill_bytes(t.data_as<uint8_t>(), n);
      break;
  }
}

/// The default input of a .pte program's tensor: element i = i % 128 for the types of
/// fill_default, zeros for the others (int64, bool...).
void fill_default(PteMethod& method, uint32_t index) {
  Tensor& t = *method.input(index);
  const int8_t type = method.input_type(index);
  if (type == static_cast<int8_t>(PteScalarType::kFloat) ||
      type == static_cast<int8_t>(PteScalarType::kInt) ||
      type == static_cast<int8_t>(PteScalarType::kChar) ||
      type == static_cast<int8_t>(PteScalarType::kByte)) {
    fill_default(t);
  } else {
    memset(t.data, 0, t.nbytes);
  }
}

void fill_default(Method& method, uint32_t index) {
  fill_default(*method.input(index));
}

template <typename MethodT>
Error set_inputs(MethodT& method, const uint8_t* data, uint32_t size, bool in_place) {
  uint32_t at = 0;
  for (uint32_t i = 0; i < method.inputs_size(); ++i) {
    Tensor& t = *method.input(i);
    if (data == nullptr) {
      fill_default(method, i);
      continue;
    }
    if (t.nbytes > size - at) return Error::kInvalidArgument;
    if (in_place) {
      SOCSIM_RT_TRY(method.bind_input(i, const_cast<uint8_t*>(data + at), t.nbytes));
    } else {
      SOCSIM_RT_TRY(method.set_input(i, data + at, t.nbytes));
    }
    at += t.nbytes;
  }
  return Error::kOk;
}

/// Whether the inputs read `size` bytes of input data at `data` in place: always with
/// --inputs-in-place, never with --copy-inputs, and by default when the data is exactly the
/// model's inputs and each of them would start aligned for Method::bind_input. Prints the
/// choice (and, when the default copies, why).
template <typename MethodT>
bool inputs_in_place(const MethodT& method, const uint8_t* data, uint32_t size, Inputs mode) {
  uint32_t total = 0;
  bool aligned = true;
  for (uint32_t i = 0; i < method.inputs_size(); ++i) {
    aligned = aligned && reinterpret_cast<uintptr_t>(data + total) % Method::kInputAlignment == 0;
    total += method.input(i)->nbytes;
  }
  const bool in_place =
      mode == Inputs::kInPlace || (mode == Inputs::kAuto && size == total && aligned);
  printf("Input data: %lu bytes, %s", static_cast<unsigned long>(size),
         in_place ? "read in place" : "copied before each execution");
  if (mode == Inputs::kAuto && size != total) {
    printf(" (the model's inputs take %lu bytes)", static_cast<unsigned long>(total));
  } else if (mode == Inputs::kAuto && !in_place) {
    printf(" (an input would not start %lu-byte aligned)",
           static_cast<unsigned long>(Method::kInputAlignment));
  }
  printf("\n");
  return in_place;
}

/// How the elements of an output print: a socsim program's by the tensor's dtype; a .pte
/// program's by its ExecuTorch type (int64 and bool too).
enum class Print { kFloat32, kInt32, kByte, kInt64, kFloat64, kOther };

Print print_kind(const Method& method, uint32_t o) {
  switch (method.output(o)->dtype) {
    case ScalarType::kFloat32:
      return Print::kFloat32;
    case ScalarType::kInt32:
      return Print::kInt32;
    case ScalarType::kInt8:
    case ScalarType::kUInt8:
      return Print::kByte;
  }
  return Print::kOther;
}

Print print_kind(const PteMethod& method, uint32_t o) {
  switch (static_cast<PteScalarType>(method.output_type(o))) {
    case PteScalarType::kFloat:
      return Print::kFloat32;
    case PteScalarType::kInt:
      return Print::kInt32;
    case PteScalarType::kChar:
    case PteScalarType::kByte:
    case PteScalarType::kBool:
      return Print::kByte;
    case PteScalarType::kLong:
      return Print::kInt64;
    case PteScalarType::kDouble:
      return Print::kFloat64;
    default:
      return Print::kOther;
  }
}

template <typename MethodT>
void print_outputs(const MethodT& method) {
  uint32_t index = 0;
  for (uint32_t o = 0; o < method.outputs_size(); ++o) {
    const Tensor& t = *method.output(o);
    const uint32_t n = t.numel();
    const Print kind = print_kind(method, o);
    for (uint32_t i = 0; i < n; ++i, ++index) {
      switch (kind) {
        case Print::kFloat32:
          printf("res[%lu] = %.9g\n", static_cast<unsigned long>(index),
                 static_cast<double>(t.data_as<float>()[i]));
          break;
        case Print::kInt32:
          printf("res[%lu] = %ld\n", static_cast<unsigned long>(index),
                 static_cast<long>(t.data_as<int32_t>()[i]));
          break;
        case Print::kByte:
          printf("res[%lu] = %u\n", static_cast<unsigned long>(index),
                 static_cast<unsigned>(t.data_as<uint8_t>()[i]));
          break;
        case Print::kInt64: {
          int64_t v;
          memcpy(&v, t.data_as<uint8_t>() + 8 * i, 8);
          printf("res[%lu] = %lld\n", static_cast<unsigned long>(index),
                 static_cast<long long>(v));
          break;
        }
        case Print::kFloat64: {
          double v;
          memcpy(&v, t.data_as<uint8_t>() + 8 * i, 8);
          printf("res[%lu] = %.17g\n", static_cast<unsigned long>(index), v);
          break;
        }
        case Print::kOther:
          printf("res[%lu] = ?\n", static_cast<unsigned long>(index));
          break;
      }
    }
  }
}

unsigned long long as_ull(uint64_t v) {
  return static_cast<unsigned long long>(v);
}

// Places the planned buffers: in the method pool when `method_pool` allows it and they fit,
// otherwise in the boot-info pool (not with --pools static). *in_method_pool says whether
// any went to the method pool.
template <typename MetaT>
Error place_planned(const MetaT& meta, Span* planned, MemoryAllocator& method_alloc,
                    MemoryAllocator& region_alloc, Pools pools, bool method_pool,
                    bool* in_method_pool) {
  *in_method_pool = false;
  for (uint32_t i = 0; i < meta.num_memory_planned_buffers(); ++i) {
    planned[i].size = meta.memory_planned_buffer_size(i);
    planned[i].data = nullptr;
    if (method_pool) {
      planned[i].data = static_cast<uint8_t*>(method_alloc.allocate(planned[i].size, 16));
      if (planned[i].data != nullptr) *in_method_pool = true;
    }
    if (planned[i].data == nullptr && pools != Pools::kStatic) {
      planned[i].data = static_cast<uint8_t*>(region_alloc.allocate(planned[i].size, 16));
      if (planned[i].data != nullptr) {
        printf("Planned buffer %lu: %lu bytes in the boot-info pool at 0x%08lx\n",
               static_cast<unsigned long>(i), static_cast<unsigned long>(planned[i].size),
               static_cast<unsigned long>(reinterpret_cast<uintptr_t>(planned[i].data)));
      }
    }
    if (planned[i].data == nullptr) {
      printf("executor_runner: planned buffer %lu needs %lu bytes; method pool is %lu bytes",
             static_cast<unsigned long>(i), static_cast<unsigned long>(planned[i].size),
             static_cast<unsigned long>(method_alloc.size()));
      if (pools == Pools::kStatic) {
        printf(" (--pools static)\n");
      } else {
        printf(", boot-info pool %lu bytes free\n",
               static_cast<unsigned long>(region_alloc.size() - region_alloc.used()));
      }
      return Error::kMemoryAllocationFailed;
    }
  }
  return Error::kOk;
}

// Places planned memory and loads the method. With --pools auto, a method whose own tables
// (tensors, instructions, delegate handles) do not fit the method pool beside planned
// buffers placed there is loaded again with its planned memory in the boot-info pool.
template <typename ProgramT, typename Format = socsim::runtime::ProgramFormat<ProgramT>>
Result<typename Format::MethodT> load_method(const ProgramT& program, Pools pools, Span* planned,
                                             MemoryAllocator& method_alloc,
                                             MemoryAllocator& region_alloc,
                                             MemoryAllocator& temp_alloc,
                                             typename Format::DiagT* diag) {
  using MethodT = typename Format::MethodT;
  const auto& meta = socsim::runtime::planned_memory_of(program);
  const MemoryManager memory{&method_alloc, planned, meta.num_memory_planned_buffers(),
                             &temp_alloc, pools != Pools::kStatic ? &region_alloc : nullptr};
  bool in_method_pool = false;
  Error placed = place_planned(meta, planned, method_alloc, region_alloc, pools,
                               pools != Pools::kRegion, &in_method_pool);
  if (placed != Error::kOk) return placed;
  {
    Result<MethodT> method = MethodT::load(program, memory, diag);
    if (method.ok() || method.error() != Error::kMemoryAllocationFailed || pools != Pools::kAuto ||
        !in_method_pool) {
      return method;
    }
  }
  printf(
      "executor_runner: the method's tables do not fit the method pool beside planned "
      "memory: planned memory goes to the boot-info pool\n");
  *diag = typename Format::DiagT();
  method_alloc.reset();
  placed = place_planned(meta, planned, method_alloc, region_alloc, pools, false, &in_method_pool);
  if (placed != Error::kOk) return placed;
  return MethodT::load(program, memory, diag);
}

/// Runs an ExecuTorch program: the same steps, pools, options and messages as main() for
/// socsim's program format.
int run_pte(const Options& options, const volatile struct socsim_bootinfo* info,
            const uint8_t* model, uint32_t model_size, const uint8_t* input,
            uint32_t input_size) {
  PteDiagnostics diag;
  const uint32_t t0 = socsim_elapsed_cycles();
  Result<PteProgram> program = PteProgram::load(model, model_size, &diag);
  const uint32_t t1 = socsim_elapsed_cycles();
  if (!program.ok()) return fail_pte("model file", program.error(), diag);

  MemoryAllocator method_alloc(g_method_pool, sizeof(g_method_pool));
  MemoryAllocator temp_alloc(g_temp_pool, sizeof(g_temp_pool));
  const uint32_t region_size = info->version >= 2 ? info->pool_size : 0;
  MemoryAllocator region_alloc(reinterpret_cast<void*>(static_cast<uintptr_t>(info->pool_addr)),
                               region_size);
  if (options.pools == Pools::kRegion) {
    if (region_size == 0) {
      printf("executor_runner: --pools region: the boot-info block offers no pool (set "
             "loader.pool_region in the SoC description)\n");
      return fail("planned memory", Error::kMemoryAllocationFailed);
    }
    void* temp = region_alloc.allocate(SOCSIM_RUNNER_TEMP_POOL, 16);
    if (temp == nullptr) return fail("temp pool", Error::kMemoryAllocationFailed);
    temp_alloc = MemoryAllocator(temp, SOCSIM_RUNNER_TEMP_POOL);
  }
  Span planned[kMaxPlannedBuffers];
  if (program->num_memory_planned_buffers() > kMaxPlannedBuffers) {
    return fail("planned buffers", Error::kNotSupported);
  }
  const uint32_t t2 = socsim_elapsed_cycles();
  Result<PteMethod> method = load_method(*program, options.pools, planned, method_alloc,
                                         region_alloc, temp_alloc, &diag);
  const uint32_t t3 = socsim_elapsed_cycles();
  if (!method.ok()) return fail_pte("method load", method.error(), diag);
  printf("Model: %lu bytes (ExecuTorch program), %lu instructions, %lu delegates; planned "
         "memory %lu bytes\n",
         static_cast<unsigned long>(model_size),
         static_cast<unsigned long>(method->instruction_count()),
         static_cast<unsigned long>(method->delegate_count()),
         static_cast<unsigned long>(program->num_memory_planned_buffers() > 0
                                        ? program->memory_planned_buffer_size(0)
                                        : 0));
  printf("Program load: %llu cycles; method load: %llu cycles\n", as_ull(t1 - t0),
         as_ull(t3 - t2));

  CallTimer timer;
  ProfilingHooks hooks;
  hooks.begin = on_begin;
  hooks.end = on_end;
  hooks.context = &timer;
  const bool in_place =
      input != nullptr && inputs_in_place(*method, input, input_size, options.inputs);
  if (options.profile) socsim::runtime::set_profiling_hooks(&hooks);
  for (uint32_t run = 0; run < options.executions; ++run) {
    const uint32_t start = socsim_elapsed_cycles();
    Error error = set_inputs(*method, input, input_size, in_place);
    if (error != Error::kOk) return fail("input data", error);
    diag = PteDiagnostics();
    error = method->execute(&diag);
    const uint32_t end = socsim_elapsed_cycles();
    if (error != Error::kOk) {
      return fail_pte("execute", error, diag);
    }
    printf("Execution %lu: %llu cycles\n", static_cast<unsigned long>(run + 1),
           as_ull(end - start));
  }
  socsim::runtime::set_profiling_hooks(nullptr);
  printf("Model executed successfully %lu time(s).\n",
         static_cast<unsigned long>(options.executions));
  socsim::apps::print_allocators(method_alloc, temp_alloc, region_alloc);
  if (options.print_outputs) print_outputs(*method);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parse(argc, argv, &options)) return 1;
  const volatile struct socsim_bootinfo* info = socsim_bootinfo();
  if (info == nullptr || info->model_addr == 0) {
    printf("executor_runner: no model: run with `socsim run --model FILE`\n");
    return 1;
  }
  const auto* model = reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(info->model_addr));
  const uint32_t model_size = info->model_size;
  const uint8_t* input =
      info->input_addr != 0
          ? reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(info->input_addr))
          : nullptr;
  const uint32_t input_size = info->input_size;
  socsim::delegates::npu_backend_set_polling(options.npu_poll);
  if (PteProgram::has_identifier(model, model_size)) {
    return run_pte(options, info, model, model_size, input, input_size);
  }
  if (socsim::apps::is_llm_bundle(model, model_size)) {
    MemoryAllocator method_alloc(g_method_pool, sizeof(g_method_pool));
    MemoryAllocator temp_alloc(g_temp_pool, sizeof(g_temp_pool));
    options.llm.profile = options.profile;
    return socsim::apps::run_llm(options.llm, info, model, model_size, input, input_size,
                                 method_alloc, temp_alloc);
  }

  const uint32_t t0 = socsim_elapsed_cycles();
  Result<Program> program = Program::load(model, model_size);
  const uint32_t t1 = socsim_elapsed_cycles();
  if (!program.ok()) return fail("model file", program.error());

  const MethodMeta meta = program->method_meta();
  MemoryAllocator method_alloc(g_method_pool, sizeof(g_method_pool));
  MemoryAllocator temp_alloc(g_temp_pool, sizeof(g_temp_pool));
  // The boot-info pool (version 2 of the block; 0 bytes when the SoC offers none).
  const uint32_t region_size = info->version >= 2 ? info->pool_size : 0;
  MemoryAllocator region_alloc(reinterpret_cast<void*>(static_cast<uintptr_t>(info->pool_addr)),
                               region_size);
  if (options.pools == Pools::kRegion) {
    if (region_size == 0) {
      printf("executor_runner: --pools region: the boot-info block offers no pool (set "
             "loader.pool_region in the SoC description)\n");
      return fail("planned memory", Error::kMemoryAllocationFailed);
    }
    void* temp = region_alloc.allocate(SOCSIM_RUNNER_TEMP_POOL, 16);
    if (temp == nullptr) return fail("temp pool", Error::kMemoryAllocationFailed);
    temp_alloc = MemoryAllocator(temp, SOCSIM_RUNNER_TEMP_POOL);
  }
  Span planned[kMaxPlannedBuffers];
  if (meta.num_memory_planned_buffers() > kMaxPlannedBuffers) {
    return fail("planned buffers", Error::kNotSupported);
  }
  MethodDiagnostics diag;
  const uint32_t t2 = socsim_elapsed_cycles();
  Result<Method> method = load_method(*program, options.pools, planned, method_alloc,
                                      region_alloc, temp_alloc, &diag);
  const uint32_t t3 = socsim_elapsed_cycles();
  if (!method.ok()) {
    if (method.error() == Error::kOperatorMissing && diag.name != nullptr) {
      printf("executor_runner: operator missing: %s (%s) at instruction %lu\n", diag.name,
             socsim::runtime::to_string(diag.dtype), static_cast<unsigned long>(diag.instruction));
    }
    return fail("method load", method.error(), diag.name);
  }
  printf("Model: %lu bytes, %lu instructions, %lu delegates; planned memory %lu bytes\n",
         static_cast<unsigned long>(model_size),
         static_cast<unsigned long>(meta.num_instructions()),
         static_cast<unsigned long>(meta.num_delegates()),
         static_cast<unsigned long>(
             meta.num_memory_planned_buffers() > 0 ? meta.memory_planned_buffer_size(0) : 0));
  printf("Program load: %llu cycles; method load: %llu cycles\n", as_ull(t1 - t0),
         as_ull(t3 - t2));

  CallTimer timer;
  ProfilingHooks hooks;
  hooks.begin = on_begin;
  hooks.end = on_end;
  hooks.context = &timer;
  const bool in_place =
      input != nullptr && inputs_in_place(*method, input, input_size, options.inputs);
  if (options.profile) socsim::runtime::set_profiling_hooks(&hooks);

  for (uint32_t run = 0; run < options.executions; ++run) {
    const uint32_t start = socsim_elapsed_cycles();
    Error error = set_inputs(*method, input, input_size, in_place);
    if (error != Error::kOk) return fail("input data", error);
    error = method->execute(&diag);
    const uint32_t end = socsim_elapsed_cycles();
    if (error != Error::kOk) {
      printf("executor_runner: instruction %lu failed\n",
             static_cast<unsigned long>(diag.instruction));
      if (diag.name != nullptr && strcmp(diag.name, socsim::delegates::kNpuBackendId) == 0) {
        const auto& npu = socsim::delegates::npu_backend_last_status();
        printf("executor_runner: npu: %s (error %lu) at layer %lu of the command list\n",
               npu.error_name, static_cast<unsigned long>(npu.error),
               static_cast<unsigned long>(npu.layer));
      }
      return fail("execute", error, diag.name);
    }
    printf("Execution %lu: %llu cycles\n", static_cast<unsigned long>(run + 1),
           as_ull(end - start));
  }
  socsim::runtime::set_profiling_hooks(nullptr);
  printf("Model executed successfully %lu time(s).\n",
         static_cast<unsigned long>(options.executions));
  socsim::apps::print_allocators(method_alloc, temp_alloc, region_alloc);
  if (options.print_outputs) print_outputs(*method);
  return 0;
}
