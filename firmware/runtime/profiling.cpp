// The installed profiling hooks (none by default).
#include "firmware/runtime/profiling.h"

namespace socsim::runtime {

namespace detail {
const ProfilingHooks* g_profiling_hooks = nullptr;
}

void set_profiling_hooks(const ProfilingHooks* hooks) {
  detail::g_profiling_hooks = hooks;
}

const char* to_string(ProfileEvent event) {
  switch (event) {
    case ProfileEvent::kProgramLoad:
      return "program_load";
    case ProfileEvent::kMethodLoad:
      return "method_load";
    case ProfileEvent::kMethodInit:
      return "method_init";
    case ProfileEvent::kExecute:
      return "execute";
    case ProfileEvent::kOperator:
      return "operator";
    case ProfileEvent::kDelegate:
      return "delegate";
  }
  return "unknown";
}

}  // namespace socsim::runtime
