// Reshape (also Flatten, Squeeze, Unsqueeze), aten::view_copy.out: the same bytes under a new
// shape; the compiler fixed the shape.
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

Error reshape(const KernelArgs& k) {
  using Op = ops::ViewCopy;
  SOCSIM_RT_TRY(check_counts<Op>(k));
  const Tensor& x = *k.inputs[Op::kX];
  Tensor& y = *k.outputs[Op::kOut];
  if (x.dtype != y.dtype) return Error::kDtypeMismatch;
  if (x.nbytes != y.nbytes) return Error::kShapeMismatch;
  if (x.data != y.data) memmove(y.data, x.data, x.nbytes);
  return Error::kOk;
}

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::ViewCopy, kFloat32, reshape);
SOCSIM_REGISTER_KERNEL(ops::ViewCopy, kInt8, reshape);
SOCSIM_REGISTER_KERNEL(ops::ViewCopy, kInt32, reshape);

}  // namespace socsim::kernels
