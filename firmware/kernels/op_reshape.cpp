// Reshape (also Flatten): the same bytes under a new shape; the compiler fixed the shape.
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

Error reshape(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts(k, 1, 1, 0));
  const Tensor& x = *k.inputs[0];
  Tensor& y = *k.outputs[0];
  if (x.dtype != y.dtype) return Error::kDtypeMismatch;
  if (x.nbytes != y.nbytes) return Error::kShapeMismatch;
  if (x.data != y.data) memmove(y.data, x.data, x.nbytes);
  return Error::kOk;
}

}  // namespace

SOCSIM_REGISTER_KERNEL("reshape", kFloat32, reshape);
SOCSIM_REGISTER_KERNEL("reshape", kInt8, reshape);
SOCSIM_REGISTER_KERNEL("reshape", kInt32, reshape);

}  // namespace socsim::kernels
