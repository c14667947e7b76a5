// Fixed-size backend table, zero-initialised in BSS.
#include "firmware/runtime/backend_registry.h"

#include <string.h>

namespace socsim::runtime {
namespace {

const Backend* g_backends[kMaxBackends];
size_t g_backend_count = 0;
Error g_status = Error::kOk;

}  // namespace

Error register_backend(const Backend* backend) {
  Error error = Error::kOk;
  if (backend == nullptr || backend->id == nullptr || backend->is_available == nullptr ||
      backend->init == nullptr || backend->execute == nullptr || backend->destroy == nullptr) {
    error = Error::kInvalidArgument;
  } else if (find_backend(backend->id, strlen(backend->id)) != nullptr) {
    error = Error::kInvalidArgument;
  } else if (g_backend_count == kMaxBackends) {
    error = Error::kRegistryFull;
  } else {
    g_backends[g_backend_count++] = backend;
  }
  if (error != Error::kOk && g_status == Error::kOk) g_status = error;
  return error;
}

const Backend* find_backend(const char* id, size_t id_length) {
  for (size_t i = 0; i < g_backend_count; ++i) {
    const char* name = g_backends[i]->id;
    if (strncmp(name, id, id_length) == 0 && name[id_length] == '\0') return g_backends[i];
  }
  return nullptr;
}

Error backend_registry_status() {
  return g_status;
}

}  // namespace socsim::runtime
