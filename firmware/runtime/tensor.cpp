// Names of element types.
#include "firmware/runtime/tensor.h"

namespace socsim::runtime {

const char* to_string(ScalarType type) {
  switch (type) {
    case ScalarType::kFloat32:
      return "float32";
    case ScalarType::kInt8:
      return "int8";
    case ScalarType::kInt32:
      return "int32";
    case ScalarType::kUInt8:
      return "uint8";
  }
  return "unknown";
}

}  // namespace socsim::runtime
