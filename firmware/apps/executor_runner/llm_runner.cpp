// The language-model loop of executor_runner (llm_runner.h, docs/llm.md).
//
// The KV cache is state the programs do not own: the prefill program returns every layer's
// keys (transposed, [H, Dh, N]) and values ([H, N, Dh]); the decode program reads the whole
// cache as inputs (keys [H, Dh, T], values [H, T, Dh], bound in place to the cache buffers,
// no copy) and returns the new token's key column and value row, which this loop writes into
// the cache at the token's position (2 x layers x d_model elements per token). The cache
// lives in the boot-info pool (DDR in the default SoC), as a deployed runtime would keep it.
// The bundle's programs are ExecuTorch programs (.pte, what scripts/socsim_llm/build.py
// writes) or, in bundles built before, socsim's legacy format; each is recognised by its
// identifier and both must be of one format.
#include "firmware/apps/executor_runner/llm_runner.h"

#include <stdio.h>
#include <string.h>

#include "firmware/apps/executor_runner/allocators_line.h"
#include "firmware/apps/executor_runner/pte_error_line.h"
#include "firmware/delegates/npu/npu_backend.h"
#include "firmware/runtime/method.h"
#include "firmware/runtime/program_formats.h"
#include "firmware/runtime/profiling.h"
#include "firmware/runtime/program.h"
#include "firmware/runtime/pte_method.h"
#include "firmware/runtime/pte_program.h"

namespace socsim::apps {
namespace {

using runtime::Error;
using runtime::MemoryAllocator;
using runtime::MemoryManager;
using runtime::Method;
using runtime::MethodDiagnostics;
using runtime::ProfileEvent;
using runtime::ProfilingHooks;
using runtime::ProgramFormat;
using runtime::Program;
using runtime::PteDiagnostics;
using runtime::PteMethod;
using runtime::PteProgram;
using runtime::Result;
using runtime::ScalarType;
using runtime::Span;
using runtime::Tensor;

// Intrusive probe ids of the two phases (docs/llm.md, "Probes").
constexpr uint32_t kProbePrefill = 101;
constexpr uint32_t kProbeDecode = 102;
constexpr uint32_t kHeaderSize = 64;
constexpr uint32_t kMaxPlanned = 8;
constexpr uint32_t kTableReserve = 128 * 1024;  // method tables of both programs

struct Header {
  uint32_t layers, heads, head_dim, context, vocab, prompt;
  uint32_t prefill_offset, prefill_size, decode_offset, decode_size;
};

uint32_t read_u32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}

int fail(const char* what, Error error = Error::kOk) {
  if (error == Error::kOk) {
    printf("executor_runner: %s\n", what);
  } else {
    printf("executor_runner: %s: %s (error 0x%02x)\n", what, runtime::to_string(error),
           static_cast<unsigned>(error));
  }
  return 1;
}

int fail(const char* what, Error error, const MethodDiagnostics&) { return fail(what, error); }

// A .pte error names the field (and index, name) it is about, as the runner's one-program
// path does.
int fail(const char* what, Error error, const PteDiagnostics& d) { return fail_pte(what, error, d); }

bool read_header(const uint8_t* model, uint32_t size, Header* h) {
  if (size < kHeaderSize || read_u32(model + 4) != 1) return false;
  h->layers = read_u32(model + 8);
  h->heads = read_u32(model + 12);
  h->head_dim = read_u32(model + 16);
  h->context = read_u32(model + 20);
  h->vocab = read_u32(model + 24);
  h->prompt = read_u32(model + 28);
  h->prefill_offset = read_u32(model + 32);
  h->prefill_size = read_u32(model + 36);
  h->decode_offset = read_u32(model + 40);
  h->decode_size = read_u32(model + 44);
  return h->prefill_offset % 64 == 0 && h->decode_offset % 64 == 0 &&
         h->prefill_offset <= size && h->prefill_size <= size - h->prefill_offset &&
         h->decode_offset <= size && h->decode_size <= size - h->decode_offset &&
         h->layers > 0 && h->heads > 0 && h->head_dim > 0 && h->vocab > 0 &&
         h->prompt > 0 && h->prompt < h->context;
}

// NPU cycles summed over the delegate calls of a phase (the backend's last status).
struct PhaseCounters {
  uint64_t npu_cycles = 0;
  uint32_t start = 0;
  bool profile = false;
};

void on_begin(void* context, ProfileEvent event, uint32_t, const char*, uint32_t) {
  if (event == ProfileEvent::kOperator || event == ProfileEvent::kDelegate) {
    static_cast<PhaseCounters*>(context)->start = socsim_elapsed_cycles();
  }
}

void on_end(void* context, ProfileEvent event, uint32_t index, const char* name,
            uint32_t elements) {
  auto* c = static_cast<PhaseCounters*>(context);
  const bool npu = event == ProfileEvent::kDelegate &&
                   (strcmp(name, delegates::kNpuBackendId) == 0 ||
                    strcmp(name, delegates::kNpuExecutorchBackendId) == 0);
  const uint64_t npu_cycles = npu ? delegates::npu_backend_last_status().cycles : 0;
  c->npu_cycles += npu_cycles;
  if (c->profile && (event == ProfileEvent::kOperator || event == ProfileEvent::kDelegate)) {
    printf("  %s %lu %s: %lu elements, %lu cycles", event == ProfileEvent::kOperator ? "op" : "delegate",
           static_cast<unsigned long>(index), name, static_cast<unsigned long>(elements),
           static_cast<unsigned long>(socsim_elapsed_cycles() - c->start));
    if (npu) printf(", %llu npu cycles", static_cast<unsigned long long>(npu_cycles));
    printf("\n");
  }
}

// Planned memory of one method: the method pool (SRAM in the default SoC) when it fits,
// else the boot-info pool (DDR), so the CPU operators work on SRAM where they can.
template <typename ProgramT, typename Format = ProgramFormat<ProgramT>>
Result<typename Format::MethodT> load(const ProgramT& program, Span* planned,
                                      MemoryAllocator& method_alloc,
                                      MemoryAllocator& region_alloc, MemoryAllocator& temp_alloc,
                                      typename Format::DiagT* diag) {
  const auto& meta = runtime::planned_memory_of(program);
  const uint32_t count = meta.num_memory_planned_buffers();
  if (count > kMaxPlanned) return Error::kNotSupported;
  for (uint32_t i = 0; i < count; ++i) {
    planned[i].size = meta.memory_planned_buffer_size(i);
    // Room for the method's own tables (tensors, instructions) is kept in the method pool.
    const bool fits = planned[i].size + kTableReserve <= method_alloc.size() - method_alloc.used();
    planned[i].data = fits ? static_cast<uint8_t*>(method_alloc.allocate(planned[i].size, 16))
                           : nullptr;
    if (planned[i].data == nullptr) {
      planned[i].data = static_cast<uint8_t*>(region_alloc.allocate(planned[i].size, 16));
    }
    if (planned[i].data == nullptr) return Error::kMemoryAllocationFailed;
    printf("Planned buffer %lu: %lu bytes in the %s pool\n", static_cast<unsigned long>(i),
           static_cast<unsigned long>(planned[i].size), fits ? "method" : "boot-info");
  }
  // Delegates take what does not fit the method pool (an NPU partition's intermediate
  // results) from the boot-info pool.
  const MemoryManager memory{&method_alloc, planned, count, &temp_alloc, &region_alloc};
  return Format::MethodT::load(program, memory, diag);
}

uint32_t argmax(const Tensor& logits) {
  uint32_t best = 0;
  const uint32_t n = logits.numel();
  if (logits.dtype == ScalarType::kFloat32) {
    const float* v = logits.data_as<float>();
    for (uint32_t i = 1; i < n; ++i) best = v[i] > v[best] ? i : best;
  } else {
    const int8_t* v = logits.data_as<int8_t>();
    for (uint32_t i = 1; i < n; ++i) best = v[i] > v[best] ? i : best;
  }
  return best;
}

// Logits as real numbers: float32 ones as they are, int8 ones as float32(q - zp) x scale.
void print_logits(const Tensor& logits, uint32_t step) {
  const uint32_t n = logits.numel();
  for (uint32_t i = 0; i < n; ++i) {
    const float v = logits.dtype == ScalarType::kFloat32
                        ? logits.data_as<float>()[i]
                        : static_cast<float>(logits.data_as<int8_t>()[i] - logits.quant.zero_point) *
                              logits.quant.scale;
    printf("logits[%lu][%lu] = %.9g\n", static_cast<unsigned long>(step),
           static_cast<unsigned long>(i), static_cast<double>(v));
  }
}

// One layer's cache: keys transposed [H, Dh, T], values [H, T, Dh], element size `elem`.
struct LayerCache {
  uint8_t* k = nullptr;
  uint8_t* v = nullptr;
};

// Writes `count` positions from `first` of a program's key/value outputs (keys [H, Dh, count],
// values [H, count, Dh]) into the cache.
void write_cache(const Header& h, uint32_t elem, LayerCache& cache, const Tensor& k,
                 const Tensor& v, uint32_t first, uint32_t count) {
  const uint8_t* ks = k.data_as<uint8_t>();
  const uint8_t* vs = v.data_as<uint8_t>();
  for (uint32_t head = 0; head < h.heads; ++head) {
    for (uint32_t d = 0; d < h.head_dim; ++d) {
      const uint32_t row = head * h.head_dim + d;
      memcpy(cache.k + (row * h.context + first) * elem, ks + row * count * elem, count * elem);
    }
    memcpy(cache.v + (head * h.context + first) * h.head_dim * elem,
           vs + head * count * h.head_dim * elem, count * h.head_dim * elem);
  }
}

// The loop over one bundle's programs, both of format ProgramT.
template <typename ProgramT>
int run_bundle(const LlmOptions& options, const Header& h, uint32_t prompt,
               const uint8_t* model, const uint8_t* input, MemoryAllocator& method_alloc,
               MemoryAllocator& temp_alloc, MemoryAllocator& region_alloc) {
  using MethodT = typename ProgramFormat<ProgramT>::MethodT;
  typename ProgramFormat<ProgramT>::DiagT diag;
  const uint32_t t0 = socsim_elapsed_cycles();
  Result<ProgramT> prefill_program =
      ProgramFormat<ProgramT>::load(model + h.prefill_offset, h.prefill_size, &diag);
  if (!prefill_program.ok()) {
    return fail("model file: prefill program", prefill_program.error(), diag);
  }
  Result<ProgramT> decode_program =
      ProgramFormat<ProgramT>::load(model + h.decode_offset, h.decode_size, &diag);
  if (!decode_program.ok()) {
    return fail("model file: decode program", decode_program.error(), diag);
  }
  Span prefill_planned[kMaxPlanned];
  Span decode_planned[kMaxPlanned];
  Result<MethodT> prefill =
      load(*prefill_program, prefill_planned, method_alloc, region_alloc, temp_alloc, &diag);
  if (!prefill.ok()) return fail("method load: prefill", prefill.error(), diag);
  Result<MethodT> decode =
      load(*decode_program, decode_planned, method_alloc, region_alloc, temp_alloc, &diag);
  if (!decode.ok()) return fail("method load: decode", decode.error(), diag);
  const uint32_t t1 = socsim_elapsed_cycles();

  const uint32_t n_in = 3 + 2 * h.layers;
  const uint32_t n_out = 1 + 2 * h.layers;
  if (prefill->inputs_size() != 1 || prefill->outputs_size() != n_out ||
      decode->inputs_size() != n_in || decode->outputs_size() != n_out ||
      prefill->input(0)->numel() != prompt || decode->output(0)->numel() != h.vocab) {
    return fail("model file: the bundle's programs do not have the inputs and outputs of its "
                "header (docs/llm.md)");
  }
  // The caches, zeroed, bound in place as the decode program's inputs 3.. (k0, v0, k1, ...).
  const uint32_t elem = decode->input(3)->nbytes / (h.heads * h.head_dim * h.context);
  LayerCache caches[64];
  if (h.layers > 64) return fail("model file: more than 64 layers");
  for (uint32_t l = 0; l < h.layers; ++l) {
    for (uint32_t kind = 0; kind < 2; ++kind) {
      Tensor& t = *decode->input(3 + 2 * l + kind);
      auto* data = static_cast<uint8_t*>(region_alloc.allocate(t.nbytes, 16));
      if (data == nullptr) {
        printf("executor_runner: the KV cache (%lu bytes per layer) does not fit the boot-info "
               "pool (%lu bytes free)\n",
               static_cast<unsigned long>(2 * t.nbytes),
               static_cast<unsigned long>(region_alloc.size() - region_alloc.used()));
        return 1;
      }
      memset(data, 0, t.nbytes);
      const Error e = decode->bind_input(3 + 2 * l + kind, data, t.nbytes);
      if (e != Error::kOk) return fail("KV cache", e);
      (kind == 0 ? caches[l].k : caches[l].v) = data;
    }
  }
  printf("Language model: %lu layers, %lu heads x %lu, vocabulary %lu, context %lu; KV cache "
         "%lu bytes (%s)\n",
         static_cast<unsigned long>(h.layers), static_cast<unsigned long>(h.heads),
         static_cast<unsigned long>(h.head_dim), static_cast<unsigned long>(h.vocab),
         static_cast<unsigned long>(h.context),
         static_cast<unsigned long>(2 * h.layers * h.heads * h.head_dim * h.context * elem),
         elem == 1 ? "int8" : "float32");
  printf("Program load and method load: %lu cycles\n", static_cast<unsigned long>(t1 - t0));

  PhaseCounters counters;
  counters.profile = options.profile;
  ProfilingHooks hooks;
  hooks.begin = on_begin;
  hooks.end = on_end;
  hooks.context = &counters;
  runtime::set_profiling_hooks(&hooks);

  uint32_t tokens[512];
  const uint32_t shown = options.generate < 512 ? options.generate : 512;
  // Prefill.
  Tensor* prompt_ids = prefill->input(0);
  int32_t* ids = prompt_ids->data_as<int32_t>();
  for (uint32_t i = 0; i < prompt; ++i) {
    int32_t id = static_cast<int32_t>((7 * i + 1) % h.vocab);
    if (input != nullptr) memcpy(&id, input + 4 * i, 4);
    if (id < 0 || static_cast<uint32_t>(id) >= h.vocab) {
      printf("executor_runner: --input: token %lu is %ld, outside the vocabulary of %lu\n",
             static_cast<unsigned long>(i), static_cast<long>(id),
             static_cast<unsigned long>(h.vocab));
      return 1;
    }
    ids[i] = id;
  }
  printf("Prompt: %lu tokens (%s)\n", static_cast<unsigned long>(prompt),
         input != nullptr ? "--input" : "token i = (7 i + 1) mod vocabulary");
  const uint32_t p0 = socsim_elapsed_cycles();
  SOCSIM_PROBE_BEGIN(kProbePrefill);
  Error error = prefill->execute(&diag);
  if (error == Error::kOk) {
    for (uint32_t l = 0; l < h.layers; ++l) {
      write_cache(h, elem, caches[l], *prefill->output(1 + 2 * l), *prefill->output(2 + 2 * l),
                  0, prompt);
    }
    tokens[0] = argmax(*prefill->output(0));
  }
  SOCSIM_PROBE_END(kProbePrefill);
  const uint32_t p1 = socsim_elapsed_cycles();
  if (error != Error::kOk) return fail("prefill", error, diag);
  printf("Prefill: %lu tokens, %lu cycles, %llu npu cycles; token 1 = %lu\n",
         static_cast<unsigned long>(prompt), static_cast<unsigned long>(p1 - p0),
         static_cast<unsigned long long>(counters.npu_cycles),
         static_cast<unsigned long>(tokens[0]));
  if (options.print_logits) print_logits(*prefill->output(0), 0);

  // Decode steps: the previous token at position p.
  uint64_t decode_cycles = 0;
  uint64_t decode_npu = 0;
  uint32_t last = tokens[0];
  Tensor* token_in = decode->input(0);
  Tensor* position_in = decode->input(1);
  Tensor* mask_in = decode->input(2);
  uint8_t* mask = mask_in->data_as<uint8_t>();
  for (uint32_t step = 1; step < options.generate; ++step) {
    const uint32_t p = prompt + step - 1;
    counters.npu_cycles = 0;
    const uint32_t s0 = socsim_elapsed_cycles();
    SOCSIM_PROBE_BEGIN(kProbeDecode);
    token_in->data_as<int32_t>()[0] = static_cast<int32_t>(last);
    position_in->data_as<int32_t>()[0] = static_cast<int32_t>(p);
    for (uint32_t head = 0; head < h.heads; ++head) {
      uint8_t* row = mask + head * (h.context + 1);
      memset(row, 0, p);
      memset(row + p, 1, h.context - p);
      row[h.context] = 0;
    }
    error = decode->execute(&diag);
    if (error == Error::kOk) {
      for (uint32_t l = 0; l < h.layers; ++l) {
        write_cache(h, elem, caches[l], *decode->output(1 + 2 * l),
                    *decode->output(2 + 2 * l), p, 1);
      }
      last = argmax(*decode->output(0));
    }
    SOCSIM_PROBE_END(kProbeDecode);
    const uint32_t s1 = socsim_elapsed_cycles();
    if (error != Error::kOk) return fail("decode step", error, diag);
    if (step < shown) tokens[step] = last;
    decode_cycles += s1 - s0;
    decode_npu += counters.npu_cycles;
    printf("Decode step %lu: position %lu, %lu cycles, %llu npu cycles; token %lu = %lu\n",
           static_cast<unsigned long>(step), static_cast<unsigned long>(p),
           static_cast<unsigned long>(s1 - s0),
           static_cast<unsigned long long>(counters.npu_cycles),
           static_cast<unsigned long>(step + 1), static_cast<unsigned long>(last));
    if (options.print_logits) print_logits(*decode->output(0), step);
  }
  runtime::set_profiling_hooks(nullptr);
  printf("Generated tokens:");
  for (uint32_t i = 0; i < shown; ++i) printf(" %lu", static_cast<unsigned long>(tokens[i]));
  printf("\n");
  printf("Decode: %lu steps, %llu cycles, %llu npu cycles\n",
         static_cast<unsigned long>(options.generate - 1),
         static_cast<unsigned long long>(decode_cycles),
         static_cast<unsigned long long>(decode_npu));
  print_allocators(method_alloc, temp_alloc, region_alloc);
  return 0;
}

}  // namespace

bool is_llm_bundle(const uint8_t* model, uint32_t size) {
  return size >= 4 && memcmp(model, "SLM1", 4) == 0;
}

int run_llm(const LlmOptions& options, const volatile struct socsim_bootinfo* info,
            const uint8_t* model, uint32_t model_size, const uint8_t* input,
            uint32_t input_size, MemoryAllocator& method_alloc, MemoryAllocator& temp_alloc) {
  Header h;
  if (!read_header(model, model_size, &h)) {
    return fail("model file: a language-model bundle (SLM1) with a bad header or program "
                "offsets");
  }
  const uint32_t prompt = options.prompt_tokens != 0 ? options.prompt_tokens : h.prompt;
  if (prompt != h.prompt) {
    printf("executor_runner: --prompt-tokens %lu: the bundle's prefill program takes %lu "
           "tokens (build it with --prompt-tokens %lu)\n",
           static_cast<unsigned long>(prompt), static_cast<unsigned long>(h.prompt),
           static_cast<unsigned long>(prompt));
    return 1;
  }
  if (options.generate < 1 || prompt + options.generate - 1 > h.context) {
    printf("executor_runner: --generate %lu: 1 to %lu tokens fit the context of %lu after a "
           "prompt of %lu\n",
           static_cast<unsigned long>(options.generate),
           static_cast<unsigned long>(h.context - prompt + 1),
           static_cast<unsigned long>(h.context), static_cast<unsigned long>(prompt));
    return 1;
  }
  if (input != nullptr && input_size != 4 * prompt) {
    printf("executor_runner: --input: %lu bytes; the prompt is %lu int32 token ids (%lu "
           "bytes)\n",
           static_cast<unsigned long>(input_size), static_cast<unsigned long>(prompt),
           static_cast<unsigned long>(4 * prompt));
    return 1;
  }
  const uint32_t region_size = info->version >= 2 ? info->pool_size : 0;
  MemoryAllocator region_alloc(reinterpret_cast<void*>(static_cast<uintptr_t>(info->pool_addr)),
                               region_size);

  const bool prefill_pte = PteProgram::has_identifier(model + h.prefill_offset, h.prefill_size);
  if (prefill_pte != PteProgram::has_identifier(model + h.decode_offset, h.decode_size)) {
    return fail("model file: the bundle's prefill and decode programs are of different "
                "formats (one ExecuTorch .pte, one legacy)");
  }
  return prefill_pte ? run_bundle<PteProgram>(options, h, prompt, model, input, method_alloc,
                                              temp_alloc, region_alloc)
                     : run_bundle<Program>(options, h, prompt, model, input, method_alloc,
                                           temp_alloc, region_alloc);
}

}  // namespace socsim::apps
