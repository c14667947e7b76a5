// model_info: loads the program file given with `socsim run --model FILE` (an ExecuTorch
// .pte, or socsim's legacy .prog) and prints what it holds and which CPU kernels this image
// has. An example of a program of one's own, built against socsim's HAL and runtime from
// outside the socsim tree.
#include <stdint.h>
#include <stdio.h>

#include "firmware/runtime/kernel_registry.h"
#include "firmware/runtime/program.h"
#include "firmware/runtime/pte_program.h"
#include "hal/socsim_hal.h"

extern "C" void report_cycles(const char* what, unsigned long long cycles);
extern "C" unsigned long long now_cycles(void);

int main() {
  printf("model_info: %u CPU kernels registered\n",
         static_cast<unsigned>(socsim::runtime::registered_kernel_count()));
  const volatile struct socsim_bootinfo* info = socsim_bootinfo();
  if (info == nullptr || info->model_addr == 0) {
    printf("model_info: no model: run with `socsim run --model FILE`\n");
    return 1;
  }
  const auto* model = reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(info->model_addr));
  using socsim::runtime::PteProgram;
  if (PteProgram::has_identifier(model, info->model_size)) {
    // An ExecuTorch program (.pte), the compiler's format.
    const unsigned long long start = now_cycles();
    auto program = PteProgram::load(model, info->model_size);
    report_cycles("program load", now_cycles() - start);
    if (!program.ok()) {
      printf("model_info: not a program file: %s\n", socsim::runtime::to_string(program.error()));
      return 1;
    }
    unsigned instructions = 0;
    for (uint32_t c = 0; c < program->chains().size(); ++c) {
      uint32_t at = 0;
      socsim::runtime::pte::FbTable chain;
      socsim::runtime::pte::FbVector list;
      if (program->chains().target(c, &at) != socsim::runtime::Error::kOk ||
          socsim::runtime::pte::FbTable::at(program->file(), at, &chain) !=
              socsim::runtime::Error::kOk ||
          chain.vector(socsim::runtime::pte_slot::kChainInstructions, 4, &list) !=
              socsim::runtime::Error::kOk) {
        printf("model_info: chain %u unreadable\n", static_cast<unsigned>(c));
        return 1;
      }
      instructions += list.size();
    }
    printf("model_info: ExecuTorch program: %u instructions, %u delegate calls, %u planned "
           "buffers\n",
           instructions, static_cast<unsigned>(program->delegates().size()),
           static_cast<unsigned>(program->num_memory_planned_buffers()));
    return 0;
  }
  // socsim's legacy program format (.prog).
  const unsigned long long start = now_cycles();
  auto program = socsim::runtime::Program::load(model, info->model_size);
  report_cycles("program load", now_cycles() - start);
  if (!program.ok()) {
    printf("model_info: not a program file: %s\n", socsim::runtime::to_string(program.error()));
    return 1;
  }
  const auto meta = program->method_meta();
  printf("model_info: %u instructions, %u delegate calls, %u planned buffers\n",
         static_cast<unsigned>(meta.num_instructions()),
         static_cast<unsigned>(meta.num_delegates()),
         static_cast<unsigned>(meta.num_memory_planned_buffers()));
  return 0;
}
