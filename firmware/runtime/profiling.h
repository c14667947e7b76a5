// Optional profiling hooks: plain function pointers called at the begin and end of program
// load, method load, method init, each execution, each operator call and each delegate call.
//
// With no hooks installed the cost is one load and one branch per event, so the runtime is
// always built with them; a probe facility (cycle counters, a probe register the simulator
// watches) attaches by installing a ProfilingHooks table.
#pragma once

#include <stdint.h>

namespace socsim::runtime {

enum class ProfileEvent : uint8_t {
  kProgramLoad = 0,  ///< Program::load; elements = file size in bytes.
  kMethodLoad = 1,   ///< Method::load as a whole (includes kMethodInit).
  kMethodInit = 2,   ///< Delegate init and kernel resolution.
  kExecute = 3,      ///< One Method::execute; index = execution count so far.
  kOperator = 4,     ///< One kernel call; index = instruction, elements = output 0 numel.
  kDelegate = 5,     ///< One delegate call; index = instruction, elements = output 0 numel.
};

/// "program_load", "method_load", ...
const char* to_string(ProfileEvent event);

/// Called with the event, an index (see ProfileEvent), a name (operator name or backend id,
/// otherwise the event name) and an element count. Either pointer may be null.
using ProfileCallback = void (*)(void* context, ProfileEvent event, uint32_t index,
                                 const char* name, uint32_t elements);

struct ProfilingHooks {
  ProfileCallback begin = nullptr;
  ProfileCallback end = nullptr;
  void* context = nullptr;
};

/// Installs `hooks` (which must outlive their use) or, with nullptr, removes them.
void set_profiling_hooks(const ProfilingHooks* hooks);

namespace detail {
extern const ProfilingHooks* g_profiling_hooks;
}

inline void profile_begin(ProfileEvent event, uint32_t index, const char* name, uint32_t elements) {
  const ProfilingHooks* hooks = detail::g_profiling_hooks;
  if (hooks != nullptr && hooks->begin != nullptr) {
    hooks->begin(hooks->context, event, index, name, elements);
  }
}

inline void profile_end(ProfileEvent event, uint32_t index, const char* name, uint32_t elements) {
  const ProfilingHooks* hooks = detail::g_profiling_hooks;
  if (hooks != nullptr && hooks->end != nullptr) {
    hooks->end(hooks->context, event, index, name, elements);
  }
}

}  // namespace socsim::runtime
