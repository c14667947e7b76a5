// model_info: loads the program file given with `socsim run --model FILE` and prints what it
// holds and which CPU kernels this image has. An example of a program of one's own, built
// against socsim's HAL and runtime from outside the socsim tree.
#include <stdint.h>
#include <stdio.h>

#include "firmware/runtime/kernel_registry.h"
#include "firmware/runtime/program.h"
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
