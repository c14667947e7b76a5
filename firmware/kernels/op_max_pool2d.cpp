// 2-D max pooling (NCHW), aten::max_pool2d.out. Padding never wins: the maximum is over input
// elements only. int8 input and output share quantisation, so no requantisation is needed.
#include "firmware/kernels/pool_util.h"

namespace socsim::kernels {
namespace {

template <typename T>
Error max_pool_kernel(const Tensor& x, Tensor& y, ops::MaxPool2d::Args args) {
  PoolGeometry g;
  SOCSIM_RT_TRY(pool_geometry(x, y, args, &g));
  const bool ok = max_pool(g, x.data_as<T>(), y.data_as<T>());
  return ok ? Error::kOk : Error::kShapeMismatch;
}

Error max_pool2d_f32(const Tensor& x, Tensor& y, ops::MaxPool2d::Args args, MemoryAllocator*) {
  return max_pool_kernel<float>(x, y, args);
}
Error max_pool2d_i8(const Tensor& x, Tensor& y, ops::MaxPool2d::Args args, MemoryAllocator*) {
  return max_pool_kernel<int8_t>(x, y, args);
}

}  // namespace

SOCSIM_KERNEL(ops::MaxPool2d, max_pool2d_f32, kFloat32);
SOCSIM_KERNEL(ops::MaxPool2d, max_pool2d_i8, kInt8);

}  // namespace socsim::kernels
