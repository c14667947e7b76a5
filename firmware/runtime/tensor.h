// Tensors as the runtime and the kernels see them.
//
// A Tensor is a small descriptor owned by the Method (allocated from the method allocator
// at load): dtype, shape, a data pointer into planned memory or into the program's constant
// segment, and quantisation parameters. It never owns its data.
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace socsim::runtime {

/// Element types. The numeric values are the dtype codes of the program file.
enum class ScalarType : uint8_t {
  kFloat32 = 1,
  kInt8 = 2,
  kInt32 = 3,
  kUInt8 = 4,
};

constexpr uint32_t kMaxRank = 6;

/// Size in bytes of one element, 0 for an unknown code.
inline uint32_t element_size(ScalarType type) {
  switch (type) {
    case ScalarType::kFloat32:
      return 4;
    case ScalarType::kInt8:
      return 1;
    case ScalarType::kInt32:
      return 4;
    case ScalarType::kUInt8:
      return 1;
  }
  return 0;
}

/// "float32", "int8", ...; "unknown" for other codes.
const char* to_string(ScalarType type);

enum class QuantKind : uint8_t { kNone = 0, kPerTensor = 1, kPerChannel = 2 };

/// Affine quantisation: real = scale * (q - zero_point). Per-channel arrays point into the
/// program bytes (read-only, never copied).
struct QuantParams {
  QuantKind kind = QuantKind::kNone;
  float scale = 0.0f;
  int32_t zero_point = 0;
  uint32_t axis = 0;
  uint32_t channels = 0;
  const float* scales = nullptr;
  const int32_t* zero_points = nullptr;
};

/// A dense, row-major tensor descriptor.
struct Tensor {
  ScalarType dtype = ScalarType::kFloat32;
  uint32_t rank = 0;
  int32_t sizes[kMaxRank] = {};
  void* data = nullptr;
  uint32_t nbytes = 0;
  QuantParams quant;

  uint32_t numel() const {
    uint32_t n = 1;
    for (uint32_t i = 0; i < rank; ++i) n *= static_cast<uint32_t>(sizes[i]);
    return n;
  }
  template <typename T>
  T* data_as() const {
    return static_cast<T*>(data);
  }
  /// True when both tensors have the same rank and sizes.
  bool same_shape(const Tensor& other) const {
    if (rank != other.rank) return false;
    for (uint32_t i = 0; i < rank; ++i) {
      if (sizes[i] != other.sizes[i]) return false;
    }
    return true;
  }
};

}  // namespace socsim::runtime
