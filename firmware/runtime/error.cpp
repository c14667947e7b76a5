// Names of the runtime's error codes; fatal().
#include "firmware/runtime/error.h"

#if defined(__riscv)
#include "firmware/hal/exit.h"
#else
#include <stdio.h>
#include <stdlib.h>
#endif

namespace socsim::runtime {

const char* to_string(Error error) {
  switch (error) {
    case Error::kOk:
      return "Ok";
    case Error::kInternal:
      return "Internal";
    case Error::kInvalidArgument:
      return "InvalidArgument";
    case Error::kInvalidState:
      return "InvalidState";
    case Error::kNotSupported:
      return "NotSupported";
    case Error::kNotFound:
      return "NotFound";
    case Error::kMemoryAllocationFailed:
      return "MemoryAllocationFailed";
    case Error::kRegistryFull:
      return "RegistryFull";
    case Error::kPlannedMemoryTooSmall:
      return "PlannedMemoryTooSmall";
    case Error::kProgramBadMagic:
      return "ProgramBadMagic";
    case Error::kProgramBadVersion:
      return "ProgramBadVersion";
    case Error::kProgramTruncated:
      return "ProgramTruncated";
    case Error::kProgramOutOfBounds:
      return "ProgramOutOfBounds";
    case Error::kProgramMisaligned:
      return "ProgramMisaligned";
    case Error::kProgramBadTensor:
      return "ProgramBadTensor";
    case Error::kProgramBadInstruction:
      return "ProgramBadInstruction";
    case Error::kProgramBadMemoryPlan:
      return "ProgramBadMemoryPlan";
    case Error::kProgramBadDelegate:
      return "ProgramBadDelegate";
    case Error::kOperatorMissing:
      return "OperatorMissing";
    case Error::kShapeMismatch:
      return "ShapeMismatch";
    case Error::kDtypeMismatch:
      return "DtypeMismatch";
    case Error::kBadOperatorArgs:
      return "BadOperatorArgs";
    case Error::kDelegateMissing:
      return "DelegateMissing";
    case Error::kDelegateUnavailable:
      return "DelegateUnavailable";
    case Error::kDelegateInitFailed:
      return "DelegateInitFailed";
    case Error::kDelegateExecuteFailed:
      return "DelegateExecuteFailed";
  }
  return "Unknown";
}

void fatal(const char* message) {
#if defined(__riscv)
  socsim_abort(message);  // the HAL: the message on the console, exit status 134
#else
  fprintf(stderr, "socsim runtime: %s\n", message);
  abort();
#endif
}

}  // namespace socsim::runtime
