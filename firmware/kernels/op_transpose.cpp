// Transpose, aten::permute_copy.out: y.shape[i] = x.shape[perm[i]], perm one entry per axis.
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

template <typename T>
void permute(const Tensor& x, Tensor& y, const uint32_t* in_stride_for_out) {
  const T* px = x.data_as<T>();
  T* py = y.data_as<T>();
  uint32_t index[runtime::kMaxRank] = {};
  uint32_t src = 0;
  const uint32_t numel = y.numel();
  for (uint32_t i = 0; i < numel; ++i) {
    py[i] = px[src];
    for (int32_t d = static_cast<int32_t>(y.rank) - 1; d >= 0; --d) {
      src += in_stride_for_out[d];
      if (++index[d] < static_cast<uint32_t>(y.sizes[d])) break;
      src -= in_stride_for_out[d] * index[d];
      index[d] = 0;
    }
  }
}

Error transpose(const KernelArgs& k) {
  using Op = ops::PermuteCopy;
  const Tensor& x = *k.inputs[Op::kX];
  Tensor& y = *k.outputs[Op::kOut];
  SOCSIM_RT_TRY(check_counts(k, Op::kInputs, Op::kOutputs, x.rank));  // perm: one per axis
  const int32_t* perm = Op::Args(k.args).perm();
  if (x.dtype != y.dtype) return Error::kDtypeMismatch;
  if (y.rank != x.rank) return Error::kShapeMismatch;
  uint32_t in_stride[runtime::kMaxRank];
  uint32_t stride = 1;
  for (int32_t d = static_cast<int32_t>(x.rank) - 1; d >= 0; --d) {
    in_stride[d] = stride;
    stride *= static_cast<uint32_t>(x.sizes[d]);
  }
  uint32_t seen = 0;
  uint32_t out_stride[runtime::kMaxRank];
  for (uint32_t d = 0; d < y.rank; ++d) {
    const int32_t p = perm[d];
    if (p < 0 || p >= static_cast<int32_t>(x.rank) || (seen & (1u << p)) != 0) {
      return Error::kBadOperatorArgs;
    }
    seen |= 1u << p;
    if (y.sizes[d] != x.sizes[p]) return Error::kShapeMismatch;
    out_stride[d] = in_stride[p];
  }
  if (runtime::element_size(x.dtype) == 1) {
    permute<int8_t>(x, y, out_stride);
  } else {
    permute<int32_t>(x, y, out_stride);
  }
  return Error::kOk;
}

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::PermuteCopy, kFloat32, transpose);
SOCSIM_REGISTER_KERNEL(ops::PermuteCopy, kInt8, transpose);

}  // namespace socsim::kernels
