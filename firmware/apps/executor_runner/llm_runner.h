// The executor_runner's language-model loop: a bundle file (magic "SLM1": a prefill program
// and a decode-step program, ExecuTorch .pte or, in older bundles, socsim's legacy format;
// scripts/socsim_llm/bundle.py, docs/llm.md) runs prefill of the
// prompt and then one decode step per generated token, the KV cache kept in the boot-info
// pool between executions, greedy sampling (argmax) on the CPU.
#pragma once

#include <stdint.h>

#include "firmware/runtime/memory.h"
#include "hal/socsim_hal.h"

namespace socsim::apps {

/// The runner's options that concern the loop (docs/llm.md, "Running it").
struct LlmOptions {
  uint32_t prompt_tokens = 0;  ///< 0: the bundle's prompt length
  uint32_t generate = 8;       ///< tokens to generate (the first from prefill's logits)
  bool print_logits = false;   ///< every step's logits as "logits[step][i] = v"
  bool profile = false;        ///< cycles of every operator and delegate call
};

/// Whether `model` is a language-model bundle.
bool is_llm_bundle(const uint8_t* model, uint32_t size);

/// Runs the loop; returns the exit status (0, or 1 with a one-line message).
int run_llm(const LlmOptions& options, const volatile struct socsim_bootinfo* info,
            const uint8_t* model, uint32_t model_size, const uint8_t* input,
            uint32_t input_size, runtime::MemoryAllocator& method_alloc,
            runtime::MemoryAllocator& temp_alloc);

}  // namespace socsim::apps
