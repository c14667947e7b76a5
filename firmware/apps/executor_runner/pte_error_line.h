// The executor_runner's one-line error for an ExecuTorch program (.pte), shared by the
// program and language-model loops (docs/executorch.md, "Errors and exit statuses").
#pragma once

#include <stdio.h>

#include "firmware/runtime/error.h"
#include "firmware/runtime/pte_program.h"

namespace socsim::apps {

/// Prints "executor_runner: WHAT: ERROR (error 0xNN)[: FIELD][ INDEX][: NAME]" (the field,
/// index and operator or backend name the reader recorded) and returns 1, the exit status.
inline int fail_pte(const char* what, runtime::Error error, const runtime::PteDiagnostics& d) {
  printf("executor_runner: %s: %s (error 0x%02x)", what, runtime::to_string(error),
         static_cast<unsigned>(error));
  if (d.field != nullptr) printf(": %s", d.field);
  if (d.index != 0xFFFFFFFFu) printf(" %lu", static_cast<unsigned long>(d.index));
  if (d.name != nullptr) printf(": %.*s", static_cast<int>(d.name_length), d.name);
  printf("\n");
  return 1;
}

}  // namespace socsim::apps
