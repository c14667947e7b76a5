#include "platform/version.h"

#include "socsim_git_describe.h"

namespace socsim {

const char* socsim_version() { return SOCSIM_VERSION; }
const char* socsim_git_describe() { return SOCSIM_GIT_DESCRIBE; }

}  // namespace socsim
