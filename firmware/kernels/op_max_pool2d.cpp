// 2-D max pooling (NCHW), aten::max_pool2d.out. Padding never wins: the maximum is over input
// elements only. int8 input and output share quantisation, so no requantisation is needed.
#include "firmware/kernels/pool_util.h"

namespace socsim::kernels {
namespace {

using Op = ops::MaxPool2d;

template <typename T>
Error max_pool_kernel(const KernelArgs& k, ScalarType type) {
  SOCSIM_RT_TRY(check_counts<Op>(k));
  if (!same_dtype(*k.outputs[Op::kOut], type)) return Error::kDtypeMismatch;
  PoolGeometry g;
  SOCSIM_RT_TRY(pool_geometry(*k.inputs[Op::kX], *k.outputs[Op::kOut], Op::Args(k.args), &g));
  const bool ok = max_pool(g, k.inputs[Op::kX]->data_as<T>(), k.outputs[Op::kOut]->data_as<T>());
  return ok ? Error::kOk : Error::kShapeMismatch;
}

Error max_pool2d_f32(const KernelArgs& k) {
  return max_pool_kernel<float>(k, ScalarType::kFloat32);
}
Error max_pool2d_i8(const KernelArgs& k) {
  return max_pool_kernel<int8_t>(k, ScalarType::kInt8);
}

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::MaxPool2d, kFloat32, max_pool2d_f32);
SOCSIM_REGISTER_KERNEL(ops::MaxPool2d, kInt8, max_pool2d_i8);

}  // namespace socsim::kernels
